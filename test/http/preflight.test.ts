import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAssetInfo, TBridgeStatus, TDryRunChainSuccess, TDryRunResult, TGetXcmFeeResult, TTransferInfo } from '@paraspell/sdk-pjs';
import { createApp } from '../../src/http/app';
import { sdk } from '../../src/sdk';
import { createServices } from '../../src/service';
import { PreflightService, type PreflightSdk } from '../../src/service/preflight';
import type { SdkOriginXcmFee } from '../../src/service/preflight-shapes';
import { FAMILIES, expectErrorBody, testApp, testConfig } from '../helpers/app';
import { refusedUrl, startTestChain, type TestChain } from '../support/test-chain';
import {
  AH_HOP_FEE,
  AH_ORIGIN_DRY_RUN,
  AH_ORIGIN_DRY_RUN_CONTRACT,
  DOT_AH,
  DOT_HYDRATION,
  DRY_RUN_HOP_FAILURE,
  FWD_TO_1000,
  FWD_TO_2034,
  GLMR,
  HDX,
  ORIGIN_FEE_DRY_RUN,
  USDT_AH,
  XCM_FEE_ORIGIN_FALLBACK,
} from '../fixtures/sdk-results';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
/** Moonbeam is an EVM chain: its recipients are 20-byte addresses. */
const EVM_RECIPIENT = '0x24D18dbFBcEd732EAdF98EE520853e13909fE258';
const NO_DRY_RUN = 'Interlay'; // sdk.hasDryRunSupport('Interlay') === false in 11.14.8

const { app } = testApp();
const post = (path: string, body: unknown) => request(app).post(path).send(body as object);

const field = (family: string) => (family === 'v5' ? { recipient: 'address', sender: 'senderAddress' } : { recipient: 'recipient', sender: 'sender' });
const bodyOf = (family: string, extra: Record<string, unknown> = {}) => ({
  from: 'AssetHubPolkadot',
  to: 'Hydration',
  currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' },
  [field(family).recipient]: ADDRESS,
  [field(family).sender]: SENDER,
  ...extra,
});

const ENDPOINTS = [
  'dry-run',
  'dry-run-preview',
  'xcm-fee',
  'origin-xcm-fee',
  'transfer-info',
  'transferable-amount',
  'min-transferable-amount',
  'receivable-amount',
  'verify-ed-on-destination',
  'best-amount-out',
] as const;
const SWAP_ENDPOINTS = ['dry-run', 'xcm-fee', 'transferable-amount', 'min-transferable-amount', 'best-amount-out'];
const FALLBACK_ENDPOINTS = ['xcm-fee', 'origin-xcm-fee'];
const SWAP = { currencyTo: { symbol: 'USDT' }, exchange: 'HydrationDex', slippage: 1 };
/** best-amount-out needs swapOptions to get past validation of the other fields. */
const needs = (endpoint: string) => (endpoint === 'best-amount-out' ? { swapOptions: SWAP } : {});

// ---- validation (no chain is reached: every case fails before) ---------------------------------

