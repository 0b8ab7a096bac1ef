// Pre-flight queries with swapOptions (/dry-run, /xcm-fee, /transferable-amount,
// /min-transferable-amount, /best-amount-out) are served by the router engine. Nothing offline can
// run a swap, so the engine is replaced at its seam with results typed with xcm-router 11.14.8's
// own types, shaped as its source builds them (test/support/router-results.ts, as router.test.ts).
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { sdk } from '../../src/sdk';
import { RouterService } from '../../src/service/router';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { fakeRouterEngine } from '../support/fake-router-engine';
import { ROUTER_DRY_RUN, ROUTER_FEES } from '../support/router-results';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const EVM = '0x1501C1413e4178c38567Ada8945A80351F7B8496';

const { app, services, config } = testApp({ REQUEST_TIMEOUT_MS: '300' });
afterAll(() => services.close());

const { engine: fake, calls, results, last } = fakeRouterEngine();
services.router = new RouterService(config, fake, services.pool, services.routeCheck);

results.dryRun = async () => ROUTER_DRY_RUN;
results.getXcmFees = async () => ROUTER_FEES;
results.getTransferableAmount = async () => 123_456_789_012_345_678_901n;
results.getMinTransferableAmount = async () => 1_000_001n;
results.getBestAmountOut = async () => ({ exchange: 'HydrationDex', amountOut: 99_999_999_999_999_999n });

describe.each(FAMILIES)('/%s pre-flight with swapOptions, through the router', (family) => {
  const [recipient, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
  const body = (swapOptions: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    from: 'Polkadot',
    to: 'Astar',
    currency: { symbol: 'DOT', amount: '10000000000' },
    [recipient]: ALICE,
    [sender]: BOB,
    swapOptions,
    options: { abstractDecimals: false },
    ...extra,
  });
  const post = (path: string, b: unknown) => request(app).post(`/${family}${path}`).send(b as object);
  const SWAP = { currencyTo: { symbol: 'ASTR' }, exchange: 'HydrationDex' };

  it('/dry-run: origin, the exchange hop marked isExchange, destination; amounts as strings', async () => {
    const res = await post('/dry-run', body(SWAP)).expect(200);
    expect(calls[calls.length - 1].op).toBe('dryRun');
    expect(res.body).toMatchObject({
      success: true,
      origin: { success: true, fee: '15000000', weight: { refTime: '1000', proofSize: '2000' }, asset: { symbol: 'DOT' } },
      hops: [{ chain: 'Hydration', isExchange: true, result: { success: true, fee: '2000000000000', asset: { symbol: 'DOT' } } }],
      destination: { success: true, fee: '3000000', asset: { symbol: 'ASTR' } },
    });
  });

  it('maps the body onto the router request: recipient, sender, amount, slippage (default 1), options', async () => {
    await post('/dry-run', body(SWAP)).expect(200);
    expect(last().request).toEqual({
      from: 'Polkadot',
      to: 'Astar',
      exchange: ['HydrationDex'],
      currencyFrom: { symbol: 'DOT' },
      currencyTo: { symbol: 'ASTR' },
      amount: '10000000000',
      slippagePct: '1',
      recipientAddress: ALICE,
      senderAddress: BOB,
      evmSenderAddress: undefined,
      options: { development: false, abstractDecimals: false, apiOverrides: {} },
    });
    await post('/dry-run', body({ ...SWAP, slippage: 2.5, evmSenderAddress: EVM })).expect(200);
    expect(last().request).toMatchObject({ slippagePct: '2.5', evmSenderAddress: EVM });
  });

  it('exchange: absent = automatic, an array = whitelist, one (string or one-element array) = manual', async () => {
    await post('/transferable-amount', body({ currencyTo: { symbol: 'ASTR' } })).expect(200);
    expect(last().request.exchange).toBeUndefined();
    await post('/transferable-amount', body({ ...SWAP, exchange: ['HydrationDex', 'AcalaDex'] })).expect(200);
    expect(last().request.exchange).toEqual(['HydrationDex', 'AcalaDex']);
    await post('/transferable-amount', body({ ...SWAP, exchange: ['HydrationDex'] })).expect(200);
    expect(last().request.exchange).toEqual(['HydrationDex']);
  });

  it('/xcm-fee: the contract fee shape with the exchange hop marked', async () => {
    const res = await post('/xcm-fee', body(SWAP)).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      origin: { fee: '16000000', feeType: 'dryRun', sufficient: true, asset: { symbol: 'DOT' } },
      hops: [{ chain: 'Hydration', isExchange: true, result: { fee: '9000000000', feeType: 'paymentInfo', asset: { symbol: 'HDX' } } }],
      destination: { fee: '5000000000000000', feeType: 'paymentInfo', asset: { symbol: 'ASTR' } },
    });
  });

  it('/transferable-amount, /min-transferable-amount and /best-amount-out answer decimal strings', async () => {
    expect((await post('/transferable-amount', body(SWAP)).expect(200)).body).toBe('123456789012345678901');
    expect((await post('/min-transferable-amount', body(SWAP)).expect(200)).body).toBe('1000001');
    expect(calls[calls.length - 1].op).toBe('getMinTransferableAmount');
    expect((await post('/best-amount-out', body(SWAP)).expect(200)).body).toEqual({ exchange: 'HydrationDex', amountOut: '99999999999999999' });
  });

  it('refuses what the router has no place for, before the router is asked', async () => {
    const before = calls.length;
    const cases: [Record<string, unknown>, string, string][] = [
      [body(SWAP, { feeAsset: { symbol: 'DOT' } }), 'UnsupportedOperationError', 'body.feeAsset'],
      [body(SWAP, { currency: { symbol: { type: 'ForeignAbstract', value: 'NOPE' }, amount: '10000000000' } }), 'InvalidCurrencyError', 'body.currency.symbol'],
      [body({ currencyTo: { id: '5' } }), 'InvalidCurrencyError', 'body.swapOptions.currencyTo.id'],
      [body(SWAP, { currency: { symbol: 'DOT', amount: 'ALL' } }), 'NumberFormatError', 'body.currency.amount'],
      [body({ ...SWAP, exchange: 'NopeDex' }), 'UnknownExchangeError', 'body.swapOptions.exchange'],
    ];
    for (const [b, kind, path] of cases) {
      const res = await post('/dry-run', b).expect(400);
      expectErrorBody(res.body, 400, kind);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const fallback = await post('/xcm-fee', body(SWAP, { disableFallback: true })).expect(400);
    expectErrorBody(fallback.body, 400, 'UnsupportedOperationError');
    expect(calls.length).toBe(before);
  });

  it('same deadline and errors as the router: no answer is a 504, a router error a 400', async () => {
    results.getTransferableAmount = () => new Promise(() => undefined);
    const slow = await post('/transferable-amount', body(SWAP)).expect(504);
    expectErrorBody(slow.body, 504, 'DeadlineExceededError');
    results.getTransferableAmount = async () => {
      throw new sdk.InvalidParameterError('Currency to {"symbol":"ASTR"} not found in HydrationDex.');
    };
    const missing = await post('/transferable-amount', body(SWAP)).expect(400);
    expectErrorBody(missing.body, 400, 'InvalidCurrencyError');
    results.getTransferableAmount = async () => 123_456_789_012_345_678_901n;
  });
});
