// GET /x-transfer/para-eth-fees, both families, through the real SDK (getParaEthTransferFees) over
// the AssetHubPolkadot test chain, with the storage item it reads set per test.
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toHex } from 'viem';
import { expectErrorBody, FAMILIES, testApp } from '../helpers/app';
import { until } from '../hostile/helpers';
import { refusedUrl, startBlackHole, startTestChain, type TestChain } from '../support/test-chain';

/** AssetHubPolkadot's BridgeHubEthereumBaseFee (a parameter_types! item): twox128(":BridgeHubEthereumBaseFee:"). */
const BRIDGE_FEE_KEY = '0x5fbc5c7ba58845ad1f1a9a7c5bc12fad';
/** Figures of the runtime and of sdk 11.14.8: the default bridge fee, the execution fee, 10% padding. */
const DEFAULT_BRIDGE_FEE = 2_750_872_500_000n;
const EXECUTION_FEE = 2_200_000_000n;
const pad = (fee: bigint) => (fee * 110n) / 100n;
const le = (n: bigint, bytes: number) => toHex(Uint8Array.from({ length: bytes }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn)));
const DOT = { symbol: 'DOT', decimals: 10, location: { parents: 1, interior: { Here: null } } };

let assetHub: TestChain;
let ctx: ReturnType<typeof testApp>;
beforeAll(async () => {
  assetHub = await startTestChain('AssetHubPolkadot');
  ctx = testApp();
});
afterAll(async () => {
  await ctx.services.close();
  await assetHub.close();
});
beforeEach(() => assetHub.setStorage(BRIDGE_FEE_KEY, null));

describe.each(FAMILIES)('/%s/x-transfer/para-eth-fees', (family) => {
  const fees = (query: string, app = ctx.app) => request(app).get(`/${family}/x-transfer/para-eth-fees${query}`);
  const atTestChain = () => `?endpoint=${encodeURIComponent(assetHub.url)}&development=true`;

  it('reads the asset hub\'s bridge fee and adds its execution fee, both padded by 10%, in DOT', async () => {
    assetHub.setStorage(BRIDGE_FEE_KEY, le(1_234_567_890_123n, 16));
    const res = await fees(atTestChain()).expect(200);
    expect(res.body).toEqual({ bridgeFee: pad(1_234_567_890_123n).toString(), executionFee: pad(EXECUTION_FEE).toString(), asset: DOT });
  });

  it('while the storage item is unset, the runtime\'s default bridge fee', async () => {
    const res = await fees(atTestChain()).expect(200);
    expect(res.body).toEqual({ bridgeFee: pad(DEFAULT_BRIDGE_FEE).toString(), executionFee: pad(EXECUTION_FEE).toString(), asset: DOT });
  });

  it('goes through the pool: one connection for repeated requests, closed with the service', async () => {
    const local = testApp();
    const [opened, open] = [assetHub.connectionsOpened, assetHub.openConnections];
    for (let i = 0; i < 3; i++) await fees(atTestChain(), local.app).expect(200);
    expect(assetHub.connectionsOpened - opened).toBe(1);
    expect(assetHub.openConnections).toBe(open + 1);
    await local.services.close();
    await until(() => assetHub.openConnections === open, 'the closed service\'s connection to end');
  });

  it('a value longer than a u128 in that storage item is the chain\'s fault: 502 naming it', async () => {
    assetHub.setStorage(BRIDGE_FEE_KEY, le(2n ** 130n, 17));
    const res = await fees(atTestChain()).expect(502);
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toContain('AssetHubPolkadot');
  });

  it('an unreachable asset hub is a fast 503 naming it; a silent one a 503 at the connect deadline, its socket closed', async () => {
    const refused = await fees(`?endpoint=${encodeURIComponent(await refusedUrl())}&development=true`).expect(503);
    expectErrorBody(refused.body, 503, 'ProviderUnavailableError');
    expect(refused.body.message).toContain('AssetHubPolkadot');
    expect(refused.headers['retry-after']).toBeDefined();

    const hole = await startBlackHole();
    const slow = testApp({ CONNECT_TIMEOUT_MS: '300' });
    try {
      const silent = await fees(`?endpoint=${encodeURIComponent(hole.url)}`, slow.app).expect(503);
      expectErrorBody(silent.body, 503, 'ProviderUnavailableError');
      expect(silent.body.message).toContain('AssetHubPolkadot');
      expect(hole.connectionsOpened).toBeGreaterThan(0);
      await until(() => hole.openConnections === 0, 'the abandoned socket to close');
    } finally {
      await slow.services.close();
      await hole.close();
    }
  });

  it('bad query parameters are a 400 naming them, before anything is dialled', async () => {
    const opened = assetHub.connectionsOpened;
    const cases: [query: string, kind: string, path: string][] = [
      ['?development=true', 'MissingChainApiError', 'query.endpoint'],
      ['?development=yes', 'ValidationError', 'query.development'],
      ['?endpoint=http%3A%2F%2F127.0.0.1%3A1', 'ValidationError', 'query.endpoint'],
      ['?endpoint=ws%3A%2F%2F127.0.0.1%3A1&endpoint=nope', 'ValidationError', 'query.endpoint.1'],
      [`?endpoint=${encodeURIComponent('ws://user:secret@127.0.0.1:1')}`, 'ValidationError', 'query.endpoint'],
      [`?${[1, 2, 3, 4, 5].map((p) => `endpoint=${encodeURIComponent(`ws://127.0.0.1:${p}`)}`).join('&')}`, 'ValidationError', 'query.endpoint'],
      ['?endpoints=ws%3A%2F%2F127.0.0.1%3A1', 'ValidationError', 'query'],
    ];
    for (const [query, kind, path] of cases) {
      const res = await fees(query).expect(400);
      expectErrorBody(res.body, 400, kind);
      expect(res.body.details?.[0]?.path, `${query}: ${JSON.stringify(res.body)}`).toBe(path);
      expect(res.body.message).not.toContain('options.apiOverrides');
    }
    expect(assetHub.connectionsOpened).toBe(opened);
  });

  it('a private address is refused unless the operator allows them, naming the endpoint parameter', async () => {
    const strict = testApp({ ALLOW_PRIVATE_OVERRIDES: 'false' });
    try {
      const res = await fees(`?endpoint=${encodeURIComponent('ws://10.1.2.3:9944')}&development=true`, strict.app).expect(400);
      expectErrorBody(res.body, 400, 'ValidationError');
      expect(res.body.details).toEqual([{ path: 'query.endpoint', message: 'must point at a public address' }]);
      expect(res.body.message).toContain('query.endpoint');
    } finally {
      await strict.services.close();
    }
  });
});
