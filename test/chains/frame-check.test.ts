// The frame check of one connection, frame by frame: what it delivers, drops and refuses.
import { describe, expect, it } from 'vitest';
import { FrameCheck, MAX_JSON_DEPTH, MAX_RUNTIME_VERSIONS, nestsDeeperThan, type Verdict } from '../../src/chains/frame-check';

const request = (id: number, method: string, params: unknown[] = []) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const answer = (id: number, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
const notification = (method: string, subscription: unknown, result: unknown = null) => JSON.stringify({ jsonrpc: '2.0', method, params: { subscription, result } });

function check(): { sent(text: string): void; received(text: string): Verdict } {
  const frames = new FrameCheck();
  return { sent: (text) => frames.sent(text), received: (text) => frames.received(text, false, () => undefined) };
}
const refused = (pattern: RegExp) => ({ problem: expect.stringMatching(pattern) as unknown });

describe('nestsDeeperThan', () => {
  const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

  it('counts arrays and objects, up to the bound and past it', () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan('{"a":'.repeat(65) + '1' + '}'.repeat(65), 64)).toBe(true);
    expect(nestsDeeperThan(nested(300_000), 64)).toBe(true);
  });

  it('siblings are not nesting: many brackets side by side are depth 2', () => {
    expect(nestsDeeperThan(JSON.stringify(Array.from({ length: 10_000 }, () => [1])), 64)).toBe(false);
  });

  it('brackets inside strings, escaped quotes included, do not count', () => {
    const inString = JSON.stringify(['['.repeat(100), '\\"['.repeat(100), '\\'.repeat(7) + '"'.repeat(3), '{'.repeat(100)]);
    expect(nestsDeeperThan(inString, 64)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['\\']) + nested(65), 64)).toBe(true);
  });
});

describe('FrameCheck', () => {
  it('delivers an answer to a request sent, once; a second answer to it is refused', () => {
    const frames = check();
    frames.sent(request(1, 'state_getStorage'));
    expect(frames.received(answer(1, '0x00'))).toBe('deliver');
    expect(frames.received(answer(1, '0x00'))).toEqual(refused(/answer to id 1, which was never asked/));
  });

  it(`refuses a frame nested deeper than ${MAX_JSON_DEPTH} levels, in a result, an error's data or a notification`, () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    const frames = check();
    frames.sent(request(1, 'chain_getBlock'));
    frames.sent(request(2, 'state_call'));
    expect(frames.received(`{"jsonrpc":"2.0","id":1,"result":${deep}}`)).toEqual(refused(/nested deeper than 64/));
    expect(frames.received(`{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x","data":${deep}}}`)).toEqual(refused(/nested deeper/));
    expect(frames.received(`{"jsonrpc":"2.0","method":"chain_newHead","params":{"subscription":"s","result":${deep}}}`)).toEqual(refused(/nested deeper/));
  });

  it('a notification before the subscribe request is answered is refused (a node answers a subscribe before notifying on it)', () => {
    const frames = check();
    frames.sent(request(1, 'state_subscribeRuntimeVersion'));
    expect(frames.received(notification('state_runtimeVersion', 'rv'))).toEqual(refused(/subscription rv, which was never given/));
  });

  it('a subscription is given by the answer to a subscribe request; its notifications come with its method', () => {
    const frames = check();
    frames.sent(request(1, 'chain_subscribeFinalizedHeads'));
    expect(frames.received(answer(1, 7))).toBe('deliver');
    expect(frames.received(notification('chain_finalizedHead', 7))).toBe('deliver');
    // polkadot.js's alias of the same method, and the id as a string: the same subscription.
    expect(frames.received(notification('chain_finalisedHead', '7'))).toBe('deliver');
    expect(frames.received(notification('state_storage', 7))).toEqual(refused(/on a subscription whose notifications are chain_finalizedHead/));
  });

  it('an answer to an ordinary request gives no subscription, whatever it holds', () => {
    const frames = check();
    frames.sent(request(1, 'state_getStorage'));
    expect(frames.received(answer(1, 'abc'))).toBe('deliver');
    expect(frames.received(notification('state_storage', 'abc'))).toEqual(refused(/never given/));
  });

  it('a subscribe answer that is no short id is refused', () => {
    const frames = check();
    frames.sent(request(1, 'chainHead_v1_follow', [true]));
    frames.sent(request(2, 'chainHead_v1_follow', [true]));
    expect(frames.received(answer(1, { id: 1 }))).toEqual(refused(/subscription id .* is not a short string or a number/));
    expect(frames.received(answer(2, 'x'.repeat(129)))).toEqual(refused(/is not a short string/));
  });

  it('after an unsubscribe is sent, notifications still on the way are dropped; once it is answered, refused', () => {
    const frames = check();
    frames.sent(request(1, 'chainHead_v1_follow', [true]));
    frames.received(answer(1, 'f'));
    expect(frames.received(notification('chainHead_v1_followEvent', 'f', { event: 'initialized' }))).toBe('deliver');
    frames.sent(request(2, 'chainHead_v1_unfollow', ['f']));
    expect(frames.received(notification('chainHead_v1_followEvent', 'f', { event: 'bestBlockChanged' }))).toBe('drop');
    expect(frames.received(answer(2, null))).toBe('deliver');
    expect(frames.received(notification('chainHead_v1_followEvent', 'f'))).toEqual(refused(/never given/));
  });

  it('an unsubscribe for a subscription it does not hold changes nothing', () => {
    const frames = check();
    frames.sent(request(1, 'state_subscribeStorage', [[]]));
    frames.received(answer(1, 's'));
    frames.sent(request(2, 'state_unsubscribeStorage', ['other']));
    expect(frames.received(answer(2, true))).toBe('deliver');
    expect(frames.received(notification('state_storage', 's', { block: '0x', changes: [] }))).toBe('deliver');
  });
});

describe('runtime versions', () => {
  it(`a runtime-version subscription delivers ${MAX_RUNTIME_VERSIONS} versions; the next one fails the connection`, () => {
    const frames = check();
    frames.sent(request(1, 'state_subscribeRuntimeVersion'));
    frames.received(answer(1, 'rv'));
    for (let v = 1; v <= MAX_RUNTIME_VERSIONS; v++) expect(frames.received(notification('state_runtimeVersion', 'rv', { specVersion: v }))).toBe('deliver');
    expect(frames.received(notification('state_runtimeVersion', 'rv', { specVersion: 99 }))).toEqual(refused(/more than 3 runtime versions/));
  });
});
