// Router endpoints offline. Pairs are the router's real bundled data. Everything that needs chains
// (building, dry run, fees, amounts) is served by an engine injected at the SDK boundary, fed with
// results typed with xcm-router 11.14.8's own exported types and shaped as its source builds them.
import { join } from 'node:path';
import request from 'supertest';
import { Binary } from 'polkadot-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toHex } from 'viem';
import type { TPapiApi, TPapiTransaction } from '@paraspell/sdk';
import type { TRouterDryRunResult, TRouterPlan } from '@paraspell/xcm-router';
import { projectRoot } from '../../src/project-root';
import { loadRouter, sdk, utilCrypto, type ApiPromise } from '../../src/sdk';
import { EXCHANGE_NAMES, type RouterRequest } from '../../src/schemas/router';
import { RouterService, realEngine, toExchangeInput, type EngineCall } from '../../src/service/router';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { decodeCallPapi } from '../helpers/papi-call';
import { fakeRouterEngine, type EngineOp } from '../support/fake-router-engine';
import { ROUTER_DRY_RUN, ROUTER_FEES, routerAsset } from '../support/router-results';
import { runServer } from '../support/built-server';
import { decodeCall, startTestChain, type TestChain, type TestChainName } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const EVM = '0x1501C1413e4178c38567Ada8945A80351F7B8496';

/** Node's own WebSocket, which loading the router must leave in place. */
const globalWebSocket = (globalThis as { WebSocket?: unknown }).WebSocket;

// ---- the injected engine -------------------------------------------------------------------

const { engine: fake, calls, results, last: lastCall } = fakeRouterEngine();

// Each item a build answers passes the route check, decoded with the metadata of the chain it is
// submitted on: the chains the plans use run as test chains, named as the operator's endpoints.
const PLAN_CHAINS: TestChainName[] = ['Polkadot', 'Hydration', 'AssetHubPolkadot'];
const chains = {} as Record<TestChainName, TestChain>;
const apis = {} as Record<TestChainName, ApiPromise>;
const leases: { release(): void }[] = [];
let app: ReturnType<typeof testApp>['app'];
let services: ReturnType<typeof testApp>['services'];
let config: ReturnType<typeof testApp>['config'];

beforeAll(async () => {
  for (const name of PLAN_CHAINS) chains[name] = await startTestChain(name);
  const endpoints = Object.fromEntries(PLAN_CHAINS.map((n) => [n, chains[n].url]));
  ({ app, services, config } = testApp({ REQUEST_TIMEOUT_MS: '300', CHAIN_ENDPOINTS: JSON.stringify(endpoints) }));
  // Every router request of this file's app is served by the fixture engine (pairs are the real data).
  services.router = new RouterService(config, fake, services.pool, services.routeCheck);
  // Connected before the tests (the 300 ms deadline is the request's, not the metadata's); the
  // same clients build the plans' call data.
  for (const name of PLAN_CHAINS) {
    const lease = await services.pool.acquire(name, [chains[name].url]);
    leases.push(lease);
    apis[name] = lease.api as ApiPromise;
  }
  buildPlans();
}, 120_000);
afterAll(async () => {
  leases.forEach((l) => l.release());
  await services?.close();
  await Promise.all(PLAN_CHAINS.map((n) => chains[n]?.close()));
});

/** Every test starts from these answers and no recorded calls; a test replaces what it needs. */
function resetEngine(): void {
  calls.length = 0;
  for (const op of Object.keys(results) as EngineOp[]) delete results[op];
  Object.assign(results, {
    buildTransactions: async () => twoClickPlan,
    dryRun: async () => ROUTER_DRY_RUN,
    getXcmFees: async () => ROUTER_FEES,
    getTransferableAmount: async () => 1n,
    getMinTransferableAmount: async () => 1n,
    getBestAmountOut: async () => ({ exchange: 'HydrationDex', amountOut: 1n }),
  } satisfies typeof results);
}
beforeEach(resetEngine);


// ---- fixtures shaped like xcm-router 11.14.8's results -------------------------------------

/** A polkadot-api transaction as far as the service touches it: getEncodedData() -> Binary. */
const papiTx = (hex: string): TPapiTransaction => ({ getEncodedData: async () => Binary.fromHex(hex) }) as unknown as TPapiTransaction;
const papiClient = {} as TPapiApi;

const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const BOB_ID = toHex(utilCrypto.decodeAddress(BOB));
const loc = (parents: number, ...junctions: object[]) => ({ parents, interior: junctions.length === 0 ? 'Here' : { [`X${junctions.length}`]: junctions } });
const accountOf = (id: string) => ({ AccountId32: { network: null, id } });
const DOT_AMOUNT = 10_000_000_000n;
/** Hydration's asset ids (its registry): DOT 5, ASTR 9. */
const HYDRATION_DOT = 5;
const HYDRATION_ASTR = 9;

/** Call data the plans answer, built with the test chains' metadata as the router's transactions would hold it. */
const tx = {} as Record<'toExchange' | 'swap' | 'swapAndTransfer' | 'toAstar' | 'oneClick' | 'toAstarForBob', string>;
let twoClickPlan: TRouterPlan;
let oneClickPlan: TRouterPlan;

