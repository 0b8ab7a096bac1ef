// Paths users hit that no other file walks: every request example of the README, Hydration's local
// transfers and their keep-alive rewrite, keepAlive inside a batch, transfers to Ethereum through
// the pooled createApiForChain, /ready during shutdown. Real SDK, real metadata (the local test chains).
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiPromise } from '../../src/sdk';
import { polkadotApi } from '../../src/sdk';
import { applyKeepAlive } from '../../src/service/transfer';
import { expectErrorBody, testApp } from '../helpers/app';
import { readmeExamples, runExample } from '../support/readme-examples';
import { answerDryRunCall, answerDryRunXcm, answerQueryInfo, answerXcmPayment, callSuccess, parachain, teleportMessage, xcmComplete } from '../support/runtime-answers';
import { seedNative } from '../support/seed';
import { decodeCall, startBlackHole, startTestChain, type TestChain, type TestChainName } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const ETH_RECIPIENT = '0x24D18dbFBcEd732EAdF98EE520853e13909fE258';

// The README's examples run against the sandbox, whose registry endpoints are its local chains; here
// each body that reaches a chain gets `options.apiOverrides` for the test chains instead (and
// development mode, so nothing else is dialled). The chains answer what the sandbox's do: Alice
// (the README's sender) holds DOT on the relay, and the dry run of her teleport to the asset hub
// succeeds there and on arrival.
describe('the README examples, each sent as written', () => {
  const README_ALICE = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5';
  const README_BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
  const ONE_DOT = 10_000_000_000n;
  const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration'];
  const chains = new Map<string, TestChain>();
  let local: ReturnType<typeof testApp>;
  beforeAll(async () => {
    for (const [i, chain] of (await Promise.all(NAMES.map((n) => startTestChain(n)))).entries()) chains.set(NAMES[i], chain);
    const relay = chains.get('Polkadot') as TestChain;
    const ah = chains.get('AssetHubPolkadot') as TestChain;
    seedNative(relay, README_ALICE, 50n * ONE_DOT);
    answerQueryInfo(relay, 15_000_000n);
    answerDryRunCall(relay, (r) => callSuccess(r, { sender: README_ALICE, amount: ONE_DOT, deliveryFee: 3_000_000n, xcmPallet: 'XcmPallet', forwarded: { destination: parachain(1000), message: teleportMessage(r, ONE_DOT, README_BOB) } }));
    answerDryRunXcm(ah, (r) => xcmComplete(r, { beneficiary: README_BOB, received: ONE_DOT - 1_000_000n }));
    answerXcmPayment(ah, { fee: 1_000_000n });
    local = testApp();
  });
  afterAll(async () => {
    await local.services.close();
    await Promise.all([...chains.values()].map((c) => c.close()));
  });

  /** The body as the README writes it, pointed at the test chains when it is a JSON object. */
  const onTestChains = (body: string): string => {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const options = (parsed.options ?? {}) as Record<string, unknown>;
    const apiOverrides = Object.fromEntries([...chains].map(([name, chain]) => [name, chain.url]));
    return JSON.stringify({ ...parsed, options: { ...options, development: true, apiOverrides } });
  };

  it.each(readmeExamples().map((e) => [e.id, e] as const))('%s', async (_id, example) => {
    await runExample(example, async (req, body) => {
      let call = request(local.app)[req.method.toLowerCase() as 'get' | 'post'](req.path);
      for (const [name, value] of Object.entries(req.headers)) call = call.set(name, value);
      const res = body === undefined ? await call : await call.send(req.headers['content-type'] === 'application/json' ? onTestChains(body) : body);
      // Call data must decode against the origin's own metadata, as a wallet would check it.
      if (res.status === 200 && /\/x-transfer$/.test(req.path)) {
        const from = (JSON.parse(body ?? '{}') as { from: string }).from;
        const call = await decodeCall(chains.get(from) as TestChain, res.body as string);
        expect(call.section, `README ${req.method} ${req.path}`).toMatch(/xcmPallet|polkadotXcm/);
      }
      if (res.status === 200 && /\/dry-run$/.test(req.path)) expect(res.body, 'README dry-run').toMatchObject({ success: true });
      return { status: res.status, text: res.text };
    });
  });
});

