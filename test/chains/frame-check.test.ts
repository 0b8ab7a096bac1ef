// The frame check of one connection, frame by frame: what it delivers, drops and refuses.
import { describe, expect, it } from 'vitest';
import { FrameCheck, HOLD_MS, MAX_HELD_CHARS, MAX_HELD_FRAMES, MAX_JSON_DEPTH, MAX_RUNTIME_VERSIONS, nestsDeeperThan, SKIM_FROM_CHARS, type Verdict } from '../../src/chains/frame-check';
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

  it('a notification before the answer giving its subscription id is held, then delivered right after that answer (as chopsticks sends them)', () => {
    const frames = check();
    frames.sent(request(1, 'state_subscribeRuntimeVersion'));
    const first = notification('state_runtimeVersion', 'rv', { specVersion: 1 });
    expect(frames.received(first)).toBe('hold');
    expect(frames.received(answer(1, 'rv'))).toEqual({ then: [first] });
    expect(frames.received(notification('state_runtimeVersion', 'rv', { specVersion: 2 }))).toBe('deliver');
  });

  it('held notifications go out with their own subscription only, in the order they came', () => {
    const frames = check();
    frames.sent(request(1, 'chain_subscribeNewHeads'));
    frames.sent(request(2, 'chain_subscribeFinalizedHeads'));
    const [a1, b1, a2] = [notification('chain_newHead', 'a', 1), notification('chain_finalizedHead', 'b', 1), notification('chain_newHead', 'a', 2)];
    for (const frame of [a1, b1, a2]) expect(frames.received(frame)).toBe('hold');
    expect(frames.received(answer(1, 'a'))).toEqual({ then: [a1, a2] });
    expect(frames.received(answer(2, 'b'))).toEqual({ then: [b1] });
  });

  it('a notification is held only while a subscribe request for its method awaits its answer', () => {
    const frames = check();
    frames.sent(request(1, 'state_subscribeRuntimeVersion'));
    expect(frames.received(notification('chain_newHead', 'h'))).toEqual(refused(/subscription h, which was never given/));
    const other = check();
    other.sent(request(1, 'state_getRuntimeVersion'));
    expect(other.received(notification('state_runtimeVersion', 'rv'))).toEqual(refused(/never given/));
  });

  it('a held notification whose id the answer does not give, with no other request to give it, fails the connection', () => {
    const frames = check();
    frames.sent(request(1, 'state_subscribeRuntimeVersion'));
    expect(frames.received(notification('state_runtimeVersion', 'other'))).toBe('hold');
    expect(frames.received(answer(1, 'rv'))).toEqual(refused(/subscription other, which was never given/));
    const failed = check();
    failed.sent(request(1, 'state_subscribeRuntimeVersion'));
    expect(failed.received(notification('state_runtimeVersion', 'rv'))).toBe('hold');
    expect(failed.received(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } }))).toEqual(refused(/subscription rv, which was never given/));
  });

  it('held notifications are checked on their subscription when released: the runtime-version bound counts them', () => {
    const frames = check();
    frames.sent(request(1, 'state_subscribeRuntimeVersion'));
    for (let v = 0; v <= MAX_RUNTIME_VERSIONS; v++) expect(frames.received(notification('state_runtimeVersion', 'rv', { specVersion: v }))).toBe('hold');
    expect(frames.received(answer(1, 'rv'))).toEqual(refused(/more than 3 runtime versions/));
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

describe('notifications held for a subscription id not yet given are bounded', () => {
  it(`${MAX_HELD_FRAMES} frames at once; the next fails the connection`, () => {
    const frames = checkWith();
    frames.sent(request(1, 'chain_subscribeNewHeads'));
    for (let n = 0; n < MAX_HELD_FRAMES; n++) expect(frames.received(notification('chain_newHead', 'h', n))).toBe('hold');
    expect(frames.received(notification('chain_newHead', 'h', 99))).toEqual(refused(/more than 16 notifications or 1048576 bytes wait/));
  });

  it(`${MAX_HELD_CHARS} bytes at once; the frame past them fails the connection`, () => {
    const frames = checkWith();
    frames.sent(request(1, 'chain_subscribeNewHeads'));
    const half = notification('chain_newHead', 'h', 'x'.repeat(MAX_HELD_CHARS / 2 - 100));
    expect(frames.received(half)).toBe('hold');
    expect(frames.received(half)).toBe('hold');
    expect(frames.received(notification('chain_newHead', 'h', 'x'.repeat(200)))).toEqual(refused(/wait for subscription ids/));
  });

  it(`${HOLD_MS} ms: past them, the next frame fails the connection (and heldTooLong says why, for the socket's timer)`, () => {
    let now = 1_000;
    const frames = new FrameCheck(undefined, () => now);
    const received = (text: string) => frames.received(text, false, () => undefined);
    frames.sent(request(1, 'state_subscribeRuntimeVersion'));
    frames.sent(request(2, 'state_getStorage'));
    expect(received(notification('state_runtimeVersion', 'rv'))).toBe('hold');
    now += HOLD_MS - 1;
    expect(frames.heldTooLong()).toBeUndefined();
    now += 1;
    expect(frames.holding).toBe(true);
    expect(frames.heldTooLong()).toMatch(/subscription rv, which was never given in 5000 ms/);
    expect(received(answer(2, null))).toEqual(refused(/never given in 5000 ms/));
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
    const held = frames();
    held.sent(request(2, 'state_subscribeStorage', [[]]));
    const early = notification('state_storage', 's', [big]);
    expect(held.received(early)).toBe('hold');
    expect(held.received(answer(2, 's'))).toEqual({ then: [early] });
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
