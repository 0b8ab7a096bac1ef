import { monitorEventLoopDelay } from 'node:perf_hooks';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { sdk } from '../../src/sdk';
import { MAX_OVERRIDE_ENDPOINTS } from '../../src/service/sdk-calls/override-endpoints';
import { testApp } from '../helpers/app';

/**
 * Property-based robustness of every declared route (the static /docs and /openapi.yaml aside):
 * whatever the path parameters, query string and body, the answer is never a 5xx, the process
 * keeps serving, and every error answer carries the JSON error body.
 *
 * Everything runs in-process (supertest on the app) and offline: every POST object body gets
 * `options.development: true` merged in, so that a body that happens to be valid stops at "no
 * endpoint for <chain>" (400 MissingChainApiError) instead of dialling the registry's endpoints.
 * Lookup bodies ignore the extra field. A GET that dials a chain unless its query says otherwise
 * (the Ethereum bridge status, the bridge fees) cannot be kept offline and is left out.
 */

const { app } = testApp();

interface RouteEntry {
  method: string;
  path: string;
}

const STATIC = new Set(['/docs', '/openapi.yaml']);
const ALWAYS_ONLINE = (r: RouteEntry) => r.method === 'get' && /\/(eth-bridge-status|para-eth-fees)$/.test(r.path);
const ROUTES = app.routes.filter((r) => !STATIC.has(r.path) && !ALWAYS_ONLINE(r));

const CHAINS: readonly string[] = sdk.CHAINS;
const RUNS_PER_ROUTE = 50;
const RUNS_SPECIAL = 60;
const RUNS_HOSTILE = 200;

/**
 * CI replays one fixed seed; a local run takes a random one. Either is printed, and FUZZ_SEED
 * replays a run (fast-check also prints the seed and path of a failing case).
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.CI ? 20_261_123 : Math.floor(Math.random() * 2 ** 31);
console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
fc.configureGlobal({ seed: SEED });

/** An error answer stays below this, whatever the body (issue 9: at most 20 issues, then a count). */
const MAX_ERROR_ANSWER = 16 * 1024;
/**
 * The longest one request may hold the event loop: a bound that catches a blocking loop (a regular
 * expression that backtracks, a decode that grows with the square of its input: seconds), not a
 * speed target. A budget of a few milliseconds belongs in a bench: here, on a shared machine, the
 * CPU time of a 10 ms request stretches past 100 ms when other processes take the cores' caches.
 */
const MAX_BLOCK_MS = 1_000;

// ---- generators ---------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strings that tend to break things: unicode, control characters, empty-ish, very long. */
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\t', '\u0000', '\u202e', 'null', 'undefined', 'NaN', '-1', '0', '1e400', '__proto__', 'constructor', 'toString', '0x', 'ALL', 'Here', '{}', '[]'),
  fc.string({ minLength: 300, maxLength: 1500 }),
);

/** Chain-like strings: real names, near misses and junk. */
const chainish = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CHAINS) },
  fc.constantFrom(...CHAINS).map((c) => c.toLowerCase()),
  fc.constantFrom(...CHAINS).map((c) => `${c} `),
  fc.constantFrom('Ethereum', 'Polkadot', 'Kusama', 'Rococo', 'Hydrayion', 'AssetHub'),
  nastyString,
);

const numberish = fc.oneof(
  fc.integer(),
  fc.nat().map(String),
  fc.bigInt({ min: 0n, max: 2n ** 256n }).map((n) => n.toString()),
  fc.bigInt({ min: 0n, max: 2n ** 256n }).map((n) => `${n}n`),
  fc.double(),
  fc.constantFrom(0, -0, 1, -1, 2 ** 53, 2 ** 64, 1e308, Number.MAX_SAFE_INTEGER, 0.5),
);

const anyJson: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>;

const junction: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ Parachain: numberish }),
  fc.record({ PalletInstance: numberish }),
  fc.record({ GeneralIndex: numberish }),
  fc.record({ AccountKey20: fc.record({ network: fc.constant(null), key: fc.oneof(fc.string(), fc.constant('0xdac17f958d2ee523a2206206994597c13d831ec7')) }) }),
  fc.record({ GlobalConsensus: fc.oneof(fc.record({ Ethereum: fc.record({ chainId: numberish }) }), fc.constantFrom('Polkadot', 'Kusama'), anyJson) }),
  anyJson,
);