function buildPlans(): void {
  const { Polkadot: polkadot, Hydration: hydration, AssetHubPolkadot: assetHub } = apis;
  // DOT from the relay to the sender's account on Hydration (the exchange).
  tx.toExchange = polkadot.tx.xcmPallet.limitedReserveTransferAssets({ V4: loc(0, { Parachain: 2034 }) }, { V4: loc(0, accountOf(BOB_ID)) }, { V4: [{ id: loc(0), fun: { Fungible: DOT_AMOUNT } }] }, 0, 'Unlimited').method.toHex();
  const sell = hydration.tx.omnipool.sell(HYDRATION_DOT, HYDRATION_ASTR, DOT_AMOUNT, 1n);
  const astarTo = (id: string) => hydration.tx.xTokens.transfer(HYDRATION_ASTR, 10n ** 18n, { V4: loc(1, { Parachain: 2006 }, accountOf(id)) }, 'Unlimited');
  tx.swap = sell.method.toHex();
  tx.toAstar = astarTo(ALICE_ID).method.toHex();
  tx.toAstarForBob = hydration.tx.utility.batchAll([sell, astarTo(BOB_ID)]).method.toHex();
  tx.swapAndTransfer = hydration.tx.utility.batchAll([sell, astarTo(ALICE_ID)]).method.toHex();
  // USDT from the asset hub to Hydration (standing in for the one-click execute's transfer).
  tx.oneClick = assetHub.tx.polkadotXcm.limitedReserveTransferAssets({ V4: loc(1, { Parachain: 2034 }) }, { V4: loc(0, accountOf(ALICE_ID)) }, { V4: [{ id: loc(0, { PalletInstance: 50 }, { GeneralIndex: 1984 }), fun: { Fungible: 2_500_000n } }] }, 0, 'Unlimited').method.toHex();
  /** Two-click: origin -> Hydration, then swap + transfer to Astar batched on Hydration. */
  twoClickPlan = [
    { type: 'TRANSFER', api: papiClient, chain: 'Polkadot', destinationChain: 'Hydration', tx: papiTx(tx.toExchange) },
    { type: 'SWAP_AND_TRANSFER', api: papiClient, chain: 'Hydration', destinationChain: 'Astar', tx: papiTx(tx.swapAndTransfer), amountOut: 1_234_567_890_123_456_789n },
  ];
  /** One-click from AssetHubPolkadot to Hydration. */
  oneClickPlan = [{ type: 'SWAP', api: papiClient, chain: 'AssetHubPolkadot', destinationChain: 'Hydration', tx: papiTx(tx.oneClick), amountOut: 42n }];
}

const dryRunFailedOnExchange: TRouterDryRunResult = {
  failureReason: 'TooExpensive',
  failureChain: 'Hydration',
  origin: ROUTER_DRY_RUN.origin,
  hops: [{ chain: 'Hydration', result: { success: false, failureReason: 'TooExpensive', currency: 'DOT', asset: routerAsset('Hydration', 'DOT') }, isExchange: true }],
};

// ---- helpers -------------------------------------------------------------------------------

/** The neutral request a body like BASE becomes (one exchange as a one-element list), options aside. */
const REQUEST: Omit<RouterRequest, 'options'> = {
  from: 'Polkadot',
  to: 'Astar',
  exchange: ['HydrationDex'],
  currencyFrom: { symbol: 'DOT' },
  currencyTo: { symbol: 'ASTR' },
  amount: '10000000000',
  slippagePct: '1',
  recipientAddress: ALICE,
  senderAddress: BOB,
};
// The body every router test starts from: the same fields, the exchange given by its name.
const BASE = { ...REQUEST, exchange: 'HydrationDex' };
/** One path per router operation (the builder under its first name). */
const OPERATION_PATHS = ['/router', '/router/dry-run', '/router/xcm-fees', '/router/transferable-amount', '/router/min-transferable-amount', '/router/best-amount-out'];
const without = (body: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(body).filter(([k]) => !keys.includes(k)));
const post = (path: string, body: unknown) => request(app).post(path).send(body as object);

async function expect400(path: string, body: unknown, kind: string, where: string) {
  const before = calls.length;
  const res = await post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expectErrorBody(res.body, 400, kind);
  expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(where);
  expect(calls.length, 'a refused request never reaches the router').toBe(before);
  return res.body as { message: string; kind: string };
}

// ---- lazy loading ----------------------------------------------------------------------------