describe.each(FAMILIES)('/%s pre-flight validation', (family) => {
  const v = `/${family}`;
  const f = field(family);

  describe.each(ENDPOINTS)('POST /%s', (endpoint) => {
    const url = `${v}/${endpoint}`;
    const valid = () => bodyOf(family, needs(endpoint));

    it('requires from, to, currency, the recipient and the sender', async () => {
      for (const name of ['from', 'to', 'currency', f.recipient, f.sender]) {
        const body: Record<string, unknown> = valid();
        delete body[name];
        const res = await post(url, body).expect(400);
        expectErrorBody(res.body, 400, 'MissingParameterError');
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain(`body.${name}`);
      }
      expectErrorBody((await post(url, undefined).expect(400)).body, 400, 'MissingParameterError');
    });

    it('rejects an unknown chain, a bad currency and bad amounts', async () => {
      const chain = await post(url, { ...valid(), to: 'Hydrayion' }).expect(400);
      expectErrorBody(chain.body, 400, 'UnknownChainError');
      expect(chain.body.message).toContain("'Hydration'");
      const currency = await post(url, { ...valid(), currency: { symbol: 'DOT', id: 5, amount: '1' } }).expect(400);
      expectErrorBody(currency.body, 400, 'InvalidCurrencyError');
      const text = await post(url, { ...valid(), currency: { symbol: 'DOT', amount: 'lots' } }).expect(400);
      expectErrorBody(text.body, 400);
      expect(text.body.details[0].path).toBe('body.currency.amount');
      // Fractions need abstractDecimals: off by default in /v5, on in /v2.
      const fraction = { ...valid(), currency: { symbol: 'DOT', amount: '1.5' }, options: { abstractDecimals: false } };
      expectErrorBody((await post(url, fraction).expect(400)).body, 400, 'NumberFormatError');
    });

    it('rejects unknown fields, transact payloads, keepAlive, a location destination and unknown options', async () => {
      const unknown = await post(url, { ...valid(), colour: 'red' }).expect(400);
      expectErrorBody(unknown.body, 400, 'ValidationError');
      expect(unknown.body.message).toContain('colour');
      const transactField = family === 'v5' ? 'transact' : 'transactOptions';
      expectErrorBody((await post(url, { ...valid(), [transactField]: { hex: '0x00' } }).expect(400)).body, 400, 'ValidationError');
      expectErrorBody((await post(url, { ...valid(), keepAlive: true }).expect(400)).body, 400, 'ValidationError');
      // A Location that names no chain cannot be priced (one that names a chain is priced as that chain).
      const loc = await post(url, { ...valid(), to: { parents: 2, interior: 'Here' } }).expect(400);
      expectErrorBody(loc.body, 400, 'UnsupportedOperationError');
      expect(loc.body.details[0].path).toBe('body.to');
      expectErrorBody((await post(url, { ...valid(), options: { mode: 'BATCH' } }).expect(400)).body, 400, 'ValidationError');
    });

    it('takes options.mintFeeAssets only on the preview', async () => {
      // development mode without overrides stops the preview right after validation, before any chain is dialled.
      const res = await post(url, { ...valid(), options: { mintFeeAssets: true, development: true } }).expect(400);
      if (endpoint === 'dry-run-preview') expectErrorBody(res.body, 400, 'MissingChainApiError');
      else expect(res.body.details).toEqual([{ path: 'body.options', message: 'has unknown field(s): mintFeeAssets' }]);
      if (endpoint === 'dry-run-preview') {
        expectErrorBody((await post(url, { ...valid(), options: { mintFeeAssets: 'yes' } }).expect(400)).body, 400, 'ValidationError');
      }
    });

    it(SWAP_ENDPOINTS.includes(endpoint) ? 'validates swapOptions fully' : 'does not take swapOptions', async () => {
      if (!SWAP_ENDPOINTS.includes(endpoint)) {
        const res = await post(url, { ...valid(), swapOptions: SWAP }).expect(400);
        expect(res.body.message).toContain('swapOptions');
        return;
      }
      const bad: [unknown, string, string][] = [
        [{}, 'body.swapOptions.currencyTo', 'MissingParameterError'],
        [{ ...SWAP, currencyTo: { symbol: 'A', id: 1 } }, 'body.swapOptions.currencyTo', 'InvalidCurrencyError'],
        [{ ...SWAP, exchange: 'Uniswap' }, 'body.swapOptions.exchange', 'UnknownExchangeError'],
        [{ ...SWAP, exchange: [] }, 'body.swapOptions.exchange', 'ValidationError'],
        [{ ...SWAP, exchange: ['HydrationDex', 7] }, 'body.swapOptions.exchange.1', 'ValidationError'],
        [{ ...SWAP, slippage: '1' }, 'body.swapOptions.slippage', 'ValidationError'],
        [{ ...SWAP, slippage: 0 }, 'body.swapOptions.slippage', 'ValidationError'],
        [{ ...SWAP, slippage: 101 }, 'body.swapOptions.slippage', 'ValidationError'],
        [{ ...SWAP, evmSenderAddress: '0x12' }, 'body.swapOptions.evmSenderAddress', 'InvalidAddressError'],
        [{ ...SWAP, extra: 1 }, 'body.swapOptions', 'ValidationError'],
        ['HydrationDex', 'body.swapOptions', 'ValidationError'],
      ];
      // The router takes plain symbols only (no Native/Foreign specifiers).
      const swapBody = () => ({ ...valid(), currency: { symbol: 'DOT', amount: '10000000000' } });
      for (const [swapOptions, path, kind] of bad) {
        const res = await post(url, { ...swapBody(), swapOptions }).expect(400);
        expectErrorBody(res.body, 400, kind);
        expect(res.body.details[0].path, JSON.stringify(swapOptions)).toBe(path);
      }
      // Valid swapOptions are served by the router (test/http/preflight-swap.test.ts): in development
      // mode without overrides the request stops there, before anything is dialled.
      const res = await post(url, { ...swapBody(), swapOptions: SWAP, options: { development: true } }).expect(400);
      expectErrorBody(res.body, 400, 'MissingChainApiError');
    });

    it(FALLBACK_ENDPOINTS.includes(endpoint) ? 'checks disableFallback' : 'does not take disableFallback', async () => {
      for (const value of FALLBACK_ENDPOINTS.includes(endpoint) ? ['yes', 'true', 1, null] : [true, 'True']) {
        const res = await post(url, { ...valid(), disableFallback: value }).expect(400);
        expectErrorBody(res.body, 400, 'ValidationError');
        if (FALLBACK_ENDPOINTS.includes(endpoint)) expect(res.body.details[0]).toEqual({ path: 'body.disableFallback', message: 'must be true, false, "True" or "False"' });
        else expect(res.body.details[0]).toEqual({ path: 'body', message: 'has unknown field(s): disableFallback' });
      }
    });
  });

  it('best-amount-out without swapOptions is a MissingParameterError', async () => {
    const res = await post(`${v}/best-amount-out`, bodyOf(family)).expect(400);
    expectErrorBody(res.body, 400, 'MissingParameterError');
    expect(res.body.details).toEqual([{ path: 'body.swapOptions', message: 'is required' }]);
  });

  it('chains without dry-run support: RuntimeApiUnavailableError naming the chain', async () => {
    const from = { ...bodyOf(family), from: NO_DRY_RUN, currency: { symbol: 'DOT', amount: '10000000000' } };
    for (const endpoint of ['min-transferable-amount', 'dry-run', 'dry-run-preview']) {
      const res = await post(`${v}/${endpoint}`, from).expect(400);
      expectErrorBody(res.body, 400, 'RuntimeApiUnavailableError');
      expect(res.body.message).toContain(NO_DRY_RUN);
    }
    for (const endpoint of ['receivable-amount', 'min-transferable-amount']) {
      const res = await post(`${v}/${endpoint}`, { ...bodyOf(family), to: NO_DRY_RUN }).expect(400);
      expectErrorBody(res.body, 400, 'RuntimeApiUnavailableError');
      expect(res.body.message).toContain(NO_DRY_RUN);
    }
  });

  it('amount queries take one asset; verify-ed needs a number, not ALL', async () => {
    const multi = [
      { symbol: 'DOT', amount: '1' },
      { id: 1984, amount: '1' },
    ];
    const res = await post(`${v}/transferable-amount`, bodyOf(family, { currency: multi, feeAsset: { id: 1984 } })).expect(400);
    expectErrorBody(res.body, 400, 'ValidationError');
    const all = await post(`${v}/verify-ed-on-destination`, bodyOf(family, { currency: { symbol: { type: 'Native', value: 'DOT' }, amount: 'ALL' } })).expect(400);
    expectErrorBody(all.body, 400, 'NumberFormatError');
  });

  describe('balance', () => {
    it('validates the account, currency, chain and options', async () => {
      const account = family === 'v5' ? 'address' : 'recipient';
      const missing = await post(`${v}/balance/AssetHubPolkadot`, { currency: { symbol: 'USDT' } }).expect(400);
      expectErrorBody(missing.body, 400, 'MissingParameterError');
      expect(missing.body.details).toContainEqual({ path: `body.${account}`, message: 'is required' });
      const chain = await post(`${v}/balance/Hydrayion`, { [account]: ADDRESS, currency: { symbol: 'DOT' } }).expect(400);
      expectErrorBody(chain.body, 400, 'UnknownChainError');
      const all = await post(`${v}/balance/Hydration`, { [account]: ADDRESS, currency: { symbol: 'DOT', amount: 'ALL' } }).expect(400);
      expect(all.body.details[0].path).toBe('body.currency.amount');
      const unknown = await post(`${v}/balance/Hydration`, { [account]: ADDRESS, currency: { symbol: 'NOPE' } }).expect(400);
      expectErrorBody(unknown.body, 400, 'InvalidCurrencyError');
      const opts = await post(`${v}/balance/Hydration`, { [account]: ADDRESS, currency: { symbol: 'DOT' }, options: { abstractDecimals: true } }).expect(400);
      expectErrorBody(opts.body, 400, 'ValidationError');
      const wrongName = await post(`${v}/balance/Hydration`, { [family === 'v5' ? 'recipient' : 'address']: ADDRESS, currency: { symbol: 'DOT' } }).expect(400);
      expectErrorBody(wrongName.body, 400);
      if (family === 'v2') {
        const noCurrency = await post(`${v}/balance/Hydration/asset`, { recipient: ADDRESS }).expect(400);
        expectErrorBody(noCurrency.body, 400, 'MissingParameterError');
        expect(noCurrency.body.details).toEqual([{ path: 'body.currency', message: 'is required' }]);
      } else {
        // /v5 answers at the /asset path too, with its own field names.
        const noAddress = await post(`${v}/balance/Hydration/asset`, { currency: { symbol: 'DOT' } }).expect(400);
        expect(noAddress.body.details).toEqual([{ path: 'body.address', message: 'is required' }]);
      }
    });
  });
});

