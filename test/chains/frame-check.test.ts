// The frame check of one connection, frame by frame: what it delivers, drops and refuses.
import { describe, expect, it } from 'vitest';
import { FrameCheck, MAX_JSON_DEPTH, MAX_RUNTIME_VERSIONS, nestsDeeperThan, SKIM_FROM_CHARS, type Verdict } from '../../src/chains/frame-check';
import { skim, UNREAD } from '../../src/chains/skim';
import { OVER_BUDGET_CODE } from '../../src/chains/answer-budget';

const request = (id: number, method: string, params: unknown[] = []) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const answer = (id: number, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
const notification = (method: string, subscription: unknown, result: unknown = null) => JSON.stringify({ jsonrpc: '2.0', method, params: { subscription, result } });

function checkWith(skimFrom?: number): { sent(text: string): void; received(text: string): Verdict } {
  const frames = new FrameCheck(skimFrom);
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

// Each frame read both ways: parsed (frames under SKIM_FROM_CHARS) and skimmed (every frame, here).
describe.each([
  ['parsed', undefined],
  ['skimmed', 0],
])('FrameCheck, frames %s', (_, skimFrom) => {
  const check = () => checkWith(skimFrom);
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

describe.each([
  ['parsed', undefined],
  ['skimmed', 0],
])('runtime versions, frames %s', (_, skimFrom) => {
  const check = () => checkWith(skimFrom);
  it(`a runtime-version subscription delivers ${MAX_RUNTIME_VERSIONS} versions; the next one fails the connection`, () => {
    const frames = check();
    frames.sent(request(1, 'state_subscribeRuntimeVersion'));
    frames.received(answer(1, 'rv'));
    for (let v = 1; v <= MAX_RUNTIME_VERSIONS; v++) expect(frames.received(notification('state_runtimeVersion', 'rv', { specVersion: v }))).toBe('deliver');
    expect(frames.received(notification('state_runtimeVersion', 'rv', { specVersion: 99 }))).toEqual(refused(/more than 3 runtime versions/));
  });
});

describe('large frames are skimmed, not parsed', () => {
  const big = '0x' + 'ab'.repeat(SKIM_FROM_CHARS);
  const frames = () => {
    const f = checkWith();
    f.sent(request(1, 'chain_getBlock'));
    return f;
  };

  it('a block of large extrinsics is delivered; its envelope is read, its extrinsics are not', () => {
    const block = answer(1, { block: { header: { number: '0x1' }, extrinsics: [big, big] }, justifications: null });
    expect(frames().received(block)).toBe('deliver');
    expect(skim(block, MAX_JSON_DEPTH)).toEqual({ jsonrpc: '2.0', id: 1, result: { block: UNREAD, justifications: null } });
  });

  it('refuses what the parse refuses: no JSON, trailing text, an unclosed string, depth past the bound', () => {
    const block = answer(1, [big]);
    expect(frames().received(block.slice(0, -1))).toEqual(refused(/not JSON \(the text ends before its JSON does\)/));
    expect(frames().received(block + 'x')).toEqual(refused(/not JSON \(unexpected "x"/));
    expect(frames().received(block.replace(/"\]/, ']'))).toEqual(refused(/not JSON \(a string is not closed\)/));
    expect(frames().received(block.replace('"result":[', '"result":[,'))).toEqual(refused(/not JSON \(unexpected ","/));
    expect(frames().received(block.replace('"id":1', '"id":1x'))).toEqual(refused(/not JSON/));
    expect(frames().received(JSON.stringify([big]))).toEqual(refused(/not a JSON-RPC object \(a long value\)/));
    // The frame and its result are two levels: 63 more is one too many, as when parsed.
    const nestedIn = (levels: number) => `{"jsonrpc":"2.0","id":1,"result":[${JSON.stringify(big)},${'['.repeat(levels)}${']'.repeat(levels)}]}`;
    expect(nestsDeeperThan(nestedIn(MAX_JSON_DEPTH - 1), MAX_JSON_DEPTH)).toBe(true);
    expect(frames().received(nestedIn(MAX_JSON_DEPTH - 1))).toEqual(refused(/nested deeper than 64/));
    expect(frames().received(nestedIn(MAX_JSON_DEPTH - 2))).toBe('deliver');
    expect(frames().received(nestedIn(300_000))).toEqual(refused(/nested deeper than 64/));
  });

  it('brackets and escaped quotes inside long strings do not count', () => {
    const tricky = JSON.stringify('['.repeat(SKIM_FROM_CHARS) + '\\"{' + '\\'.repeat(3));
    expect(frames().received(`{"jsonrpc":"2.0","id":1,"result":[${tricky}]}`)).toBe('deliver');
  });

  it('the envelope is checked as when parsed: an id never asked, a notification never subscribed, an error without a code', () => {
    const f = frames();
    expect(f.received(answer(2, [big]))).toEqual(refused(/answer to id 2, which was never asked/));
    expect(f.received(notification('state_storage', 's', [big]))).toEqual(refused(/subscription s, which was never given/));
    expect(f.received(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { message: 'x', data: big } }))).toEqual(refused(/error without a numeric code/));
    const g = frames();
    expect(g.received(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x', data: big } }))).toBe('deliver');
  });

  it('a member named __proto__ is a member, as JSON.parse reads it', () => {
    expect(Object.keys(skim('{"__proto__":{"a":1},"b":2}', MAX_JSON_DEPTH) as object)).toEqual(['__proto__', 'b']);
  });
});

describe('answers read under a request budget', () => {
  it('an answer longer than its request may still read is given as an error answer to its id, unparsed; others pass', () => {
    const frames = new FrameCheck();
    const measured: number[] = [];
    const budget = { fits: (chars: number) => (measured.push(chars), chars <= 100) };
    frames.sent(request(1, 'chain_getBlock'), budget);
    frames.sent(request(2, 'chain_getBlock'), budget);
    frames.sent(request(3, 'chain_getBlock'));
    const long = answer(1, 'x'.repeat(200));
    const instead = { jsonrpc: '2.0', id: 1, error: { code: OVER_BUDGET_CODE, message: `an answer of ${long.length} bytes, more than the request may still read` } };
    expect(frames.received(long, false, () => undefined)).toEqual({ instead: JSON.stringify(instead) });
    expect(frames.received(answer(2, 'x'), false, () => undefined)).toBe('deliver');
    expect(frames.received(answer(3, 'x'.repeat(200)), false, () => undefined)).toBe('deliver');
    expect(measured).toEqual([long.length, answer(2, 'x').length]);
  });
});
