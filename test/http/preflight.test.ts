import { createRequire } from 'node:module';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sdk, utilCrypto } from '../../src/sdk';
import { FAMILIES, accountFields, expectErrorBody, testApp } from '../helpers/app';
import { DOT_AH, DOT_HYDRATION, DOT_POLKADOT, HDX } from '../fixtures/sdk-results';
import { answerDryRunCall, answerDryRunXcm, answerQueryInfo, answerXcmPayment, callFailure, callSuccess, parachain, RELAY, reserveMessage, teleportMessage, xcmComplete, xcmIncomplete } from '../support/runtime-answers';
import { seedAsset, seedForeignAsset, seedNative, seedTokens } from '../support/seed';
import { startBlackHole, startTestChain, type TestChain } from '../support/test-chain';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const NO_DRY_RUN = 'Interlay'; // sdk.hasDryRunSupport('Interlay') === false in 11.14.8

const { app } = testApp();
const post = (path: string, body: unknown) => request(app).post(path).send(body as object);

const bodyOf = (family: string, extra: Record<string, unknown> = {}) => ({
  from: 'AssetHubPolkadot',
  to: 'Hydration',
  currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' },
  [accountFields(family).recipient]: ADDRESS,
  [accountFields(family).sender]: SENDER,
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
// USDT by its HydrationDex id: {symbol: 'USDT'} is three assets there (test/http/ambiguous-currency.test.ts).
const SWAP = { currencyTo: { id: '10' }, exchange: 'HydrationDex', slippage: 1 };
/** best-amount-out needs swapOptions to get past validation of the other fields. */
const needs = (endpoint: string) => (endpoint === 'best-amount-out' ? { swapOptions: SWAP } : {});

// ---- validation (no chain is reached: every case fails before) ---------------------------------

describe.each(FAMILIES)('/%s pre-flight validation', (family) => {
  const v = `/${family}`;
  const f = accountFields(family);

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
      expectErrorBody(text.body, 400, 'NumberFormatError');
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
      // The router takes no Native/Foreign specifiers, and {symbol: 'DOT'} is two assets of the asset hub: DOT by location.
      const swapBody = () => ({ ...valid(), currency: { location: { parents: 1, interior: { Here: null } }, amount: '10000000000' } });
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

  it('chains without dry-run support: RuntimeApiUnavailableError naming the chain, and this family\'s lookup for it', async () => {
    const from = { ...bodyOf(family), from: NO_DRY_RUN, currency: { symbol: 'DOT', amount: '10000000000' } };
    for (const endpoint of ['min-transferable-amount', 'dry-run', 'dry-run-preview']) {
      const res = await post(`${v}/${endpoint}`, from).expect(400);
      expectErrorBody(res.body, 400, 'RuntimeApiUnavailableError');
      expect(res.body.message).toContain(`(GET ${v}/chains/${NO_DRY_RUN}/has-dry-run-support)`);
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
      const wrongName = await post(`${v}/balance/Hydration`, { [family === 'v5' ? 'recipient' : 'account']: ADDRESS, currency: { symbol: 'DOT' } }).expect(400);
      // /v2's account may have either name, so the missing one is named after the unknown field.
      expectErrorBody(wrongName.body, 400, family === 'v5' ? 'MissingParameterError' : 'ValidationError');
      expect(wrongName.body.message).toContain(`body.${account} is required`);
      // /v2 also takes `address` and no currency, as the ParaSpell XCM API does (paraspell-compat.test.ts).
      if (family === 'v5') {
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
});

describe('unreachable chain', () => {
  const slow = testApp({ CONNECT_TIMEOUT_MS: '1000' });
  afterAll(() => slow.services.close());

  it.each(['/v5/balance/AssetHubPolkadot', '/v5/dry-run', '/v2/origin-xcm-fee'])('%s answers 503 ProviderUnavailableError and abandons the connection attempt', async (path) => {
    const hole = await startBlackHole();
    try {
      const options = { development: true, apiOverrides: { AssetHubPolkadot: hole.url, Hydration: hole.url } };
      const family = path.startsWith('/v5') ? 'v5' : 'v2';
      const body = path.includes('balance') ? { address: ADDRESS, options } : bodyOf(family, { options });
      const res = await request(slow.app).post(path).send(body).expect(503);
      expectErrorBody(res.body, 503, 'ProviderUnavailableError');
      expect(res.body.message).toContain(hole.url);
      expect(res.headers['retry-after']).toBe('5');
      expect(hole.connectionsOpened).toBeGreaterThan(0);
      // The work was given up: no socket to the dead endpoint stays open.
      await until(() => hole.openConnections === 0, 'the abandoned socket to close');
    } finally {
      await hole.close();
    }
  });
});

async function until(cond: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// ---- the Ethereum bridge status ------------------------------------------------------------
// Read by the real SDK from BridgeHubPolkadot's EthereumOutboundQueue on a test chain with its real
// metadata. The route takes no options, so it dials the registry's endpoints for BridgeHubPolkadot:
// that one registry lookup is pointed at the test chain, nothing else is replaced. sdk-pjs
// re-exports sdk-core's functions through getters, so the lookup is replaced in the sdk-core copy
// the SDK itself loads.
const sdkCore: { getChainProviders: typeof sdk.getChainProviders } = createRequire(createRequire(__filename).resolve('@paraspell/sdk-pjs'))('@paraspell/sdk-core');

describe('x-transfer/eth-bridge-status', () => {
  let bridgeHub: TestChain;
  let local: ReturnType<typeof testApp>;
  beforeAll(async () => {
    bridgeHub = await startTestChain('BridgeHubPolkadot');
    local = testApp();
  });
  afterAll(async () => {
    await local.services.close();
    await bridgeHub.close();
  });
  beforeEach(() => {
    const registry = sdkCore.getChainProviders;
    const providers = vi.spyOn(sdkCore, 'getChainProviders').mockImplementation((chain) => (chain === 'BridgeHubPolkadot' ? [bridgeHub.url] : registry(chain)));
    return () => providers.mockRestore();
  });
  const setMode = (mode: 'Normal' | 'Halted') => {
    const query = `${utilCrypto.xxhashAsHex('EthereumOutboundQueue', 128)}${utilCrypto.xxhashAsHex('OperatingMode', 128).slice(2)}`;
    bridgeHub.setStorage(query, bridgeHub.registry.createType('SnowbridgeCoreOperatingModeBasicOperatingMode', mode).toHex());
  };

  it.each(FAMILIES)('/%s answers the outbound queue\'s operating mode as a JSON string', async (family) => {
    for (const mode of ['Halted', 'Normal'] as const) {
      setMode(mode);
      const res = await request(local.app).get(`/${family}/x-transfer/eth-bridge-status`).expect(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toBe(mode);
    }
    expect(bridgeHub.connectionsOpened).toBe(1);
  });
});

// ---- the local test chains: real SDK, real pool, storage and runtime answers set per test -------
//
// AssetHubPolkadot -> Polkadot, a DOT teleport. The SDK runs end to end: it builds the transfer,
// dry-runs it on Asset Hub (DryRunApi_dry_run_call), follows the forwarded XCM to the relay
// (DryRunApi_dry_run_xcm), prices it (TransactionPaymentApi_query_info, the FeesPaid event,
// XcmPaymentApi) and reads balances (System.Account); the chains answer what each test configures.

const ONE_DOT = 10_000_000_000n;
/** The amount as each family writes 1 DOT: /v2 takes whole units (abstractDecimals on by default). */
const oneDot = (family: string) => (family === 'v5' ? ONE_DOT.toString() : '1');
const twoDot = (family: string) => (family === 'v5' ? (2n * ONE_DOT).toString() : '2');

const PARTIAL_FEE = 15_000_000n; // query_info on Asset Hub
const DELIVERY_FEE = 3_000_000n; // pallet-xcm's FeesPaid on Asset Hub
const ORIGIN_FEE = PARTIAL_FEE + DELIVERY_FEE; // what the SDK adds up for the origin: 18 000 000
const DEST_FEE = 1_000_000n; // XcmPaymentApi on the relay
const SENDER_BALANCE = 50_000_000_000n; // 5 DOT on Asset Hub
const RECIPIENT_BALANCE = 20_000_000_000n; // 2 DOT on the relay
const AH_ED = BigInt(DOT_AH.existentialDeposit ?? '0'); // 100 000 000
const RELAY_ED = BigInt(DOT_POLKADOT.existentialDeposit ?? '0'); // 10 000 000 000

describe.each(FAMILIES)('/%s pre-flight through the real SDK (AssetHubPolkadot -> Polkadot, DOT)', (family) => {
  const v = `/${family}`;
  let ah: TestChain;
  let relay: TestChain;
  let local: ReturnType<typeof testApp>;
  /** The calls the SDK asked Asset Hub to dry-run (decoded). */
  let dryRunCalls: unknown[];

  beforeAll(async () => {
    [ah, relay] = await Promise.all([startTestChain('AssetHubPolkadot'), startTestChain('Polkadot')]);
    local = testApp();
  });
  afterAll(async () => {
    await local.services.close();
    await Promise.all([ah.close(), relay.close()]);
  });

  /** A transfer that works: the origin dry run forwards a teleport the relay executes. */
  beforeEach(() => {
    dryRunCalls = [];
    seedNative(ah, SENDER, SENDER_BALANCE);
    seedNative(relay, ADDRESS, RECIPIENT_BALANCE);
    answerQueryInfo(ah, PARTIAL_FEE);
    answerDryRunCall(ah, (r) => callSuccess(r, { sender: SENDER, amount: ONE_DOT, deliveryFee: DELIVERY_FEE, forwarded: { destination: RELAY, message: teleportMessage(r, ONE_DOT, ADDRESS) }, actualWeight: { refTime: 1_234_567n, proofSize: 8_910n } }), dryRunCalls);
    answerDryRunXcm(relay, (r) => xcmComplete(r, { beneficiary: ADDRESS, received: ONE_DOT - DEST_FEE }));
    answerXcmPayment(relay, { fee: DEST_FEE });
  });

  const body = (extra: Record<string, unknown> = {}, amount = oneDot(family)) =>
    bodyOf(family, {
      to: 'Polkadot',
      currency: { symbol: { type: 'Native', value: 'DOT' }, amount },
      options: { development: true, apiOverrides: { AssetHubPolkadot: ah.url, Polkadot: relay.url } },
      ...extra,
    });
  const p = (endpoint: string, b: unknown) => request(local.app).post(`${v}/${endpoint}`).send(b as object);
  const originFailsWith = (xcmError: string) => answerDryRunCall(ah, (r) => callFailure(r, { xcmError, instruction: 1 }));

  it('dry-run: the SDK assembles origin and destination; the call it dry-runs moves 1 DOT (abstractDecimals reached it)', async () => {
    const res = await p('dry-run', body()).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      origin: { success: true, fee: ORIGIN_FEE.toString(), asset: DOT_AH, weight: { refTime: '1234567', proofSize: '8910' }, destParaId: 0 },
      destination: { success: true, fee: DEST_FEE.toString(), asset: DOT_POLKADOT, forwardedXcms: [] },
      hops: [],
    });
    // forwardedXcms as the SDK reads them from the chain: [destination, messages].
    expect(res.body.origin.forwardedXcms[0]).toEqual({ v5: { parents: 1, interior: { here: null } } });
    expect(dryRunCalls).toHaveLength(1);
    // The extrinsic the SDK built and dry-ran carries 10 000 000 000 planck, in /v2 from "1".
    expect(JSON.stringify(dryRunCalls[0])).toContain('"fungible":10000000000');
  });

  it('dry-run: an origin failure carries the pallet error and the XCM error from the module error bytes', async () => {
    originFailsWith('FailedToTransactAsset');
    const res = await p('dry-run', body()).expect(200);
    const error = { reason: 'LocalExecutionIncompleteWithError', subReason: 'FailedToTransactAsset' };
    expect(res.body).toEqual({
      success: false,
      dryRunError: { ...error, chain: 'AssetHubPolkadot', chainKind: 'origin' },
      origin: { success: false, dryRunError: error, asset: DOT_AH },
      hops: [],
    });
  });

  it('dry-run: a destination failure names the destination; the origin keeps its fee', async () => {
    answerDryRunXcm(relay, () => xcmIncomplete({ error: 'UntrustedTeleportLocation', index: 0 }));
    const res = await p('dry-run', body()).expect(200);
    expect(res.body).toMatchObject({
      success: false,
      dryRunError: { reason: 'UntrustedTeleportLocation', chain: 'Polkadot', chainKind: 'destination' },
      origin: { success: true, fee: ORIGIN_FEE.toString() },
      destination: { success: false, dryRunError: { reason: 'UntrustedTeleportLocation' }, asset: DOT_POLKADOT },
      hops: [],
    });
  });

  it('xcm-fee: dry-run fees on both sides; origin-xcm-fee only the origin', async () => {
    const fee = await p('xcm-fee', body()).expect(200);
    expect(fee.body).toEqual({
      success: true,
      origin: { fee: ORIGIN_FEE.toString(), feeType: 'dryRun', sufficient: true, asset: DOT_AH, weight: { refTime: '1234567', proofSize: '8910' } },
      // The SDK labels the destination's fee asset with the amount it costs.
      destination: { fee: DEST_FEE.toString(), feeType: 'dryRun', sufficient: true, asset: { ...DOT_POLKADOT, amount: DEST_FEE.toString() } },
      hops: [],
    });
    const origin = await p('origin-xcm-fee', body()).expect(200);
    expect(origin.body).toEqual({ success: true, origin: fee.body.origin });
  });

  it('xcm-fee: a failed origin dry run falls back to payment info (success false); disableFallback in every accepted form reaches the SDK', async () => {
    originFailsWith('FailedToTransactAsset');
    const error = { reason: 'LocalExecutionIncompleteWithError', subReason: 'FailedToTransactAsset' };
    const fallback = await p('xcm-fee', body()).expect(200);
    // query_info's 15 000 000, padded x40 by the SDK (a system chain sending to a non-system chain).
    expect(fallback.body).toMatchObject({
      success: false,
      dryRunError: { ...error, chain: 'AssetHubPolkadot', chainKind: 'origin' },
      origin: { fee: (PARTIAL_FEE * 40n).toString(), feeType: 'paymentInfo', asset: DOT_AH, dryRunError: error },
      destination: { feeType: 'paymentInfo' },
    });
    for (const value of [true, 'True']) {
      const res = await p('xcm-fee', body({ disableFallback: value })).expect(200);
      expect(res.body.origin, String(value)).toEqual({ asset: DOT_AH, dryRunError: error });
      expect(res.body).toMatchObject({ success: false, dryRunError: { ...error, chainKind: 'origin' } });
    }
    for (const value of [false, 'False']) {
      expect((await p('xcm-fee', body({ disableFallback: value })).expect(200)).body.origin.feeType, String(value)).toBe('paymentInfo');
    }
    const origin = await p('origin-xcm-fee', body({ disableFallback: true })).expect(200);
    expect(origin.body).toEqual({ success: false, dryRunError: { ...error, chain: 'AssetHubPolkadot', chainKind: 'origin' }, origin: { asset: DOT_AH, dryRunError: error } });
  });

  it('transfer-info: the balances it reads and the fees it computes, as decimal strings', async () => {
    const res = await p('transfer-info', body()).expect(200);
    expect(res.body).toEqual({
      chain: { origin: 'AssetHubPolkadot', destination: 'Polkadot', ecosystem: 'DOT' },
      origin: {
        selectedCurrency: { sufficient: true, balance: '50000000000', balanceAfter: '40000000000', asset: DOT_AH, existentialDeposit: AH_ED.toString() },
        xcmFee: { sufficient: true, fee: ORIGIN_FEE.toString(), balance: '50000000000', balanceAfter: (SENDER_BALANCE - ORIGIN_FEE).toString(), asset: DOT_AH },
      },
      destination: {
        receivedCurrency: { sufficient: true, receivedAmount: '9999000000', balance: '20000000000', balanceAfter: '29999000000', asset: DOT_POLKADOT, existentialDeposit: RELAY_ED.toString() },
        xcmFee: { fee: DEST_FEE.toString(), balance: '20000000000', balanceAfter: '29999000000', asset: DOT_POLKADOT },
      },
      hops: [],
    });
  });

  it('receivable-amount: 1 DOT - the destination fee = 9 999 000 000', async () => {
    expect((await p('receivable-amount', body()).expect(200)).body).toBe('9999000000');
  });

  it('transferable-amount (Rule 1): balance 50 000 000 000 - ED 100 000 000 - origin fee 18 000 000 = 49 882 000 000', async () => {
    expect((await p('transferable-amount', body()).expect(200)).body).toBe((SENDER_BALANCE - AH_ED - ORIGIN_FEE).toString());
    expect(SENDER_BALANCE - AH_ED - ORIGIN_FEE).toBe(49_882_000_000n);
    // Floored at 0: a sender holding less than ED + fee.
    seedNative(ah, SENDER, AH_ED + 1n);
    expect((await p('transferable-amount', body()).expect(200)).body).toBe('0');
  });

  it('min-transferable-amount (Rule 3): dest fee + origin fee + 1, plus the ED when the recipient holds no DOT', async () => {
    // The recipient holds 2 DOT on the relay: 1 000 000 + 18 000 000 + 1.
    expect((await p('min-transferable-amount', body()).expect(200)).body).toBe('19000001');
    seedNative(relay, ADDRESS, 0n);
    // ... and none: + the relay's ED 10 000 000 000.
    expect((await p('min-transferable-amount', body()).expect(200)).body).toBe((DEST_FEE + ORIGIN_FEE + RELAY_ED + 1n).toString());
  });

  it('verify-ed-on-destination (Rule 6): a recipient that holds DOT, or amount - ED - dest fee > 0', async () => {
    expect((await p('verify-ed-on-destination', body()).expect(200)).body).toBe(true);
    seedNative(relay, ADDRESS, 0n);
    // 1 DOT - ED 1 DOT - 1 000 000 < 0; 2 DOT - 1 DOT - 1 000 000 > 0.
    expect((await p('verify-ed-on-destination', body()).expect(200)).body).toBe(false);
    expect((await p('verify-ed-on-destination', body({}, twoDot(family))).expect(200)).body).toBe(true);
  });

  it('balance: the seeded balance through the real SDK (System.Account, Assets.Account, ForeignAssets.Account)', async () => {
    seedAsset(ah, 1984, ADDRESS, 2_500_000n);
    const account = family === 'v5' ? 'address' : 'recipient';
    const options = { development: true, apiOverrides: { AssetHubPolkadot: ah.url } };
    const usdt = await request(local.app).post(`${v}/balance/AssetHubPolkadot`).send({ [account]: ADDRESS, currency: { id: 1984 }, options }).expect(200);
    expect(usdt.body).toBe('2500000');
    const dot = await request(local.app).post(`${v}/balance/AssetHubPolkadot`).send({ [account]: SENDER, currency: { symbol: { type: 'Native', value: 'DOT' } }, options }).expect(200);
    expect(dot.body).toBe(SENDER_BALANCE.toString());
    // A bridged asset: ForeignAssets.Account, keyed by its location.
    const weth = { parents: 2, interior: { X2: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }, { AccountKey20: { network: null, key: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' } }] } };
    seedForeignAsset(ah, weth, ADDRESS, 3n * 10n ** 18n);
    const foreign = await request(local.app).post(`${v}/balance/AssetHubPolkadot`).send({ [account]: ADDRESS, currency: { location: weth }, options }).expect(200);
    expect(foreign.body).toBe('3000000000000000000');
  });
});

describe('transfers: options.xcmFormatCheck reaches the SDK', () => {
  it('a transfer whose dry run fails is refused with DryRunFailedError only when the check is on', async () => {
    const [ah, relay] = await Promise.all([startTestChain('AssetHubPolkadot'), startTestChain('Polkadot')]);
    const local = testApp();
    try {
      seedNative(ah, SENDER, SENDER_BALANCE);
      answerDryRunCall(ah, (r) => callFailure(r, { xcmError: 'FailedToTransactAsset', instruction: 1 }));
      const transfer = (xcmFormatCheck: boolean) =>
        request(local.app)
          .post('/v5/x-transfer')
          .send({ ...bodyOf('v5', { to: 'Polkadot', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: ONE_DOT.toString() } }), options: { xcmFormatCheck, development: true, apiOverrides: { AssetHubPolkadot: ah.url, Polkadot: relay.url } } });
      const checked = await transfer(true).expect(400);
      expectErrorBody(checked.body, 400, 'DryRunFailedError');
      expect(checked.body.message).toContain('LocalExecutionIncompleteWithError');
      expect((await transfer(false).expect(200)).body).toMatch(/^0x[0-9a-f]+$/);
    } finally {
      await local.services.close();
      await Promise.all([ah.close(), relay.close()]);
    }
  });
});

// ---- several hops: Polkadot -> Hydration, DOT through Asset Hub (its reserve) -------------------

describe.each(FAMILIES)('/%s pre-flight through the real SDK over a hop (Polkadot -> AssetHubPolkadot -> Hydration, DOT)', (family) => {
  let relay: TestChain;
  let ah: TestChain;
  let hydration: TestChain;
  let local: ReturnType<typeof testApp>;
  const HOP_FEE = 2_000_000n;
  const HOP_DELIVERY = 500_000n;
  /** What the hop charges: executing the XCM on Asset Hub plus delivering it on to Hydration. */
  const HOP_TOTAL = HOP_FEE + HOP_DELIVERY;
  const HYDRATION_FEE = 700_000n;

  beforeAll(async () => {
    [relay, ah, hydration] = await Promise.all([startTestChain('Polkadot'), startTestChain('AssetHubPolkadot'), startTestChain('Hydration')]);
    local = testApp();
  });
  afterAll(async () => {
    await local.services.close();
    await Promise.all([relay.close(), ah.close(), hydration.close()]);
  });

  beforeEach(() => {
    seedNative(relay, SENDER, SENDER_BALANCE);
    seedTokens(hydration, ADDRESS, 5, 3n * ONE_DOT); // DOT is asset 5 on Hydration
    answerQueryInfo(relay, PARTIAL_FEE);
    answerDryRunCall(relay, (r) =>
      callSuccess(r, { sender: SENDER, amount: ONE_DOT, deliveryFee: DELIVERY_FEE, xcmPallet: 'XcmPallet', forwarded: { destination: parachain(1000), message: teleportMessage(r, ONE_DOT, ADDRESS) } }),
    );
    answerDryRunXcm(ah, (r) => xcmComplete(r, { beneficiary: ADDRESS, received: ONE_DOT - HOP_TOTAL, forwarded: { destination: parachain(2034), message: reserveMessage(r, ONE_DOT - HOP_TOTAL, ADDRESS) } }));
    answerXcmPayment(ah, { fee: HOP_FEE, deliveryFee: HOP_DELIVERY });
    answerDryRunXcm(hydration, (r) => xcmComplete(r, { beneficiary: ADDRESS, received: ONE_DOT - HOP_TOTAL - HYDRATION_FEE }));
    answerXcmPayment(hydration, { fee: HYDRATION_FEE });
  });

  const body = (extra: Record<string, unknown> = {}) =>
    bodyOf(family, {
      from: 'Polkadot',
      to: 'Hydration',
      currency: { symbol: 'DOT', amount: oneDot(family) },
      options: { development: true, apiOverrides: { Polkadot: relay.url, AssetHubPolkadot: ah.url, Hydration: hydration.url } },
      ...extra,
    });

  const p = (endpoint: string, b: unknown = body()) => request(local.app).post(`/${family}/${endpoint}`).send(b as object);

  it('dry-run and xcm-fee: the SDK follows the XCM through the hop; the hop is in hops[] with its own fee', async () => {
    const dry = await p('dry-run').expect(200);
    expect(dry.body).toMatchObject({
      success: true,
      origin: { success: true, fee: ORIGIN_FEE.toString(), asset: DOT_POLKADOT, destParaId: 1000 },
      hops: [{ chain: 'AssetHubPolkadot', result: { success: true, fee: HOP_TOTAL.toString(), asset: DOT_AH, destParaId: 2034 } }],
      destination: { success: true, fee: HYDRATION_FEE.toString(), asset: DOT_HYDRATION },
    });
    expect(dry.body).not.toHaveProperty('assetHub');
    // The hop's fee is XcmPaymentApi's execution fee plus its delivery fee, answered as XCM v5
    // (sdk-pjs 11.14.8 reads only v4/v3 answers: priceFeesWithXcmPaymentApi gives it the v5 one).
    const fee = await p('xcm-fee').expect(200);
    expect(fee.body).toEqual({
      success: true,
      origin: { fee: ORIGIN_FEE.toString(), feeType: 'dryRun', sufficient: true, asset: DOT_POLKADOT },
      hops: [{ chain: 'AssetHubPolkadot', result: { fee: HOP_TOTAL.toString(), feeType: 'dryRun', sufficient: true, asset: DOT_AH } }],
      destination: { fee: HYDRATION_FEE.toString(), feeType: 'dryRun', sufficient: true, asset: { ...DOT_HYDRATION, amount: HYDRATION_FEE.toString() } },
    });
  });

  it('the amount rules count the hop: transferable, min-transferable, receivable, transfer-info', async () => {
    // Rule 1: 50 000 000 000 - the relay's ED 10 000 000 000 - 18 000 000.
    expect((await p('transferable-amount').expect(200)).body).toBe('39982000000');
    // Rule 3: hop 2 500 000 (2 000 000 + delivery 500 000) + destination 700 000 + origin 18 000 000 + 1 (the recipient holds DOT on Hydration: Tokens.Accounts).
    expect((await p('min-transferable-amount').expect(200)).body).toBe('21200001');
    expect(HOP_TOTAL + HYDRATION_FEE + ORIGIN_FEE + 1n).toBe(21_200_001n);
    seedTokens(hydration, ADDRESS, 5, 0n);
    expect((await p('min-transferable-amount').expect(200)).body).toBe((HOP_TOTAL + HYDRATION_FEE + ORIGIN_FEE + BigInt(DOT_HYDRATION.existentialDeposit ?? '0') + 1n).toString());
    expect((await p('receivable-amount').expect(200)).body).toBe((ONE_DOT - HOP_TOTAL - HYDRATION_FEE).toString());
    const info = await p('transfer-info').expect(200);
    expect(info.body.hops).toEqual([{ chain: 'AssetHubPolkadot', result: { xcmFee: { fee: HOP_TOTAL.toString(), asset: DOT_AH }, asset: DOT_AH, existentialDeposit: DOT_AH.existentialDeposit } }]);
    expect(info.body.destination.receivedCurrency).toMatchObject({ receivedAmount: '9996800000', balance: '0', balanceAfter: '9996800000' });
  });

  it.each(['V5', 'V4'] as const)('the hop\'s delivery fee answered in XCM %s counts once: dry-run, xcm-fee, transfer-info and Rule 3', async (deliveryVersion) => {
    answerXcmPayment(ah, { fee: HOP_FEE, deliveryFee: HOP_DELIVERY, deliveryVersion });
    const hopFee = (await p('xcm-fee').expect(200)).body.hops[0].result.fee;
    expect(hopFee).toBe('2500000');
    expect((await p('dry-run').expect(200)).body.hops[0].result.fee).toBe(hopFee);
    expect((await p('transfer-info').expect(200)).body.hops[0].result.xcmFee.fee).toBe(hopFee);
    expect((await p('min-transferable-amount').expect(200)).body).toBe((HOP_TOTAL + HYDRATION_FEE + ORIGIN_FEE + 1n).toString());
  });

  it('a destination whose XcmPaymentApi refuses the asset: each query is a 400 UnableToComputeError naming it and the asset', async () => {
    hydration.setRuntimeCall('XcmPaymentApi_query_weight_to_asset_fee', () => ({ Err: 'AssetNotFound' }));
    for (const endpoint of ['dry-run', 'xcm-fee', 'transfer-info', 'receivable-amount', 'min-transferable-amount', 'verify-ed-on-destination']) {
      const res = await p(endpoint).expect(400);
      expectErrorBody(res.body, 400, 'UnableToComputeError');
      expect(res.body.message, endpoint).toBe('The XCM fee on Hydration cannot be computed: its XcmPaymentApi does not price fees in DOT');
    }
  });

  it('a destination that refuses the XCM: dry-run names it; xcm-fee falls back to payment info in HDX; verify-ed cannot compute', async () => {
    answerDryRunXcm(hydration, () => xcmIncomplete({ error: 'UntrustedReserveLocation', index: 0 }));
    answerQueryInfo(hydration, 5_000_000n);
    const dry = await p('dry-run').expect(200);
    expect(dry.body).toMatchObject({
      success: false,
      dryRunError: { reason: 'UntrustedReserveLocation', chain: 'Hydration', chainKind: 'destination' },
      hops: [{ chain: 'AssetHubPolkadot', result: { success: true } }],
      destination: { success: false, dryRunError: { reason: 'UntrustedReserveLocation' }, asset: DOT_HYDRATION },
    });
    const fee = await p('xcm-fee').expect(200);
    // query_info's 5 000 000 padded x30 by the SDK, labelled with Hydration's native HDX.
    expect(fee.body).toMatchObject({
      success: false,
      dryRunError: { reason: 'UntrustedReserveLocation', chain: 'Hydration', chainKind: 'destination' },
      destination: { fee: '150000000', feeType: 'paymentInfo', sufficient: false, asset: { ...HDX, amount: '150000000' }, dryRunError: { reason: 'UntrustedReserveLocation' } },
    });
    const verify = await p('verify-ed-on-destination').expect(400);
    expectErrorBody(verify.body, 400, 'UnableToComputeError');
    expect(verify.body.message).toMatch(/^Cannot verify the existential deposit on Hydration: .*payment info/);
  }, 90_000); // the SDK's fee fallback retries DryRunApi_dry_run_call on Hydration (unanswered here) for several seconds
});