// ---- the local test chain: real SDK, real pool, empty storage ----------------------------------

describe('against the local test chain (AssetHubPolkadot, empty storage)', () => {
  let chain: TestChain;
  let local: ReturnType<typeof testApp>;
  beforeAll(async () => {
    chain = await startTestChain('AssetHubPolkadot');
    local = testApp();
  });
  afterAll(async () => {
    await local.services.close();
    await chain.close();
  });
  const options = () => ({ development: true, apiOverrides: { AssetHubPolkadot: chain.url } });

  it.each(FAMILIES)('/%s balance of an empty account reads "0" (native default in /v5, /asset in /v2)', async (family) => {
    const p = (path: string, body: unknown) => request(local.app).post(path).send(body as object);
    if (family === 'v5') {
      expect((await p('/v5/balance/AssetHubPolkadot', { address: ADDRESS, options: options() }).expect(200)).body).toBe('0');
      expect((await p('/v5/balance/AssetHubPolkadot', { address: ADDRESS, currency: { id: 1984 }, options: options() }).expect(200)).body).toBe('0');
    } else {
      for (const path of ['/v2/balance/AssetHubPolkadot', '/v2/balance/AssetHubPolkadot/asset']) {
        const res = await p(path, { recipient: ADDRESS, currency: { id: 1984 }, options: options() }).expect(200);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.body).toBe('0');
      }
    }
  });

  it('a malformed account is a 400 InvalidAddressError (the SDK checks it before dialling)', async () => {
    const before = chain.connectionsOpened;
    const res = await request(local.app).post('/v5/balance/Hydration').send({ address: 'not-an-address', options: { development: true, apiOverrides: { Hydration: chain.url } } });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 400, 'InvalidAddressError');
    expect(chain.connectionsOpened).toBe(before);
  });

  it('development mode without an override for the chain is a 400 MissingChainApiError', async () => {
    const res = await request(local.app).post('/v5/balance/Hydration').send({ address: ADDRESS, options: { development: true } }).expect(400);
    expectErrorBody(res.body, 400, 'MissingChainApiError');
  });

  it.each(FAMILIES)('/%s transferable-amount of USDt (fee paid in DOT, not counted) reads the balance: max(0 - 10000, 0) = "0"', async (family) => {
    const res = await request(local.app)
      .post(`/${family}/transferable-amount`)
      .send(bodyOf(family, { currency: { id: 1984, amount: '1000' }, options: { ...options(), abstractDecimals: false } }))
      .expect(200);
    expect(res.body).toBe('0');
  });
});