const location: fc.Arbitrary<Json> = fc.record(
  {
    parents: fc.oneof(fc.integer({ min: -5, max: 300 }), fc.string(), numberish),
    interior: fc.oneof(
      fc.constant('Here'),
      fc.constant({ Here: null }),
      fc.array(junction, { minLength: 1, maxLength: 3 }).map((js) => ({ [`X${js.length}`]: js })),
      fc.array(junction, { maxLength: 3 }).map((js) => ({ X9: js })),
      anyJson,
    ),
  },
  { requiredKeys: [] },
);

const symbol: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom('DOT', 'USDT', 'USDt', 'USDC', 'HDX', 'KSM', 'WETH', 'ETH', 'xcDOT', 'DED'),
  nastyString,
  fc.record({ type: fc.constantFrom('Native', 'Foreign', 'ForeignAbstract', 'Override', 'x'), value: fc.oneof(fc.constantFrom('DOT', 'USDT', 'USDT1'), nastyString) }, { requiredKeys: [] }),
  anyJson,
);

const currency: fc.Arbitrary<Json> = fc.record(
  {
    symbol,
    id: fc.oneof(numberish, nastyString, anyJson),
    location: fc.oneof(location, location.map((l) => JSON.stringify(l)), location.map((l) => `Override(${JSON.stringify(l)})`), nastyString),
    amount: fc.oneof(numberish, fc.constantFrom('ALL', '1.5', '', ' 1', '01', '1e3'), nastyString),
    extra: anyJson,
  },
  { requiredKeys: [] },
);

const currencyOrJunk = fc.oneof({ weight: 3, arbitrary: currency }, fc.array(currency, { maxLength: 3 }), anyJson);

const plausibleBody: fc.Arbitrary<Json> = fc.record(
  {
    currency: currencyOrJunk,
    amount: numberish,
    symbol,
    id: numberish,
    location,
    destination: chainish,
    address: fc.oneof(fc.constantFrom('15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ', '0x1f9090aae28b8a3dceadf281b0f12828e676c326'), nastyString, location),
    recipient: fc.oneof(fc.constant('15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ'), nastyString, location),
    chain: chainish,
    from: chainish,
    to: fc.oneof(chainish, location),
    sender: nastyString,
    senderAddress: nastyString,
    feeAsset: currencyOrJunk,
    keepAlive: fc.oneof(fc.boolean(), anyJson),
    xcmVersion: fc.oneof(fc.constantFrom('V3', 'V4', 'V5', 'V6'), nastyString),
    pallet: fc.oneof(fc.constantFrom('PolkadotXcm', 'XTokens', 'Balances'), nastyString),
    method: fc.oneof(fc.constantFrom('transfer_assets', 'transfer'), nastyString),
    transact: fc.oneof(fc.record({ hex: fc.constantFrom('0x00', '0x', 'zz') }), anyJson),
    transactOptions: anyJson,
    options: fc.oneof(
      fc.record(
        {
          development: fc.oneof(fc.boolean(), anyJson),
          abstractDecimals: fc.oneof(fc.boolean(), anyJson),
          xcmFormatCheck: fc.oneof(fc.boolean(), anyJson),
          mode: fc.oneof(fc.constantFrom('BATCH', 'BATCH_ALL'), nastyString),
          apiOverrides: fc.oneof(fc.dictionary(chainish, fc.oneof(nastyString, fc.array(nastyString, { maxLength: 2 })), { maxKeys: 2 }), anyJson),
        },
        { requiredKeys: [] },
      ),
      anyJson,
    ),
    transfers: fc.oneof(fc.array(fc.record({ from: chainish, to: chainish, currency: currencyOrJunk, address: nastyString }, { requiredKeys: [] }), { maxLength: 3 }), anyJson),
    [`__proto__`]: anyJson,
  },
  { requiredKeys: [] },
) as fc.Arbitrary<Json>;

