// Live router suite (`npm run test:live`): swaps Polkadot -> HydrationDex -> Hydration (DOT -> HDX)
// against real chains. Endpoints come from LIVE_WS_<CHAIN> (e.g. a chopsticks fork) or the
// registry's public ones; the manual exchange with overrides keeps the router on those endpoints.
// Without reachable endpoints the suite is skipped with one line. Results depend on chain state, so
// shapes are checked, not amounts.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, testApp } from '../helpers/app';
import { PROBE_MS, probeChains } from './support';

const CHAINS = ['Polkadot', 'Hydration'] as const;
type LiveChain = (typeof CHAINS)[number];
const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
let reachable: Partial<Record<LiveChain, string>> = {};
const live = () => CHAINS.every((c) => reachable[c] !== undefined);

beforeAll(async () => {
  reachable = await probeChains(CHAINS);
  if (!live()) console.log(`live router suite skipped: no endpoint of ${CHAINS.filter((c) => !reachable[c]).join(', ')} answered within ${PROBE_MS} ms (set LIVE_WS_<CHAIN> to point at a fork)`);
}, 2 * PROBE_MS);

const { app, services } = testApp({ REQUEST_TIMEOUT_MS: '170000' });
afterAll(() => services.close());

const body = (family: string, extra: Record<string, unknown> = {}) => ({
  from: 'Polkadot',
  exchange: 'HydrationDex',
  to: 'Hydration',
  currencyFrom: { symbol: 'DOT' },
  currencyTo: { symbol: 'HDX' },
  amount: family === 'v2' ? '2' : '20000000000',
  slippagePct: '1',
  recipientAddress: ADDRESS,
  senderAddress: SENDER,
  options: { development: true, apiOverrides: reachable },
  ...extra,
});

describe.each(FAMILIES)('/%s router, Polkadot -> HydrationDex -> Hydration (live)', (family) => {
  const post = (path: string, b: unknown) => request(app).post(`/${family}${path}`).send(b as object);

  it('builds the items: hex, endpoints, statusType TO_EXCHANGE first', async ({ skip }) => {
    if (!live()) skip();
    const res = await post('/router', body(family)).expect(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const item of res.body) {
      expect(item).toMatchObject({ tx: expect.stringMatching(/^0x[0-9a-f]+$/), wsProviders: expect.any(Array), statusType: expect.stringMatching(/^(TO_EXCHANGE|SWAP|SWAP_AND_TRANSFER|TO_DESTINATION)$/), chain: expect.any(String) });
    }
    if (res.body.length > 1) expect(res.body[0].statusType).toBe('TO_EXCHANGE');
  });

  it('best amount out and fees', async ({ skip }) => {
    if (!live()) skip();
    const best = await post('/router/best-amount-out', body(family)).expect(200);
    expect(best.body).toMatchObject({ exchange: 'HydrationDex', amountOut: expect.stringMatching(/^\d+$/) });
    const fees = await post('/router/xcm-fees', body(family)).expect(200);
    expect(fees.body).toMatchObject({ success: expect.any(Boolean), origin: expect.any(Object), hops: expect.any(Array) });
  });
});