describe('unreachable chain', () => {
  const slow = testApp({ CONNECT_TIMEOUT_MS: '1000' });
  afterAll(() => slow.services.close());

  it.each(['/v5/balance/AssetHubPolkadot', '/v5/dry-run', '/v2/origin-xcm-fee'])('%s answers 503 ProviderUnavailableError within the connect timeout', async (path) => {
    const url = await refusedUrl();
    const options = { development: true, apiOverrides: { AssetHubPolkadot: url, Hydration: url } };
    const family = path.startsWith('/v5') ? 'v5' : 'v2';
    const body = path.includes('balance') ? { address: ADDRESS, options } : bodyOf(family, { options });
    const started = Date.now();
    const res = await request(slow.app).post(path).send(body).expect(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.headers['retry-after']).toBeDefined();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

// ---- the SDK boundary: results shaped exactly like sdk-pjs 11.14.8's --------------------------

/** Contract form of a registry asset. */
const c = (a: TAssetInfo, extra: Record<string, unknown> = {}) => ({ ...a, ...extra });

interface FakeResults {
  dryRun?: TDryRunResult;
  dryRunPreview?: TDryRunResult;
  getXcmFee?: TGetXcmFeeResult;
  getOriginXcmFee?: SdkOriginXcmFee;
  getTransferInfo?: TTransferInfo;
  getReceivableAmount?: bigint | Error;
}

interface Recorded {
  calls: { method: string; args: unknown[] }[];
  balances: { chain: string; address: string; currency?: unknown }[];
}

const SETTERS = ['from', 'to', 'currency', 'address', 'senderAddress', 'ahAddress', 'feeAsset', 'xcmVersion', 'customPallet'];

/** A builder that records what it was given and answers the terminal call with the fixture. */
function fakeSdk(results: FakeResults, balances: Record<string, bigint> = {}, bridge: TBridgeStatus = 'Normal'): { seam: Partial<PreflightSdk>; seen: Recorded } {
  const seen: Recorded = { calls: [], balances: [] };
  const Builder = () => {
    const b: Record<string, (...args: unknown[]) => unknown> = {};
    for (const m of SETTERS) b[m] = (...args) => (seen.calls.push({ method: m, args }), b);
    for (const m of Object.keys({ dryRun: 0, dryRunPreview: 0, getXcmFee: 0, getOriginXcmFee: 0, getTransferInfo: 0, getReceivableAmount: 0 })) {
      b[m] = async (...args) => {
        seen.calls.push({ method: m, args });
        const r = results[m as keyof FakeResults];
        if (r === undefined) throw new Error(`unexpected SDK call ${m}`);
        if (r instanceof Error) throw r;
        return r;
      };
    }
    return b;
  };
  return {
    seen,
    seam: {
      Builder: Builder as unknown as typeof sdk.Builder,
      getBalance: async ({ address, chain, currency }) => {
        seen.balances.push({ chain, address, currency });
        return balances[`${chain}:${address}`] ?? 0n;
      },
      getBridgeStatus: async () => bridge,
    },
  };
}

function fakeApp(results: FakeResults, balances?: Record<string, bigint>, bridge?: TBridgeStatus) {
  const config = testConfig();
  const logger = pino({ level: 'silent' });
  const services = createServices(config, logger);
  const fake = fakeSdk(results, balances, bridge);
  services.preflight = new PreflightService(services.pool, config, fake.seam);
  const fakeApp = createApp({ config, logger, services });
  return { post: (path: string, body: unknown) => request(fakeApp).post(path).send(body as object), get: (path: string) => request(fakeApp).get(path), seen: fake.seen };
}

const call = (seen: Recorded, method: string) => seen.calls.find((x) => x.method === method);

describe.each(FAMILIES)('/%s dry run at the SDK boundary', (family) => {
  const v = `/${family}`;

  it('origin failure: 200, success false, dryRunError (origin), no destination, hops []', async () => {
    const sdkResult: TDryRunResult = {
      failureReason: 'FailedToTransactAsset',
      failureSubReason: 'FundsUnavailable',
      failureChain: 'origin',
      origin: { success: false, failureReason: 'FailedToTransactAsset', failureSubReason: 'FundsUnavailable', currency: 'DOT', asset: DOT_AH },
      hops: [],
    };
    const { post: p, seen } = fakeApp({ dryRun: sdkResult });
    const res = await p(`${v}/dry-run`, bodyOf(family)).expect(200);
    expect(res.body).toEqual({
      success: false,
      dryRunError: { reason: 'FailedToTransactAsset', subReason: 'FundsUnavailable', chain: 'AssetHubPolkadot', chainKind: 'origin' },
      origin: { success: false, dryRunError: { reason: 'FailedToTransactAsset', subReason: 'FundsUnavailable' }, asset: c(DOT_AH) },
      hops: [],
    });
    // The family's field names reached the builder as the one internal model.
    expect(call(seen, 'address')?.args).toEqual([ADDRESS]);
    expect(call(seen, 'senderAddress')?.args).toEqual([SENDER]);
    expect(call(seen, 'from')?.args).toEqual(['AssetHubPolkadot']);
  });

  it('destination failure: origin success with every field, destination dryRunError without chain', async () => {
    const sdkResult: TDryRunResult = {
      failureReason: 'UntrustedReserveLocation',
      failureChain: 'destination',
      origin: AH_ORIGIN_DRY_RUN,
      destination: { success: false, failureReason: 'UntrustedReserveLocation', currency: 'DOT', asset: DOT_HYDRATION },
      hops: [],
    };
    const res = await fakeApp({ dryRun: sdkResult }).post(`${v}/dry-run`, bodyOf(family)).expect(200);
    expect(res.body).toEqual({
      success: false,
      dryRunError: { reason: 'UntrustedReserveLocation', chain: 'Hydration', chainKind: 'destination' },
      origin: AH_ORIGIN_DRY_RUN_CONTRACT,
      destination: { success: false, dryRunError: { reason: 'UntrustedReserveLocation' }, asset: c(DOT_HYDRATION) },
      hops: [],
    });
  });

  it('hop failure (asset hub between Hydration and Moonbeam): chainKind hop, the hub folded into hops', async () => {
    const body = { ...bodyOf(family), from: 'Hydration', to: 'Moonbeam', currency: { symbol: 'DOT', amount: '10000000000' }, [field(family).recipient]: EVM_RECIPIENT };
    const res = await fakeApp({ dryRun: DRY_RUN_HOP_FAILURE }).post(`${v}/dry-run`, body).expect(200);
    expect(res.body.success).toBe(false);
    expect(res.body.dryRunError).toEqual({ reason: 'Barrier', chain: 'AssetHubPolkadot', chainKind: 'hop' });
    expect(res.body.hops).toEqual([{ chain: 'AssetHubPolkadot', result: { success: false, dryRunError: { reason: 'Barrier' }, asset: c(DOT_AH) } }]);
    expect(res.body).not.toHaveProperty('assetHub');
    expect(res.body).not.toHaveProperty('failureReason');
  });

  it('success with a hop and a destination; the preview passes mintFeeAssets (default false)', async () => {
    const hop: TDryRunChainSuccess = { success: true, fee: 40_000_000n, forwardedXcms: FWD_TO_2034, destParaId: 2034, currency: 'DOT', asset: DOT_AH };
    const sdkResult: TDryRunResult = {
      origin: { success: true, fee: 1_500_000_000_000n, weight: { refTime: 1n, proofSize: 2n }, forwardedXcms: FWD_TO_1000, destParaId: 1000, currency: 'HDX', asset: HDX },
      destination: { success: true, fee: 3_000_000n, forwardedXcms: [], currency: 'DOT', asset: DOT_HYDRATION },
      assetHub: hop,
      hops: [{ chain: 'AssetHubPolkadot', result: hop }],
    };
    const fake = fakeApp({ dryRunPreview: sdkResult });
    const res = await fake.post(`${v}/dry-run-preview`, bodyOf(family)).expect(200);
    expect(res.body).toEqual({
      success: true,
      origin: { success: true, fee: '1500000000000', asset: c(HDX), weight: { refTime: '1', proofSize: '2' }, forwardedXcms: FWD_TO_1000, destParaId: 1000 },
      destination: { success: true, fee: '3000000', asset: c(DOT_HYDRATION), forwardedXcms: [] },
      hops: [{ chain: 'AssetHubPolkadot', result: { success: true, fee: '40000000', asset: c(DOT_AH), forwardedXcms: FWD_TO_2034, destParaId: 2034 } }],
    });
    expect(call(fake.seen, 'dryRunPreview')?.args).toEqual([{ mintFeeAssets: false }]);
    await fake.post(`${v}/dry-run-preview`, bodyOf(family, { options: { mintFeeAssets: true } })).expect(200);
    expect(fake.seen.calls.filter((x) => x.method === 'dryRunPreview')[1]?.args).toEqual([{ mintFeeAssets: true }]);
  });
});

describe.each(FAMILIES)('/%s fees and transfer info at the SDK boundary', (family) => {
  const v = `/${family}`;

  it('xcm-fee: payment-info fallback after an origin dry-run failure keeps fees, native assets, success false', async () => {
    const fake = fakeApp({ getXcmFee: XCM_FEE_ORIGIN_FALLBACK });
    const res = await fake.post(`${v}/xcm-fee`, bodyOf(family)).expect(200);
    expect(res.body).toEqual({
      success: false,
      dryRunError: { reason: 'FailedToTransactAsset', subReason: 'FundsUnavailable', chain: 'AssetHubPolkadot', chainKind: 'origin' },
      origin: { fee: '26000000', feeType: 'paymentInfo', sufficient: false, asset: c(DOT_AH), dryRunError: { reason: 'FailedToTransactAsset', subReason: 'FundsUnavailable' } },
      destination: { fee: '4000000000', feeType: 'paymentInfo', sufficient: true, asset: c(HDX, { amount: '4000000000' }) },
      hops: [],
    });
    expect(call(fake.seen, 'getXcmFee')?.args).toEqual([{ disableFallback: false }]);
  });

  it('xcm-fee: disableFallback in every accepted form reaches the SDK; success with hops', async () => {
    const sdkResult: TGetXcmFeeResult<false> = {
      origin: { weight: { refTime: 1n, proofSize: 1n }, fee: 2_000_000_000_000n, feeType: 'dryRun', sufficient: true, currency: 'HDX', asset: HDX },
      assetHub: AH_HOP_FEE,
      destination: { fee: 5n, feeType: 'dryRun', sufficient: true, currency: 'GLMR', asset: GLMR },
      hops: [{ chain: 'AssetHubPolkadot', result: AH_HOP_FEE }],
    };
    const fake = fakeApp({ getXcmFee: sdkResult });
    const body = { ...bodyOf(family), from: 'Hydration', to: 'Moonbeam', currency: { symbol: 'DOT', amount: '10000000000' }, [field(family).recipient]: EVM_RECIPIENT };
    for (const [value, expected] of [[true, true], ['True', true], [false, false], ['False', false]] as const) {
      const res = await fake.post(`${v}/xcm-fee`, { ...body, disableFallback: value }).expect(200);
      expect(fake.seen.calls.filter((x) => x.method === 'getXcmFee').at(-1)?.args).toEqual([{ disableFallback: expected }]);
      expect(res.body).toEqual({
        success: true,
        origin: { fee: '2000000000000', feeType: 'dryRun', sufficient: true, asset: c(HDX), weight: { refTime: '1', proofSize: '1' } },
        destination: { fee: '5', feeType: 'dryRun', sufficient: true, asset: c(GLMR, { amount: '5' }) },
        hops: [{ chain: 'AssetHubPolkadot', result: { fee: '40000000', feeType: 'dryRun', sufficient: true, asset: c(DOT_AH) } }],
      });
    }
  });

  it('origin-xcm-fee: origin only; disableFallback origin failure is success false with no fee', async () => {
    const res = await fakeApp({ getOriginXcmFee: ORIGIN_FEE_DRY_RUN }).post(`${v}/origin-xcm-fee`, bodyOf(family)).expect(200);
    expect(res.body).toEqual({ success: true, origin: { fee: '30000000', feeType: 'dryRun', sufficient: true, asset: c(DOT_AH), weight: { refTime: '5', proofSize: '6' } } });
    const failed: SdkOriginXcmFee = { dryRunError: 'Filtered', currency: 'DOT', asset: DOT_AH };
    const fake = fakeApp({ getOriginXcmFee: failed });
    const f = await fake.post(`${v}/origin-xcm-fee`, bodyOf(family, { disableFallback: 'True' })).expect(200);
    expect(f.body).toEqual({ success: false, dryRunError: { reason: 'Filtered', chain: 'AssetHubPolkadot', chainKind: 'origin' }, origin: { asset: c(DOT_AH), dryRunError: { reason: 'Filtered' } } });
    expect(call(fake.seen, 'getOriginXcmFee')?.args).toEqual([{ disableFallback: true }]);
  });

  it('transfer-info: amounts as strings, UnableToCompute values as objects, hops []', async () => {
    const unable = new sdk.UnableToComputeError('Fee currency is not the same');
    const sdkResult: TTransferInfo = {
      chain: { origin: 'AssetHubPolkadot', destination: 'Hydration', ecosystem: 'DOT' },
      origin: {
        selectedCurrency: { sufficient: true, balance: 50_000_000_000n, balanceAfter: 40_000_000_000n, currencySymbol: 'DOT', asset: DOT_AH, existentialDeposit: 100_000_000n },
        xcmFee: { sufficient: true, fee: 30_000_000n, balance: 50_000_000_000n, balanceAfter: 39_970_000_000n, currencySymbol: 'DOT', asset: DOT_AH },
      },
      destination: {
        receivedCurrency: { sufficient: unable, receivedAmount: unable, balance: 0n, balanceAfter: unable, currencySymbol: 'DOT', asset: DOT_HYDRATION, existentialDeposit: 17_540_000n },
        xcmFee: { fee: 22_000n, balanceAfter: unable, currencySymbol: 'DOT', asset: DOT_HYDRATION },
      },
    };
    const res = await fakeApp({ getTransferInfo: sdkResult }).post(`${v}/transfer-info`, bodyOf(family)).expect(200);
    const u = { error: 'UnableToComputeError', message: unable.message };
    expect(res.body).toEqual({
      chain: { origin: 'AssetHubPolkadot', destination: 'Hydration', ecosystem: 'DOT' },
      origin: {
        selectedCurrency: { sufficient: true, balance: '50000000000', balanceAfter: '40000000000', asset: c(DOT_AH), existentialDeposit: '100000000' },
        xcmFee: { sufficient: true, fee: '30000000', balance: '50000000000', balanceAfter: '39970000000', asset: c(DOT_AH) },
      },
      destination: {
        receivedCurrency: { sufficient: u, receivedAmount: u, balance: '0', balanceAfter: u, asset: c(DOT_HYDRATION), existentialDeposit: '17540000' },
        xcmFee: { fee: '22000', balanceAfter: u, asset: c(DOT_HYDRATION) },
      },
      hops: [],
    });
  });

  it('receivable-amount: the SDK figure as a decimal string; UnableToCompute is a 400', async () => {
    expect((await fakeApp({ getReceivableAmount: 9_969_978_000n }).post(`${v}/receivable-amount`, bodyOf(family)).expect(200)).body).toBe('9969978000');
    const unable = new sdk.UnableToComputeError('Unable to compute the received amount');
    const res = await fakeApp({ getReceivableAmount: unable }).post(`${v}/receivable-amount`, bodyOf(family)).expect(400);
    expectErrorBody(res.body, 400, 'UnableToComputeError');
  });

  it('eth-bridge-status answers the status string as JSON', async () => {
    const res = await fakeApp({}, {}, 'Halted').get(`${v}/x-transfer/eth-bridge-status`).expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toBe('Halted');
  });
});

// ---- the contract's amount formulas end to end, with worked numbers ---------------------------

const feeResult = (over: Partial<TGetXcmFeeResult<false>> = {}): TGetXcmFeeResult<false> => ({
  origin: { fee: 30_000_000n, feeType: 'dryRun', sufficient: true, currency: 'DOT', asset: DOT_AH },
  destination: { fee: 22_000n, feeType: 'dryRun', sufficient: true, currency: 'DOT', asset: DOT_HYDRATION },
  hops: [],
  ...over,
});

describe.each(FAMILIES)('/%s amount rules (Rules 1, 3, 6) at the SDK boundary', (family) => {
  const v = `/${family}`;
  const base = (extra: Record<string, unknown> = {}) => bodyOf(family, { options: { abstractDecimals: false }, ...extra });

  it('transferable-amount: balance 5 000 000 000 - ED 100 000 000 - origin fee 30 000 000 = 4 870 000 000 (native DOT)', async () => {
    const fake = fakeApp({ getOriginXcmFee: { fee: 30_000_000n, feeType: 'dryRun', sufficient: true, currency: 'DOT', asset: DOT_AH } }, { [`AssetHubPolkadot:${SENDER}`]: 5_000_000_000n });
    expect((await fake.post(`${v}/transferable-amount`, base()).expect(200)).body).toBe('4870000000');
    expect(fake.seen.balances).toEqual([{ chain: 'AssetHubPolkadot', address: SENDER, currency: { symbol: { type: 'Native', value: 'DOT' } } }]);
    // A feeAsset other than DOT: the fee is not paid in DOT, so 5 000 000 000 - 100 000 000 = 4 900 000 000.
    expect((await fake.post(`${v}/transferable-amount`, base({ feeAsset: { id: 1984 } })).expect(200)).body).toBe('4900000000');
    // Floored at 0.
    const poor = fakeApp({ getOriginXcmFee: { fee: 30_000_000n, feeType: 'dryRun', sufficient: true, currency: 'DOT', asset: DOT_AH } }, { [`AssetHubPolkadot:${SENDER}`]: 120_000_000n });
    expect((await poor.post(`${v}/transferable-amount`, base()).expect(200)).body).toBe('0');
  });

  it('transferable-amount of USDt: the DOT fee does not count and the origin is not priced; feeAsset USDt makes it count', async () => {
    const fake = fakeApp({}, { [`AssetHubPolkadot:${SENDER}`]: 2_000_000n });
    expect((await fake.post(`${v}/transferable-amount`, base({ currency: { id: 1984, amount: '1000' } })).expect(200)).body).toBe('1990000');
    expect(call(fake.seen, 'getOriginXcmFee')).toBeUndefined();
    const withFee = fakeApp({ getOriginXcmFee: { fee: 25_000n, feeType: 'dryRun', sufficient: true, currency: 'USDt', asset: USDT_AH } }, { [`AssetHubPolkadot:${SENDER}`]: 2_000_000n });
    expect((await withFee.post(`${v}/transferable-amount`, base({ currency: { id: 1984, amount: '1000' }, feeAsset: { id: 1984 } })).expect(200)).body).toBe('1965000');
  });

  it('min-transferable-amount: dest fee 22 000 + origin fee 30 000 000 + dest ED 17 540 000 + 1 = 47 562 001', async () => {
    const fake = fakeApp({ getXcmFee: feeResult() });
    expect((await fake.post(`${v}/min-transferable-amount`, base()).expect(200)).body).toBe('47562001');
    // The recipient's DOT balance on Hydration is read with the destination asset's location.
    expect(fake.seen.balances).toEqual([{ chain: 'Hydration', address: ADDRESS, currency: { location: { parents: 1, interior: { Here: null } } } }]);
    // A recipient that already holds DOT there: no ED component, 30 022 001.
    const holder = fakeApp({ getXcmFee: feeResult() }, { [`Hydration:${ADDRESS}`]: 1n });
    expect((await holder.post(`${v}/min-transferable-amount`, base()).expect(200)).body).toBe('30022001');
  });

  it('min-transferable-amount through a hop: only fees in DOT count (HDX origin fee and GLMR destination fee do not)', async () => {
    const fees = feeResult({
      origin: { fee: 2_000_000_000_000n, feeType: 'dryRun', sufficient: true, currency: 'HDX', asset: HDX },
      assetHub: AH_HOP_FEE,
      hops: [{ chain: 'AssetHubPolkadot', result: AH_HOP_FEE }],
      destination: { fee: 5_000_000_000_000_000n, feeType: 'paymentInfo', sufficient: true, currency: 'DOT', asset: DOT_AH },
    });
    const body = base({ from: 'Hydration', to: 'Moonbeam', currency: { symbol: 'DOT', amount: '10000000000' }, [field(family).recipient]: EVM_RECIPIENT });
    // hop 40 000 000 + Moonbeam xcDOT ED 1 + 1; the payment-info destination fee is a GLMR amount (relabelled native) and does not count.
    expect((await fakeApp({ getXcmFee: fees }).post(`${v}/min-transferable-amount`, body).expect(200)).body).toBe('40000002');
  });

  it('verify-ed-on-destination: amount - ED 17 540 000 - dest fee 22 000 > 0, or a recipient that holds DOT', async () => {
    const fake = fakeApp({ getXcmFee: feeResult() });
    expect((await fake.post(`${v}/verify-ed-on-destination`, base()).expect(200)).body).toBe(true);
    // 17 560 000 - 17 540 000 - 22 000 = -2 000: not enough.
    expect((await fake.post(`${v}/verify-ed-on-destination`, base({ currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '17560000' } })).expect(200)).body).toBe(false);
    // 17 562 001 - 17 540 000 - 22 000 = 1 > 0.
    expect((await fake.post(`${v}/verify-ed-on-destination`, base({ currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '17562001' } })).expect(200)).body).toBe(true);
    const holder = fakeApp({ getXcmFee: feeResult() }, { [`Hydration:${ADDRESS}`]: 5n });
    expect((await holder.post(`${v}/verify-ed-on-destination`, base({ currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '2' } })).expect(200)).body).toBe(true);
  });

  it('verify-ed-on-destination: abstract decimals are turned into base units (0.0017562001 DOT = 17 562 001)', async () => {
    const fake = fakeApp({ getXcmFee: feeResult() });
    const body = bodyOf(family, { currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '0.0017560000' }, options: { abstractDecimals: true } });
    expect((await fake.post(`${v}/verify-ed-on-destination`, body).expect(200)).body).toBe(false);
    body.currency = { symbol: { type: 'Native', value: 'DOT' }, amount: '0.0017562001' };
    expect((await fake.post(`${v}/verify-ed-on-destination`, body).expect(200)).body).toBe(true);
  });

  it('verify-ed-on-destination: a payment-info destination fee for a non-native currency is a 400 UnableToComputeError', async () => {
    const fees = feeResult({ destination: { fee: 4_000_000_000n, feeType: 'paymentInfo', sufficient: true, currency: 'DOT', asset: DOT_HYDRATION } });
    const res = await fakeApp({ getXcmFee: fees }).post(`${v}/verify-ed-on-destination`, base()).expect(400);
    expectErrorBody(res.body, 400, 'UnableToComputeError');
    expect(res.body.message).toMatch(/payment info/);
  });
});