/** Deep nesting and huge numbers only expressible as JSON text. */
const awkwardJsonText = fc.oneof(
  fc.integer({ min: 10, max: 3000 }).map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
  fc.integer({ min: 10, max: 1000 }).map((d) => `{"currency":${'{"symbol":'.repeat(d)}"DOT"${'}'.repeat(d)}}`),
  fc.bigInt({ min: 0n, max: 10n ** 60n }).map((n) => `{"currency":{"id":${n}},"amount":${n}}`),
  fc.constantFrom('{"currency":{"id":1e400}}', '{"currency":{"id":-1e-400}}', '{"currency":{"symbol":"DOT","amount":1e400}}', '{"currency":{"location":{"parents":1e400,"interior":"Here"}}}'),
);

/** Raw bytes and near-JSON text with a JSON content type. */
const rawBody = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.constantFrom('', ' ', 'null', 'true', '"str"', '1e400', '{"currency":', '{"currency":{"symbol":"DOT"}', '\u0000', '\ufeff{}', '{"a":1,"a":2}', '[]', '{}'),
  awkwardJsonText,
);

// ---- hostile bodies: near-valid bodies with one part too big, too deep or almost right ---------

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

/** JSON text of amounts that are almost right: exponents, unicode digits and spaces, beyond u128. */
const nearValidAmount: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('1e309', '-1e309', '1e-7', '1.5e-10', '0', '-0', '0.0', '1e21', '18014398509481985', '0.1', '5e-324', '1.7976931348623157e308'),
  fc
    .constantFrom('100\u00a0', '\u00a0100', '1\u2007000', '\u0661\u0660\u0660', '\uff11\uff10\uff10', ' 1', '1 ', '+1', '.5', '5.', '1.2.3', '00001', '000.5', '0x10', '1_000', '1,5', 'Infinity', 'NaN', '1e3', '0.000', 'ALL', 'all', '')
    .map((t) => `"${t}"`),
  fc.bigInt({ min: 2n ** 128n - 3n, max: 2n ** 128n + 3n }).map((n) => `"${n}"`),
  fc.tuple(fc.nat(60), fc.integer({ min: 1, max: 60 }), fc.option(fc.integer({ min: 1, max: 60 }))).map(([zeros, digits, fraction]) => `"${'0'.repeat(zeros)}${'7'.repeat(digits)}${fraction ? `.${'3'.repeat(fraction)}` : ''}"`),
  fc.integer({ min: 90, max: 90_000 }).map((n) => `"${'9'.repeat(n)}"`),
);

const junctionText = fc.constantFrom('{"Parachain":1000}', '{"PalletInstance":50}', '{"GeneralIndex":1984}', '{"GlobalConsensus":{"Ethereum":{"chainId":1}}}');

/** JSON text of locations: deeply nested, very wide, or with too many junctions. */
const hostileLocation: fc.Arbitrary<string> = fc
  .oneof(
    fc.integer({ min: 5, max: 30_000 }).map((d) => `{"X1":${'['.repeat(d)}${']'.repeat(d)}}`),
    fc.integer({ min: 5, max: 14_000 }).map((d) => `{"X1":${'{"a":'.repeat(d)}1${'}'.repeat(d)}}`),
    fc.tuple(fc.integer({ min: 1, max: 5_000 }), junctionText).map(([n, j]) => `{"X1":[${Array.from({ length: n }, () => j).join(',')}]}`),
    fc.tuple(fc.integer({ min: 1, max: 40 }), junctionText).map(([n, j]) => `{"X${n}":[${Array.from({ length: n }, () => j).join(',')}]}`),
    fc.integer({ min: 1, max: 8_000 }).map((n) => `{"X1":{"GeneralKey":{"length":32,"data":[${Array.from({ length: n }, () => '0').join(',')}]}}}`),
  )
  .map((interior) => `{"parents":1,"interior":${interior}}`);

/** JSON text of one string, up to the body limit. */
const longString = fc.tuple(fc.integer({ min: 60, max: 90_000 }), fc.constantFrom('A', 'G', 'Polkadot', '\u00e9', '%', '0')).map(([n, unit]) => `"${unit.repeat(Math.ceil(n / unit.length))}"`);

/** JSON text of an object with many keys (at least `min`). */
const manyKeys = (value: string, min = 1) =>
  fc.tuple(fc.integer({ min, max: 6_000 }), fc.boolean()).map(([n, chains]) => `{${Array.from({ length: n }, (_, i) => `"${chains ? CHAINS[i % CHAINS.length] + (i >= CHAINS.length ? i : '') : `k${i}`}":${value}`).join(',')}}`);