describe('Hydration local transfers (keep-alive rewrite)', () => {
  let hydration: TestChain;
  let local: ReturnType<typeof testApp>;
  beforeAll(async () => {
    hydration = await startTestChain('Hydration');
    local = testApp();
  });
  afterAll(async () => {
    await local.services.close();
    await hydration.close();
  });
  const transfer = (extra: Record<string, unknown>) =>
    request(local.app)
      .post('/v5/x-transfer')
      .send({ from: 'Hydration', to: 'Hydration', address: ALICE, currency: { id: 5, amount: '10000000000' }, options: { development: true, apiOverrides: { Hydration: hydration.url } }, ...extra });

  it('DOT (asset 5): the SDK builds tokens.transfer; keepAlive (default) rewrites it to tokens.transferKeepAlive, false keeps it', async () => {
    for (const keepAlive of [undefined, true]) {
      const call = await decodeCall(hydration, (await transfer(keepAlive === undefined ? {} : { keepAlive }).expect(200)).body as string);
      expect({ section: call.section, method: call.method }, String(keepAlive)).toEqual({ section: 'tokens', method: 'transferKeepAlive' });
      expect(call.args).toMatchObject({ currency_id: 5, amount: 10_000_000_000 });
    }
    const reaped = await decodeCall(hydration, (await transfer({ keepAlive: false }).expect(200)).body as string);
    expect({ section: reaped.section, method: reaped.method }).toEqual({ section: 'tokens', method: 'transfer' });
    expect(reaped.args).toMatchObject({ currency_id: 5, amount: 10_000_000_000 });
  });

  it('native HDX: keepAlive picks balances.transferKeepAlive, false transferAllowDeath', async () => {
    const hdx = { currency: { symbol: { type: 'Native', value: 'HDX' }, amount: '1000000000000' } };
    const kept = await decodeCall(hydration, (await transfer(hdx).expect(200)).body as string);
    expect(`${kept.section}.${kept.method}`).toBe('balances.transferKeepAlive');
    const reaped = await decodeCall(hydration, (await transfer({ ...hdx, keepAlive: false }).expect(200)).body as string);
    expect(`${reaped.section}.${reaped.method}`).toBe('balances.transferAllowDeath');
  });

  describe('the two refusals (a runtime without the variant the caller asked for)', () => {
    let api: ApiPromise;
    beforeAll(async () => {
      api = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(hydration.url), noInitWarn: true });
    });
    afterAll(() => api.disconnect());
    /** The same runtime with one pallet's calls hidden. */
    const without = (section: string, method: string) =>
      ({ tx: new Proxy(api.tx, { get: (tx, s: string) => (s === section ? { ...tx[s], [method]: undefined } : tx[s]) }) }) as unknown as ApiPromise;

    it('currencies.transfer with keepAlive: no tokens.transferKeepAlive is a 400 UnsupportedOperationError', () => {
      const tx = api.tx.currencies.transfer(ALICE, 5, 1_000n);
      expect(applyKeepAlive(api, tx, true).method.method).toBe('transferKeepAlive');
      expect(() => applyKeepAlive(without('tokens', 'transferKeepAlive'), tx, true)).toThrow(
        expect.objectContaining({ status: 400, kind: 'UnsupportedOperationError', message: expect.stringContaining('keepAlive: true is not available for this asset') }),
      );
    });

    it('balances.transferKeepAlive with keepAlive false: no allow-death variant is a 400 naming the call', () => {
      const tx = api.tx.balances.transferKeepAlive(ALICE, 1_000n);
      const hidden = ({ tx: new Proxy(api.tx, { get: (t, s: string) => (s === 'balances' ? { ...t[s], transferAllowDeath: undefined, transfer: undefined } : t[s]) }) }) as unknown as ApiPromise;
      expect(() => applyKeepAlive(hidden, tx, false)).toThrow(expect.objectContaining({ status: 400, kind: 'UnsupportedOperationError', message: 'keepAlive: false is not available for balances.transferKeepAlive on this chain' }));
    });
  });
});

describe('x-transfer-batch', () => {
  it.each(['v5', 'v2'] as const)('/%s keepAlive inside a batch of local transfers is a 400 BatchValidationError', async (family) => {
    const { app, services } = testApp();
    try {
      const recipient = family === 'v5' ? 'address' : 'recipient';
      const local = { from: 'Hydration', to: 'Hydration', currency: { id: 5, amount: '1' }, [recipient]: ALICE };
      const res = await request(app)
        .post(`/${family}/x-transfer-batch`)
        .send({ transfers: [local, { ...local, keepAlive: true }], options: { mode: 'BATCH_ALL', abstractDecimals: false } })
        .expect(400);
      expectErrorBody(res.body, 400, 'BatchValidationError');
      expect(res.body.message).toContain('keepAlive is not supported inside a batch');
    } finally {
      await services.close();
    }
  });
});

describe('transfers to Ethereum dial BridgeHubPolkadot through the pool (createApiForChain)', () => {
  let ah: TestChain;
  let local: ReturnType<typeof testApp>;
  beforeAll(async () => {
    ah = await startTestChain('AssetHubPolkadot');
    local = testApp({ CONNECT_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await local.services.close();
    await ah.close();
  });
  const toEthereum = (apiOverrides: Record<string, string>) =>
    request(local.app)
      .post('/v5/x-transfer')
      .send({ from: 'AssetHubPolkadot', to: 'Ethereum', currency: { symbol: 'WETH', amount: '1000000000000000' }, address: ETH_RECIPIENT, senderAddress: BOB, options: { development: true, apiOverrides } });

  it('development mode without a BridgeHubPolkadot override: 400 MissingChainApiError naming it (the pool refused the SDK)', async () => {
    const res = await toEthereum({ AssetHubPolkadot: ah.url }).expect(400);
    expectErrorBody(res.body, 400, 'MissingChainApiError');
    expect(res.body.message).toContain('BridgeHubPolkadot');
  });

  it('the override for BridgeHubPolkadot is what the SDK gets: a dead one is a 503 naming it', async () => {
    const hole = await startBlackHole();
    try {
      const res = await toEthereum({ AssetHubPolkadot: ah.url, BridgeHubPolkadot: hole.url }).expect(503);
      expectErrorBody(res.body, 503, 'ProviderUnavailableError');
      expect(res.body.message).toContain('BridgeHubPolkadot');
      expect(hole.connectionsOpened).toBeGreaterThan(0);
    } finally {
      await hole.close();
    }
  });
});

describe('/ready', () => {
  it('is 200 while serving and 503 once the services are shutting down (/health stays 200)', async () => {
    const { app, services } = testApp();
    expect((await request(app).get('/ready').expect(200)).body).toEqual({ status: 'ready' });
    await services.close();
    expect((await request(app).get('/ready').expect(503)).body).toEqual({ status: 'shutting down' });
    expect((await request(app).get('/health').expect(200)).body).toEqual({ status: 'ok' });
  });
});