describe('the router engine loads on first use only', () => {
  // Only a fresh process can say what start-up loads: this one has loaded the router for other tests.
  it('is not loaded by start-up, other endpoints, refused router requests, pairs or the swap lookups (read from the router\'s registry)', async () => {
    const server = await runServer({
      nodeArgs: ['--require', join(projectRoot(), 'test/fixtures/loaded-modules.cjs')],
      env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0' },
      ipc: true,
    });
    const filesOf = (name: string) =>
      new Promise<string[]>((resolve) => {
        server.child.once('message', (answer: { loaded: string[] }) => resolve(answer.loaded));
        server.child.send(name);
      });
    const routerFiles = () => filesOf('@paraspell/xcm-router');
    const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    try {
      const url = await server.listening;
      // The probe sees what is loaded: the SDK is, from start-up on.
      expect(await filesOf('@paraspell/sdk-pjs')).not.toEqual([]);
      expect(await routerFiles()).toEqual([]);
      expect(await (await fetch(`${url}/v2/chains`)).json()).toContain('Hydration');
      const refused = await post(`${url}/v5/router`, without(BASE, 'amount'));
      expect(refused.status).toBe(400);
      expectErrorBody(await refused.json(), 400, 'MissingParameterError');
      expect(await routerFiles()).toEqual([]);
      const pairs = await post(`${url}/v2/router/pairs`, { exchange: 'BifrostPolkadotDex' });
      expect(await pairs.json()).toHaveLength(7);
      expect(await (await fetch(`${url}/v2/swap/exchange-chains`)).json()).toContain('HydrationDex');
      expect(await routerFiles()).toEqual([]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);

  it('loading it leaves Node\'s WebSocket in place', () => {
    loadRouter();
    expect((globalThis as { WebSocket?: unknown }).WebSocket).toBe(globalWebSocket);
  });

  it('our exchange list is the router\'s EXCHANGE_CHAINS', () => {
    expect([...EXCHANGE_NAMES]).toEqual([...loadRouter().EXCHANGE_CHAINS]);
  });
});

// ---- pairs ---------------------------------------------------------------------------------

describe('POST /router/pairs (real router data)', () => {
  const COUNTS: Record<string, number> = {
    AssetHubPolkadotDex: 325,
    AssetHubKusamaDex: 55,
    HydrationDex: 2775,
    KaruraDex: 77,
    AcalaDex: 55,
    BifrostKusamaDex: 13,
    BifrostPolkadotDex: 7,
  };

  for (const family of FAMILIES) {
    it(`${family}: every exchange's pair count, all 3307 without exchange`, async () => {
      for (const [exchange, count] of Object.entries(COUNTS)) {
        const res = await post(`/${family}/router/pairs`, { exchange });
        expect(res.status).toBe(200);
        expect(res.body, exchange).toHaveLength(count);
      }
      const all = await post(`/${family}/router/pairs`, {});
      expect(all.body).toHaveLength(3307);
      const empty = await request(app).post(`/${family}/router/pairs`);
      expect(empty.body).toHaveLength(3307);
    });
  }

  it('a pair is two router assets {symbol, decimals, assetId?, location?}', async () => {
    const res = await post('/v5/router/pairs', { exchange: 'HydrationDex' });
    const [a, b] = res.body[0] as Record<string, unknown>[];
    for (const x of [a, b]) {
      expect(x).toEqual(expect.objectContaining({ symbol: expect.any(String), decimals: expect.any(Number) }));
      expect(Object.keys(x).every((k) => ['symbol', 'decimals', 'assetId', 'location'].includes(k))).toBe(true);
    }
    expect(res.headers.etag).toMatch(/^"[\w-]{22}(-gzip|-br)?"$/);
  });

  it('an array is a whitelist (union of its exchanges), one element means that exchange', async () => {
    const two = await post('/v5/router/pairs', { exchange: ['HydrationDex', 'AssetHubPolkadotDex'] });
    expect(two.body).toHaveLength(2775 + 325);
    const one = await post('/v5/router/pairs', { exchange: ['HydrationDex'] });
    expect(one.body).toHaveLength(2775);
    const dup = await post('/v5/router/pairs', { exchange: ['AcalaDex', 'AcalaDex'] });
    expect(dup.body).toHaveLength(55);
  });

  it('an unknown exchange is a 400 listing the valid names; empty arrays and other fields too', async () => {
    const body = await expect400('/v5/router/pairs', { exchange: 'HydraDex' }, 'UnknownExchangeError', 'body.exchange');
    for (const name of EXCHANGE_NAMES) expect(body.message).toContain(name);
    expect(body.message).toContain("did you mean 'HydrationDex'");
    await expect400('/v2/router/pairs', { exchange: ['HydrationDex', 'NopeDex'] }, 'UnknownExchangeError', 'body.exchange.1');
    await expect400('/v2/router/pairs', { exchange: [] }, 'ValidationError', 'body.exchange');
    await expect400('/v2/router/pairs', { exchange: 7 }, 'ValidationError', 'body.exchange');
    await expect400('/v2/router/pairs', { exchange: 'HydrationDex', from: 'Polkadot' }, 'ValidationError', 'from');
  });
});

// ---- validation, both families -------------------------------------------------------------

describe('router field rules (contract router table), both families', () => {

  for (const family of FAMILIES) {
    const p = (path: string) => `/${family}${path}`;

    it(`${family}: from/to missing or unknown`, async () => {
      await expect400(p('/router'), { ...BASE, from: 'Polkadott' }, 'UnknownChainError', 'body.from');
      await expect400(p('/router'), { ...BASE, from: 'Ethereum' }, 'UnknownChainError', 'body.from');
      await expect400(p('/router'), { ...BASE, to: 'Astarr' }, 'UnknownChainError', 'body.to');
      await expect400(p('/router/dry-run'), without(BASE, 'to'), 'MissingParameterError', 'body.to');
      for (const path of ['/router/min-transferable-amount', '/router/transferable-amount', '/router/best-amount-out']) {
        await expect400(p(path), without(BASE, 'to'), 'MissingParameterError', 'body.to');
      }
      // `from` is optional with one exchange (the swap starts on the exchange chain) ...
      expect((await post(p('/router'), without(BASE, 'from'))).status).toBe(200);
      // ... and required when the exchange is chosen automatically or from a whitelist.
      await expect400(p('/router'), without(BASE, 'from', 'exchange'), 'MissingParameterError', 'body.from');
      await expect400(p('/router'), { ...without(BASE, 'from'), exchange: ['HydrationDex', 'AcalaDex'] }, 'MissingParameterError', 'body.from');
      // `to` is optional for building and fees: the swapped asset stays on the exchange chain.
      expect((await post(p('/router'), without(BASE, 'to'))).status).toBe(200);
      expect((await post(p('/router/xcm-fees'), without(BASE, 'to'))).status).toBe(200);
    });

    it(`${family}: exchange must be a known <Chain>Dex; the 400 lists the valid names`, async () => {
      for (const path of OPERATION_PATHS) {
        const body = await expect400(p(path), { ...BASE, exchange: 'UniswapDex' }, 'UnknownExchangeError', 'body.exchange');
        expect(body.message).toContain(EXCHANGE_NAMES.join(', '));
      }
      await expect400(p('/router'), { ...BASE, exchange: ['HydrationDex', 'Hydra'] }, 'UnknownExchangeError', 'body.exchange.1');
      await expect400(p('/router'), { ...BASE, exchange: [] }, 'ValidationError', 'body.exchange');
    });

    it(`${family}: currencies: location, id and plain symbol only; id needs a manual exchange`, async () => {
      await expect400(p('/router'), without(BASE, 'currencyFrom'), 'MissingParameterError', 'body.currencyFrom');
      await expect400(p('/router'), without(BASE, 'currencyTo'), 'MissingParameterError', 'body.currencyTo');
      // A symbol with a preference (the ParaSpell XCM API's form) is read on its chain's registry: the router gets the location.
      expect((await post(p('/router'), { ...BASE, currencyFrom: { symbol: { type: 'Native', value: 'DOT' } } })).status).toBe(200);
      expect(lastCall().request.currencyFrom).toEqual({ location: { parents: 1, interior: { Here: null } } });
      expect((await post(p('/router'), { ...BASE, currencyTo: { symbol: { type: 'Foreign', value: 'ASTR' } } })).status).toBe(200);
      expect(JSON.stringify(lastCall().request.currencyTo)).toMatch(/"location":.*"Parachain":2006/);
      await expect400(p('/router'), { ...BASE, currencyFrom: { symbol: { type: 'ForeignAbstract', value: 'NOPE' } } }, 'InvalidCurrencyError', 'body.currencyFrom.symbol');
      await expect400(p('/router'), { ...BASE, currencyFrom: { symbol: { type: 'Wrapped', value: 'DOT' } } }, 'InvalidCurrencyError', 'body.currencyFrom.symbol');
      await expect400(p('/router'), { ...BASE, currencyTo: { symbol: 'ASTR', id: '1' } }, 'InvalidCurrencyError', 'body.currencyTo');
      await expect400(p('/router'), { ...BASE, currencyFrom: [{ symbol: 'DOT' }] }, 'ValidationError', 'body.currencyFrom');
      await expect400(p('/router'), { ...BASE, currencyFrom: { symbol: 'DOT', amount: '1' } }, 'ValidationError', 'amount');
      await expect400(p('/router'), { ...BASE, currencyFrom: { location: 'Override({"parents":1,"interior":"Here"})' } }, 'InvalidCurrencyError', 'body.currencyFrom.location');
      // id form: refused with automatic and whitelisted selection, accepted with one exchange
      await expect400(p('/router'), { ...without(BASE, 'exchange'), currencyTo: { id: '5' } }, 'InvalidCurrencyError', 'body.currencyTo.id');
      await expect400(p('/router'), { ...BASE, exchange: ['HydrationDex', 'AcalaDex'], currencyFrom: { id: 5 } }, 'InvalidCurrencyError', 'body.currencyFrom.id');
      expect((await post(p('/router'), { ...BASE, currencyTo: { id: '5' } })).status).toBe(200);
      expect((await post(p('/router'), { ...BASE, exchange: ['HydrationDex'], currencyTo: { id: '5' } })).status).toBe(200);
      const loc = { parents: 1, interior: { Here: null } };
      expect((await post(p('/router'), { ...BASE, currencyFrom: { location: loc } })).status).toBe(200);
      expect(lastCall().request.currencyFrom).toEqual({ location: loc });
      expect((await post(p('/router'), { ...BASE, currencyFrom: { location: JSON.stringify(loc) } })).status).toBe(200);
      expect(lastCall().request.currencyFrom).toEqual({ location: loc });
    });

    it(`${family}: amount required, a positive decimal string`, async () => {
      for (const path of OPERATION_PATHS) {
        await expect400(p(path), without(BASE, 'amount'), 'MissingParameterError', 'body.amount');
      }
      await expect400(p('/router'), { ...BASE, amount: 'lots' }, 'NumberFormatError', 'body.amount');
      await expect400(p('/router'), { ...BASE, amount: '0' }, 'NumberFormatError', 'body.amount');
      await expect400(p('/router'), { ...BASE, amount: '-5' }, 'NumberFormatError', 'body.amount');
      await expect400(p('/router'), { ...BASE, amount: null }, 'ValidationError', 'body.amount');
    });

    it(`${family}: slippagePct required for /router and /router/xcm-fees only`, async () => {
      await expect400(p('/router'), without(BASE, 'slippagePct'), 'MissingParameterError', 'body.slippagePct');
      await expect400(p('/router-hash'), without(BASE, 'slippagePct'), 'MissingParameterError', 'body.slippagePct');
      await expect400(p('/router/xcm-fees'), without(BASE, 'slippagePct'), 'MissingParameterError', 'body.slippagePct');
      await expect400(p('/router'), { ...BASE, slippagePct: '0' }, 'ValidationError', 'body.slippagePct');
      await expect400(p('/router'), { ...BASE, slippagePct: '101' }, 'ValidationError', 'body.slippagePct');
      await expect400(p('/router'), { ...BASE, slippagePct: 'high' }, 'ValidationError', 'body.slippagePct');
      expect((await post(p('/router/dry-run'), without(BASE, 'slippagePct'))).status).toBe(200);
      expect(lastCall().request.slippagePct).toBe('1');
      expect((await post(p('/router'), { ...BASE, slippagePct: 0.5 })).status).toBe(200);
      expect(lastCall().request.slippagePct).toBe('0.5');
    });

    it(`${family}: recipientAddress and senderAddress per endpoint`, async () => {
      for (const path of ['/router', '/router/dry-run', '/router/xcm-fees', '/router/transferable-amount', '/router/min-transferable-amount']) {
        await expect400(p(path), without(BASE, 'recipientAddress'), 'MissingParameterError', 'body.recipientAddress');
      }
      for (const path of ['/router', '/router/dry-run', '/router/xcm-fees']) {
        await expect400(p(path), without(BASE, 'senderAddress'), 'MissingParameterError', 'body.senderAddress');
      }
      for (const path of ['/router/transferable-amount', '/router/min-transferable-amount']) {
        const res = await post(p(path), without(BASE, 'senderAddress'));
        expect(res.status, path).toBe(200);
        expect(lastCall().request.senderAddress).toBeUndefined();
      }
      expect((await post(p('/router/best-amount-out'), without(BASE, 'senderAddress', 'recipientAddress', 'slippagePct'))).status).toBe(200);
      await expect400(p('/router'), { ...BASE, recipientAddress: 'not-an-address' }, 'InvalidAddressError', 'body.recipientAddress');
      await expect400(p('/router'), { ...BASE, senderAddress: '5Gxyz' }, 'InvalidAddressError', 'body.senderAddress');
      await expect400(p('/router'), { ...BASE, recipientAddress: EVM }, 'InvalidAddressError', 'not an EVM chain');
      await expect400(p('/router'), { ...BASE, to: 'Moonbeam', currencyTo: { symbol: 'GLMR' } }, 'InvalidAddressError', 'EVM chain');
      expect((await post(p('/router'), { ...BASE, to: 'Moonbeam', currencyTo: { symbol: 'GLMR' }, recipientAddress: EVM })).status).toBe(200);
      await expect400(p('/router'), { ...BASE, senderAddress: EVM }, 'InvalidAddressError', 'body.senderAddress');
    });

    it(`${family}: EVM origins need evmSenderAddress (alias evmInjectorAddress)`, async () => {
      const fromMoonbeam = { ...BASE, from: 'Moonbeam', currencyFrom: { symbol: 'GLMR' } };
      await expect400(p('/router'), fromMoonbeam, 'MissingParameterError', 'body.evmSenderAddress');
      await expect400(p('/router'), { ...fromMoonbeam, evmSenderAddress: ALICE }, 'InvalidAddressError', 'body.evmSenderAddress');
      expect((await post(p('/router'), { ...fromMoonbeam, evmSenderAddress: EVM })).status).toBe(200);
      expect(lastCall().request.evmSenderAddress).toBe(EVM);
      expect((await post(p('/router'), { ...fromMoonbeam, evmInjectorAddress: EVM })).status).toBe(200);
      expect(lastCall().request.evmSenderAddress).toBe(EVM);
      await expect400(p('/router'), { ...fromMoonbeam, evmInjectorAddress: EVM, evmSenderAddress: EVM }, 'ValidationError', 'body.evmInjectorAddress');
    });

    it(`${family}: options: abstractDecimals (default ${family === 'v2' ? 'on' : 'off'}), development, apiOverrides only`, async () => {
      expect((await post(p('/router'), BASE)).status).toBe(200);
      expect(lastCall().builderOptions).toEqual({ apiOverrides: {}, development: false, abstractDecimals: family === 'v2' });
      await expect400(p('/router'), { ...BASE, options: { xcmFormatCheck: true } }, 'ValidationError', 'xcmFormatCheck');
      await expect400(p('/router'), { ...BASE, options: { mode: 'BATCH' } }, 'ValidationError', 'mode');
      await expect400(p('/router'), { ...BASE, options: { abstractDecimals: 'yes' } }, 'ValidationError', 'body.options.abstractDecimals');
      await expect400(p('/router'), { ...BASE, options: { apiOverrides: { Nowhere: 'wss://x.example' } } }, 'UnknownChainError', 'Nowhere');
      await expect400(p('/router'), { ...BASE, options: { apiOverrides: { Polkadot: 'https://x.example' } } }, 'ValidationError', 'Polkadot');
      // decimals in the amount only with abstractDecimals
      const decimal = { ...BASE, amount: '1.5' };
      if (family === 'v5') await expect400(p('/router'), decimal, 'NumberFormatError', 'abstractDecimals');
      else expect((await post(p('/router'), decimal)).status).toBe(200);
      expect((await post(p('/router'), { ...decimal, options: { abstractDecimals: true } })).status).toBe(200);
      expect(lastCall().request.amount).toBe('1.5');
      expect(lastCall().builderOptions.abstractDecimals).toBe(true);
    });

    it(`${family}: unknown fields are refused`, async () => {
      await expect400(p('/router'), { ...BASE, feeAsset: { symbol: 'DOT' } }, 'ValidationError', 'feeAsset');
    });
  }
});

// ---- development mode: fail fast, never dial what the caller did not name ------------------

describe('development mode', () => {
  const dev = (apiOverrides: Record<string, string>) => ({ development: true, apiOverrides });
  const all = { Polkadot: 'wss://polkadot.example', Hydration: 'wss://hydration.example', Astar: 'wss://astar.example' };

  it('a chain without override is a 400 before anything is dialled', async () => {
    const body = await expect400('/v5/router', { ...BASE, options: dev({ Polkadot: all.Polkadot }) }, 'MissingChainApiError', 'Hydration, Astar');
    expect(body.message).toContain('options.development');
    await expect400('/v5/router/dry-run', { ...BASE, options: dev({}) }, 'MissingChainApiError', 'Polkadot, Hydration, Astar');
  });

  it('automatic/whitelisted selection and AcalaDex/KaruraDex are refused (they ignore apiOverrides)', async () => {
    await expect400('/v5/router', { ...without(BASE, 'exchange'), options: dev(all) }, 'UnsupportedOperationError', 'one manually chosen exchange');
    await expect400('/v5/router', { ...BASE, exchange: ['HydrationDex', 'AssetHubPolkadotDex'], options: dev(all) }, 'UnsupportedOperationError', 'one manually chosen exchange');
    const viaAcala = { ...BASE, exchange: 'AcalaDex', currencyTo: { symbol: 'ACA' } };
    const viaKarura = { ...BASE, exchange: 'KaruraDex', from: 'Kusama', to: 'Karura', currencyFrom: { symbol: 'KSM' }, currencyTo: { symbol: 'KAR' } };
    for (const body of [viaAcala, viaKarura]) {
      await expect400('/v2/router', { ...body, options: dev({ ...all, Kusama: 'wss://ksm.example', Acala: 'wss://a.example', Karura: 'wss://k.example' }) }, 'UnsupportedOperationError', body.exchange);
    }
  });

  it('with every override the request reaches the router with those URLs', async () => {
    // The items' chains are read there too (the route check decodes each item with its chain's metadata).
    const urls = { ...all, Polkadot: chains.Polkadot.url, Hydration: chains.Hydration.url };
    const res = await post('/v5/router', { ...BASE, options: dev(urls) });
    expect(res.status).toBe(200);
    expect(lastCall().builderOptions).toEqual({ development: true, abstractDecimals: false, apiOverrides: { Polkadot: [urls.Polkadot], Hydration: [urls.Hydration], Astar: [urls.Astar] } });
    // wsProviders of an item are the override given for its chain
    expect(res.body[0].wsProviders).toEqual([urls.Polkadot]);
    expect(res.body[1].wsProviders).toEqual([urls.Hydration]);
  });
});

// ---- translation of router results at the SDK boundary -------------------------------------

describe('router results -> contract shapes', () => {
  it('/router and /router-hash: plan -> [{tx, wsProviders, statusType, chain, destinationChain, amountOut}]', async () => {
    results.buildTransactions = async () => twoClickPlan;
    for (const path of ['/v5/router', '/v5/router-hash', '/v2/router']) {
      const res = await post(path, BASE);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { tx: tx.toExchange, wsProviders: sdk.getChainProviders('Polkadot'), statusType: 'TO_EXCHANGE', chain: 'Polkadot', destinationChain: 'Hydration' },
        { tx: tx.swapAndTransfer, wsProviders: sdk.getChainProviders('Hydration'), statusType: 'SWAP_AND_TRANSFER', chain: 'Hydration', destinationChain: 'Astar', amountOut: '1234567890123456789' },
      ]);
    }
    expect(toExchangeInput(lastCall().request.exchange)).toBe('HydrationDex');
  });

  it('item tx is call data, passed through as polkadot-api encodes it (getEncodedData): both clients decode it as one call', async () => {
    const polkadot = chains.Polkadot;
    // The transfer to the exchange as call data, the way the router's papi transaction holds it.
    results.buildTransactions = async () => [{ type: 'TRANSFER', api: papiClient, chain: 'Polkadot', destinationChain: 'Hydration', tx: papiTx(tx.toExchange) }];
    const res = await post('/v5/router', BASE);
    expect(res.body[0].tx).toBe(tx.toExchange);
    const pjs = await decodeCall(polkadot, res.body[0].tx);
    expect(`${pjs.section}.${pjs.method}`).toBe('xcmPallet.limitedReserveTransferAssets');
    const papi = decodeCallPapi(polkadot, res.body[0].tx);
    expect(`${papi.pallet}.${papi.call}`).toBe('XcmPallet.limited_reserve_transfer_assets');
  });

  it('one-click execute: a single SWAP item on the origin', async () => {
    results.buildTransactions = async () => oneClickPlan;
    // DOT by location: {symbol: 'DOT'} is two assets of the asset hub (the router refuses it there).
    const dot = { location: { parents: 1, interior: { Here: null } } };
    const res = await post('/v5/router', { ...BASE, from: 'AssetHubPolkadot', to: 'Hydration', currencyFrom: dot, currencyTo: { symbol: 'HDX' } });
    expect(res.body).toEqual([{ tx: tx.oneClick, wsProviders: sdk.getChainProviders('AssetHubPolkadot'), statusType: 'SWAP', chain: 'AssetHubPolkadot', destinationChain: 'Hydration', amountOut: '42' }]);
  });

  it('a TRANSFER after the swap is TO_DESTINATION', async () => {
    results.buildTransactions = async () => [
      { type: 'TRANSFER', api: papiClient, chain: 'Polkadot', destinationChain: 'Hydration', tx: papiTx(tx.toExchange) },
      { type: 'SWAP', api: papiClient, chain: 'Hydration', tx: papiTx(tx.swap), amountOut: 7n },
      { type: 'TRANSFER', api: papiClient, chain: 'Hydration', destinationChain: 'Astar', tx: papiTx(tx.toAstar) },
    ];
    const res = await post('/v5/router', BASE);
    expect(res.body.map((i: { statusType: string }) => i.statusType)).toEqual(['TO_EXCHANGE', 'SWAP', 'TO_DESTINATION']);
    expect(res.body[1]).not.toHaveProperty('destinationChain');
  });

  for (const family of FAMILIES) {
    it(`${family}: POST /x-transfers maps the swap transfer onto the router`, async () => {
      results.buildTransactions = async () => twoClickPlan;
      const [recipient, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
      const body = {
        from: 'Polkadot',
        to: 'Astar',
        currency: { symbol: 'DOT', amount: '10000000000' },
        [recipient]: ALICE,
        [sender]: BOB,
        swapOptions: { currencyTo: { symbol: 'ASTR' }, exchange: ['HydrationDex'] },
      };
      const res = await post(`/${family}/x-transfers`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.map((i: { statusType: string }) => i.statusType)).toEqual(['TO_EXCHANGE', 'SWAP_AND_TRANSFER']);
      expect(lastCall().request).toEqual({
        ...REQUEST,
        evmSenderAddress: undefined,
        options: { development: false, abstractDecimals: family === 'v2', apiOverrides: {} },
      });
      await expect400(`/${family}/x-transfers`, without(body, 'swapOptions'), 'MissingParameterError', 'body.swapOptions');
      await expect400(`/${family}/x-transfers`, without(body, sender), 'MissingParameterError', `body.${sender}`);
      await expect400(`/${family}/x-transfers`, without(body, recipient), 'MissingParameterError', `body.${recipient}`);
      await expect400(`/${family}/x-transfers`, { ...body, feeAsset: { symbol: 'DOT' } }, 'ValidationError', 'feeAsset');
      await expect400(`/${family}/x-transfers`, { ...body, currency: [{ symbol: 'DOT', amount: '1' }] }, 'InvalidCurrencyError', 'body.currency');
      await expect400(`/${family}/x-transfers`, { ...body, currency: { symbol: 'DOT', amount: 'ALL' } }, 'NumberFormatError', 'body.currency.amount');
      await expect400(`/${family}/x-transfers`, { ...body, swapOptions: { currencyTo: { id: '5' } } }, 'InvalidCurrencyError', 'body.swapOptions.currencyTo.id');
      await expect400(`/${family}/x-transfers`, { ...body, swapOptions: { currencyTo: { symbol: 'ASTR' }, exchange: 'Nope' } }, 'UnknownExchangeError', 'body.swapOptions.exchange');
      await expect400(`/${family}/x-transfers`, { ...body, swapOptions: { currencyTo: { symbol: 'ASTR' }, slippage: 0 } }, 'ValidationError', 'body.swapOptions.slippage');
      expect((await post(`/${family}/x-transfers`, { ...body, swapOptions: { currencyTo: { symbol: 'ASTR' }, slippage: 2.5 } })).status).toBe(200);
      expect(lastCall().request).toMatchObject({ slippagePct: '2.5', exchange: undefined });
      // ParaSpell XCM API 14 names exchanges by their chains: the same exchanges reach the router.
      expect((await post(`/${family}/x-transfers`, { ...body, swapOptions: { currencyTo: { symbol: 'ASTR' }, exchange: 'Hydration' } })).status).toBe(200);
      expect(lastCall().request).toMatchObject({ exchange: ['HydrationDex'] });
      expect((await post(`/${family}/x-transfers`, { ...body, swapOptions: { currencyTo: { symbol: 'ASTR' }, exchange: ['Hydration', 'AssetHubPolkadotDex'] } })).status).toBe(200);
      expect(lastCall().request).toMatchObject({ exchange: ['HydrationDex', 'AssetHubPolkadotDex'] });
      // currency and currencyTo with a preference are read on their chains first: the router gets locations.
      const preferred = { ...body, currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' }, swapOptions: { currencyTo: { symbol: { type: 'Foreign', value: 'ASTR' } }, exchange: 'Hydration' } };
      expect((await post(`/${family}/x-transfers`, preferred)).status).toBe(200);
      expect(lastCall().request.currencyFrom).toEqual({ location: { parents: 1, interior: { Here: null } } });
      expect(JSON.stringify(lastCall().request.currencyTo)).toMatch(/"location":.*"Parachain":2006/);
    });
  }

  it('/router/dry-run: origin, the exchange as a hop (isExchange), destination; bigints as strings', async () => {
    results.dryRun = async () => ROUTER_DRY_RUN;
    const res = await post('/v5/router/dry-run', BASE);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      origin: { success: true, fee: '15000000', weight: { refTime: '1000', proofSize: '2000' }, destParaId: 2034, asset: { symbol: 'DOT' } },
      hops: [{ chain: 'Hydration', isExchange: true, result: { success: true, fee: '2000000000000', asset: { symbol: 'DOT' } } }],
      destination: { success: true, fee: '3000000', asset: { symbol: 'ASTR' } },
    });
    expect(res.body).not.toHaveProperty('dryRunError');
    expect(res.body.origin).not.toHaveProperty('currency');
  });

  it('/router/dry-run: a failure on the exchange is dryRunError {chain: Hydration, chainKind: hop}', async () => {
    results.dryRun = async () => dryRunFailedOnExchange;
    const res = await post('/v2/router/dry-run', BASE);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.dryRunError).toEqual({ reason: 'TooExpensive', chain: 'Hydration', chainKind: 'hop' });
    expect(res.body.hops[0]).toMatchObject({ chain: 'Hydration', isExchange: true, result: { success: false, dryRunError: { reason: 'TooExpensive' } } });
  });

  it('/router/dry-run without from: the origin is the exchange chain (isExchange)', async () => {
    results.dryRun = async () => ({ origin: { ...ROUTER_DRY_RUN.hops[0].result, isExchange: true }, destination: ROUTER_DRY_RUN.destination, hops: [] });
    const res = await post('/v5/router/dry-run', without(BASE, 'from'));
    expect(res.body).toMatchObject({ success: true, origin: { isExchange: true, asset: { symbol: 'DOT' } }, hops: [] });
  });

  it('/router/xcm-fees: contract fee shape, paymentInfo fees in the native asset, amount on the destination asset', async () => {
    results.getXcmFees = async () => ROUTER_FEES;
    const res = await post('/v5/router/xcm-fees', BASE);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      origin: { fee: '16000000', feeType: 'dryRun', sufficient: true, weight: { refTime: '10', proofSize: '20' }, asset: { symbol: 'DOT' } },
      hops: [{ chain: 'Hydration', isExchange: true, result: { fee: '9000000000', feeType: 'paymentInfo', asset: { symbol: 'HDX' } } }],
      destination: { fee: '5000000000000000', feeType: 'paymentInfo', asset: { symbol: 'ASTR', amount: '5000000000000000' } },
    });
  });

  it('amounts and best amount out are decimal strings', async () => {
    results.getTransferableAmount = async () => 123_456_789_012_345_678_901n;
    results.getMinTransferableAmount = async () => 1_000_001n;
    results.getBestAmountOut = async () => ({ exchange: 'AssetHubPolkadotDex', amountOut: 99_999_999_999_999_999n });
    expect((await post('/v5/router/transferable-amount', BASE)).body).toBe('123456789012345678901');
    expect((await post('/v5/router/min-transferable-amount', BASE)).body).toBe('1000001');
    const best = await post('/v2/router/best-amount-out', without(BASE, 'exchange'));
    expect(best.body).toEqual({ exchange: 'AssetHubPolkadotDex', amountOut: '99999999999999999' });
    expect(lastCall().request.exchange).toBeUndefined();
  });

  it('router errors become 400s; a router that never answers is a 504 naming the request deadline (REQUEST_TIMEOUT_MS)', async () => {
    // A currency the registry knows but the exchange does not pool: the router says so, as a currency error.
    results.buildTransactions = async () => {
      throw new sdk.InvalidParameterError('Currency to {"symbol":"GLMR"} not found in HydrationDex.');
    };
    for (const family of FAMILIES) {
      const bad = await post(`/${family}/router`, { ...BASE, currencyTo: { symbol: 'GLMR' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ kind: 'InvalidCurrencyError', message: 'Currency to {"symbol":"GLMR"} not found in HydrationDex.' });
      // A currency no registry knows never reaches the router.
      await expect400(`/${family}/router`, { ...BASE, currencyTo: { symbol: 'NOPE' } }, 'InvalidCurrencyError', 'body.currencyTo');
    }

    results.dryRun = () => new Promise(() => undefined);
    const slow = await post('/v5/router/dry-run', BASE);
    expect(slow.status).toBe(504);
    expectErrorBody(slow.body, 504, 'DeadlineExceededError');
    expect(slow.body.message).toMatch(/did not finish within 300 ms$/);
    // The request was given up, not the service: the next one is answered.
    results.dryRun = async () => ROUTER_DRY_RUN;
    expect((await post('/v5/router/dry-run', BASE)).status).toBe(200);
  });
});