/** JSON text of a long array of one item. */
const longArray = (item: string) => fc.integer({ min: 1, max: 20_000 }).map((n) => `[${Array.from({ length: n }, () => item).join(',')}]`);

/** Where a hostile part goes, and what it may be. */
const HOLES: { path: string[]; value: fc.Arbitrary<string> }[] = [
  { path: ['currency', 'amount'], value: nearValidAmount },
  { path: ['amount'], value: nearValidAmount },
  { path: ['currency', 'location'], value: fc.oneof(hostileLocation, hostileLocation.map((l) => JSON.stringify(l))) },
  { path: ['currencyFrom', 'location'], value: hostileLocation },
  { path: ['to'], value: hostileLocation },
  { path: ['recipient'], value: fc.oneof(hostileLocation, longString) },
  { path: ['address'], value: fc.oneof(hostileLocation, longString) },
  { path: ['currency', 'symbol'], value: longString },
  { path: ['currency', 'id'], value: fc.oneof(longString, fc.integer({ min: 1, max: 5_000 }).map((n) => `"${'1'.repeat(n)}n"`)) },
  { path: ['from'], value: longString },
  { path: ['pallet'], value: longString },
  { path: ['senderAddress'], value: longString },
  { path: ['recipientAddress'], value: longString },
  // More keys than there are chains, more distinct endpoints than a chain may have: a few valid overrides
  // would make a valid request, answered 503 by the unreachable endpoint.
  {
    path: ['options', 'apiOverrides'],
    value: fc.oneof(
      manyKeys('"ws://127.0.0.1:1"', CHAINS.length + 1),
      manyKeys('["ws://127.0.0.1:1","ws://127.0.0.1:2"]', CHAINS.length + 1),
      fc.integer({ min: MAX_OVERRIDE_ENDPOINTS + 1, max: 20_000 }).map((n) => `{"Polkadot":[${Array.from({ length: n }, (_, i) => `"ws://127.0.0.1:${i + 1}"`).join(',')}]}`),
    ),
  },
  { path: ['currency'], value: longArray('{"symbol":"DOT","amount":"1"}') },
  { path: ['transfers'], value: fc.oneof(longArray('{}'), longArray(`{"from":"Polkadat","to":"Hydration","currency":{"symbol":"DOT","amount":"1"},"address":"${ALICE}"}`)) },
  { path: ['exchange'], value: longArray('"HydrationDex"') },
  { path: ['extra'], value: manyKeys('1') },
];