// ---- the route check on every item -----------------------------------------------------------

describe('the route check: each item is followed from the chain it is submitted on before it is answered', () => {
  it('a good plan passes and is counted: the transfer to the exchange passed, the swap batch warned (the swap is a call the check does not read)', async () => {
    const res = await post('/v5/router', BASE);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const metrics = (await request(app).get('/metrics')).text;
    expect(metrics).toMatch(/xcm_gateway_route_checks_total\{outcome="passed",origin="Polkadot"\} [1-9]/);
    expect(metrics).toMatch(/xcm_gateway_route_checks_total\{outcome="warned",origin="Hydration"\} [1-9]/);
  });

  for (const family of FAMILIES) {
    it(`${family}: a swap batch that deposits on Astar for someone else is a 500 RouteCheckError naming Astar's DepositAsset, counted as refused`, async () => {
      results.buildTransactions = async () => [twoClickPlan[0]!, { ...twoClickPlan[1]!, tx: papiTx(tx.toAstarForBob) } as TRouterPlan[number]];
      const res = await post(`/${family}/router`, BASE);
      expect(res.status, JSON.stringify(res.body)).toBe(500);
      expectErrorBody(res.body, 500, 'RouteCheckError');
      expect(res.body.message).toMatch(/built from Hydration would not arrive: at hop 3 \(Astar\), DepositAsset\.beneficiary: .*is not the recipient the request asked for/);
      expect((res.body.route as { chain: string; ok: boolean }[]).map((h) => [h.chain, h.ok])).toEqual([
        ['Hydration', true],
        ['Hydration', true],
        ['Astar', false],
      ]);
      const metrics = (await request(app).get('/metrics')).text;
      expect(metrics).toMatch(/xcm_gateway_route_checks_total\{outcome="refused",origin="Hydration"\} [1-9]/);
    });

    it(`${family}: an item whose call ends elsewhere than the chain it names (Hydration, named AssetHubPolkadot) is refused at its last hop`, async () => {
      results.buildTransactions = async () => [{ ...twoClickPlan[0]!, destinationChain: 'AssetHubPolkadot' } as TRouterPlan[number]];
      const res = await post(`/${family}/router`, BASE);
      expect(res.status, JSON.stringify(res.body)).toBe(500);
      expectErrorBody(res.body, 500, 'RouteCheckError');
      expect(res.body.message).toMatch(/at hop 2 \(Hydration\), route: the message ends on Hydration, but the request asked for AssetHubPolkadot/);
    });
  }

  it('/x-transfers (a swap transfer) is checked the same way', async () => {
    results.buildTransactions = async () => [twoClickPlan[0]!, { ...twoClickPlan[1]!, tx: papiTx(tx.toAstarForBob) } as TRouterPlan[number]];
    const body = { from: 'Polkadot', to: 'Astar', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, senderAddress: BOB, swapOptions: { currencyTo: { symbol: 'ASTR' }, exchange: 'HydrationDex' } };
    const res = await post('/v5/x-transfers', body);
    expect(res.status, JSON.stringify(res.body)).toBe(500);
    expectErrorBody(res.body, 500, 'RouteCheckError');
  });
});

// ---- the real engine's wiring (no network: the router refuses these before dialling) --------

describe('real engine: RouterBuilder wiring', () => {
  const call = (over: Partial<EngineCall['request']>): EngineCall => ({
    request: {
      ...REQUEST,
      options: { development: true, abstractDecimals: false, apiOverrides: {} },
      ...over,
    },
    builderOptions: { development: true },
  });

  it('passes every field to the router (its own checks fire on what we pass)', async () => {
    await expect(realEngine.buildTransactions(call({ recipientAddress: undefined }))).rejects.toThrow('Recipient address is required when destination chain is specified');
    await expect(realEngine.dryRun(call({ evmSenderAddress: 'nope' }))).rejects.toThrow('Evm injector address is not a valid Ethereum address');
    await expect(realEngine.getXcmFees(call({ from: undefined, exchange: undefined }))).rejects.toThrow('Cannot use automatic exchange selection without specifying the origin chain');
  });

  it('development mode without overrides fails at once with MissingChainApiError', async () => {
    await expect(realEngine.buildTransactions(call({}))).rejects.toMatchObject({ name: 'MissingChainApiError' });
  });
});