/** A valid body for the route's family and kind, so that the hostile part is what gets judged. */
function validBody(route: RouteEntry): Record<string, unknown> {
  const v5 = route.path.startsWith('/v5/');
  const options = { development: true };
  if (/\/assets\/|\/existential-deposit$/.test(route.path)) return { currency: { symbol: 'DOT' } };
  if (/\/router/.test(route.path)) {
    return { from: 'Polkadot', to: 'Astar', exchange: 'HydrationDex', currencyFrom: { symbol: 'DOT' }, currencyTo: { symbol: 'ASTR' }, amount: '10000000000', slippagePct: '1', recipientAddress: ALICE, senderAddress: ALICE, options };
  }
  if (/\/x-transfer\/status(\/stream)?$/.test(route.path)) return { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'00'.repeat(32)}`, options };
  const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, [v5 ? 'address' : 'recipient']: ALICE, [v5 ? 'senderAddress' : 'sender']: ALICE };
  if (route.path.endsWith('/x-transfer-batch')) return { transfers: [transfer], options };
  return { ...transfer, options };
}

const HOLE = '@@hostile@@';

/** The route's valid body with `text` (raw JSON) at `path`; created where it is missing. */
function withHole(route: RouteEntry, path: string[], text: string): string {
  const body = validBody(route);
  let target = body;
  for (const key of path.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[path[path.length - 1]] = HOLE;
  return JSON.stringify(body).replace(`"${HOLE}"`, () => text);
}

const POST_ROUTES = ROUTES.filter((r) => r.method === 'post');

const hostileCase: fc.Arbitrary<[RouteEntry, Case]> = fc
  .tuple(fc.constantFrom(...POST_ROUTES), fc.constantFrom(...HOLES))
  .chain(([route, hole]) =>
    hole.value.map((text): [RouteEntry, Case] => [
      route,
      {
        params: (route.path.match(/:[A-Za-z0-9_]+/g) ?? []).map(() => 'Hydration'),
        query: '',
        body: { kind: 'raw', type: 'application/json', value: withHole(route, hole.path, text) },
      },
    ]),
  );

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nope',
  'Application/JSON',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
);

/** Encodings that need no decompression; the compressed ones have their own property below. */
const contentEncoding = fc.option(fc.constantFrom('identity', 'x-nope'), { nil: undefined });

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: Json }
  | { kind: 'raw'; value: string | Buffer; type: string; encoding?: string };

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
  { weight: 4, arbitrary: plausibleBody.map((value): Body => ({ kind: 'json', value })) },
  { weight: 2, arbitrary: anyJson.map((value): Body => ({ kind: 'json', value })) },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.array(anyJson, { maxLength: 5 }), fc.constant(null)).map((value): Body => ({ kind: 'json', value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ value: rawBody, type: fc.oneof({ weight: 3, arbitrary: fc.constant('application/json') }, contentType), encoding: contentEncoding })
      .map((r): Body => ({ kind: 'raw', ...r })),
  },
);

/** One path parameter: how it is written into the URL matters as much as its value. */
const pathParam = fc.oneof(
  { weight: 3, arbitrary: chainish.map((s) => encodeSegment(s)) },
  { weight: 2, arbitrary: numberish.map((n) => encodeSegment(String(n))) },
  { weight: 1, arbitrary: fc.constantFrom('%00', '%2F', '.', '..', '%2e%2e', 'evm', 'ws-endpoints', '%F0%9F%92%A9') },
);

/** Percent-escapes that do not decode (their own property below). */
const brokenEscape = fc.oneof(
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%C3', '%%', '%u0041', '%F0%9F%92'),
  fc.tuple(fc.constantFrom(...CHAINS), fc.constantFrom('%', '%g', '%C3')).map(([c, e]) => `${c}${e}`),
);

/** Query strings: plausible keys, repeated keys, bracket syntax and broken percent escapes. */
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('origin', 'destination', 'chain', 'address', 'pallet', 'ecosystem', 'symbol', 'chain[]', 'origin[a]', '__proto__'), fc.string({ maxLength: 10 })),
      fc.oneof(chainish, fc.constantFrom('PolkadotXcm', 'XTransfer', 'Kusama', 'Ethereum', 'Rococo', '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ'), numberish.map(String)),
      fc.boolean(),
    ),
    { maxLength: 5 },
  )
  .chain((pairs) =>
    fc.constantFrom('', '&', '%zz', '=', 'a=%E0%A4%A').map((tail) => {
      const parts = pairs.map(([k, v, raw]) => (raw ? `${k}=${v.replace(/[#\s]/g, '')}` : `${encodeURIComponent(wellFormed(k))}=${encodeURIComponent(wellFormed(v))}`));
      if (tail) parts.push(tail);
      return parts.join('&');
    }),
  );

function wellFormed(s: string): string {
  // Lone surrogates cannot be percent-encoded; a round trip through UTF-8 replaces them.
  return Buffer.from(s, 'utf8').toString('utf8');
}

function encodeSegment(s: string): string {
  return encodeURIComponent(wellFormed(s));
}

// ---- sending and checking -------------------------------------------------------------------

interface Case {
  params: string[];
  query: string;
  body: Body;
}

function urlFor(route: RouteEntry, params: string[], query: string): string {
  let i = 0;
  const path = route.path.replace(/:[A-Za-z0-9_]+/g, () => params[i++] ?? 'x');
  // Keep the request line well under Node's header limit: an over-long URL is answered by Node
  // itself (431), before the app.
  return (query ? `${path}?${query}` : path).slice(0, 6000);
}

/** POST bodies must not make the service dial real chains: development mode, merged into object bodies. */
function offline(route: RouteEntry, value: Json): Json {
  if (route.method !== 'post' || !isPlainObject(value)) return value;
  const options = value.options;
  if (options !== undefined && options !== null && !isPlainObject(options)) return value;
  return { ...value, options: { ...(isPlainObject(options) ? options : {}), development: true } } as Json;
}

const asIs = (raw: string | Buffer): string => raw as unknown as string;

// Everything runs in this process: a request that blocks the loop shows as a late timer here.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();

/**
 * Sends a case and fails when it held the event loop longer than MAX_BLOCK_MS while computing. A
 * stall counts only when the process also spent that much CPU time in it: on a busy machine the
 * loop also stalls while the process waits for a core, using none. A long stall is confirmed by
 * sending the case again: the first use of a module can stall the loop once, a request that blocks
 * it does so every time.
 */
async function send(route: RouteEntry, c: Case): Promise<request.Response> {
  for (let attempt = 1; ; attempt++) {
    loop.reset();
    const cpu = process.cpuUsage();
    const res = await sendOnce(route, c);
    const used = process.cpuUsage(cpu);
    const blocked = Math.min(loop.max / 1e6, (used.user + used.system) / 1e3);
    if (blocked <= MAX_BLOCK_MS) return res;
    if (attempt === 2) throw new Error(`one request blocked the event loop for ${blocked.toFixed(0)} ms of CPU (twice): ${describeCase(route, c)}`);
  }
}

async function sendOnce(route: RouteEntry, c: Case): Promise<request.Response> {
  const url = urlFor(route, c.params, c.query);
  const method = route.method as 'get' | 'post' | 'delete';
  let req = request(app)[method](url);
  // JSON bodies go as text: superagent cannot send a bare `true` or `5` itself.
  if (c.body.kind === 'json') req = req.set('Content-Type', 'application/json').send(JSON.stringify(offline(route, c.body.value)));
  else if (c.body.kind === 'raw') {
    req = req.set('Content-Type', c.body.type);
    if (c.body.encoding) req = req.set('Content-Encoding', c.body.encoding);
    // Raw means raw: without this, superagent would JSON-encode a Buffer sent as application/json.
    req = req.serialize(asIs).send(c.body.value);
  }
  return req.buffer(true).ok(() => true);
}

function describeCase(route: RouteEntry, c: Case): string {
  const b = c.body;
  const shown =
    b.kind === 'none' ? 'no body' : b.kind === 'json' ? `JSON ${JSON.stringify(offline(route, b.value)).slice(0, 400)}` : `raw (${b.type}${b.encoding ? `, ${b.encoding}` : ''}) ${JSON.stringify(b.value.toString()).slice(0, 400)}`;
  return `${route.method.toUpperCase()} ${urlFor(route, c.params, c.query).slice(0, 300)} with ${shown}`;
}

/** The checks every answer must pass; a failure message carries the request that caused it. */
function checkAnswer(route: RouteEntry, c: Case, res: request.Response): void {
  const where = describeCase(route, c);
  // 501 is the documented answer to swapOptions in pre-flight bodies (the engine has no swap there).
  const documented5xx = res.status === 501 && (res.body as { kind?: unknown }).kind === 'UnsupportedOperationError';
  if (res.status >= 500 && !documented5xx) {
    throw new Error(`${res.status} for ${where}\nbody: ${res.text?.slice(0, 500)}`);
  }
  const requestId = res.headers['x-request-id'];
  if (typeof requestId !== 'string' || requestId === '') throw new Error(`no X-Request-Id for ${where}`);
  if ((res.status >= 200 && res.status < 300) || res.status === 304) return;
  if (!/^application\/json/.test(String(res.headers['content-type']))) {
    throw new Error(`${res.status} is not JSON (${String(res.headers['content-type'])}) for ${where}`);
  }
  const errorBody = res.body as Record<string, unknown>;
  const problems = [
    errorBody.statusCode === res.status ? '' : `statusCode ${String(errorBody.statusCode)} != ${res.status}`,
    typeof errorBody.error === 'string' && errorBody.error !== '' ? '' : 'error is not a string',
    typeof errorBody.kind === 'string' && errorBody.kind !== '' ? '' : 'kind is not a string',
    typeof errorBody.message === 'string' ? '' : 'message is not a string',
    errorBody.requestId === requestId ? '' : `requestId ${String(errorBody.requestId)} != header ${requestId}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`bad error body (${problems.join('; ')}) for ${where}\nbody: ${res.text?.slice(0, 500)}`);
  if (res.text.length >= MAX_ERROR_ANSWER) throw new Error(`an error answer of ${res.text.length} characters for ${where}`);
}

function caseFor(route: RouteEntry): fc.Arbitrary<Case> {
  const count = (route.path.match(/:[A-Za-z0-9_]+/g) ?? []).length;
  return fc.record({
    params: fc.array(pathParam, { minLength: count, maxLength: count }),
    query: fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: queryString }),
    body: route.method !== 'post' ? fc.oneof({ weight: 3, arbitrary: fc.constant<Body>({ kind: 'none' }) }, { weight: 1, arbitrary: body }) : body,
  });
}

// ---- the properties -------------------------------------------------------------------------

describe('fuzzing every declared route', () => {
  it('covers the routes the app declares', () => {
    expect(ROUTES.length).toBeGreaterThan(50);
    expect(ROUTES.every((r) => r.method === 'get' || r.method === 'post' || r.method === 'delete')).toBe(true);
  });

  describe.each(ROUTES.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s', (_name, route) => {
    it('never answers 5xx, and every error has the JSON error body', async () => {
      await fc.assert(
        fc.asyncProperty(caseFor(route), async (c) => {
          checkAnswer(route, c, await send(route, c));
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    });
  });

  // Two classes of input that failed with 500 when these tests were written; each has its own
  // property so that the per-route properties above keep exploring everything else.
  const withParams = ROUTES.filter((r) => r.path.includes('/:'));

  it('a path parameter whose percent-escapes do not decode is a JSON 400, not a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withParams), brokenEscape, fc.constantFrom<Body>({ kind: 'none' }, { kind: 'json', value: {} }), async (route, escape, b) => {
        const count = (route.path.match(/:[A-Za-z0-9_]+/g) ?? []).length;
        const c: Case = { params: Array.from({ length: count }, () => escape), query: '', body: b };
        checkAnswer(route, c, await send(route, c));
      }),
      { numRuns: RUNS_SPECIAL },
    );
  });

  it('a body whose Content-Encoding (gzip, deflate, br) does not match its bytes is a JSON 4xx, not a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), rawBody, fc.constantFrom('gzip', 'deflate', 'br'), async (route, value, encoding) => {
        const c: Case = { params: (route.path.match(/:[A-Za-z0-9_]+/g) ?? []).map(() => 'Hydration'), query: '', body: { kind: 'raw', value, type: 'application/json', encoding } };
        checkAnswer(route, c, await send(route, c));
      }),
      { numRuns: RUNS_SPECIAL },
    );
  });

  it('hostile bodies (near-valid amounts, deep and wide nesting, long strings, many keys) are small 4xx answers, none holding the event loop over MAX_BLOCK_MS', async () => {
    await fc.assert(
      fc.asyncProperty(hostileCase, async ([route, c]) => {
        checkAnswer(route, c, await send(route, c));
      }),
      { numRuns: RUNS_HOSTILE },
    );
  }, 180_000);

  it('a correctly compressed JSON body is accepted', async () => {
    const json = Buffer.from(JSON.stringify({ currency: { symbol: 'DOT' } }));
    const encoded = { gzip: gzipSync(json), deflate: deflateSync(json), br: brotliCompressSync(json) };
    for (const [encoding, bytes] of Object.entries(encoded)) {
      const res = await request(app).post('/v2/assets/Hydration/asset-info').set('Content-Type', 'application/json').set('Content-Encoding', encoding).serialize(asIs).send(bytes);
      expect(res.status, encoding).toBe(200);
      expect(res.body, encoding).toMatchObject({ symbol: 'DOT' });
    }
  });

  it('still serves after a concurrent burst of random and hostile requests to every route', async () => {
    // Its own burst, so that the answer does not depend on which tests the shuffle ran before it.
    const burst = [
      ...ROUTES.flatMap((route) => fc.sample(caseFor(route), 3).map((c): [RouteEntry, Case] => [route, c])),
      ...fc.sample(hostileCase, 60),
    ];
    const answers = await Promise.all(burst.map(async ([route, c]) => [route, c, await sendOnce(route, c)] as const));
    for (const [route, c, res] of answers) checkAnswer(route, c, res);
    expect((await request(app).get('/health').expect(200)).body).toEqual({ status: 'ok' });
    expect((await request(app).get('/v2/chains/Hydration/para-id').expect(200)).body).toBe(2034);
  }, 120_000);
});
