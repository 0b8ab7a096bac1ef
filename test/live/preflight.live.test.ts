// Live pre-flight suite: every pre-flight endpoint, the balance and the bridge status against real
// chains. Endpoints come from LIVE_WS_<CHAIN> (e.g. LIVE_WS_ASSETHUBPOLKADOT=ws://127.0.0.1:8000
// for a chopsticks fork) or else the registry's public ones. Without any reachable endpoint the
// suite is skipped with one line saying why. Results depend on chain state, so shapes are checked,
// not amounts.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSubstrateChain } from '@paraspell/sdk-pjs';
import { FAMILIES, testApp } from '../helpers/app';
import { PROBE_MS, probeChains } from './support';

const CHAINS = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'BridgeHubPolkadot'] as const satisfies readonly TSubstrateChain[];
type LiveChain = (typeof CHAINS)[number];

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const ETH_ADDRESS = '0x24D18dbFBcEd732EAdF98EE520853e13909fE258';
let reachable: Partial<Record<LiveChain, string>> = {};
const has = (...chains: LiveChain[]) => chains.every((c) => reachable[c] !== undefined);

// Probe once, with a short timeout, before anything else; tests whose chains did not answer skip.
beforeAll(async () => {
  reachable = await probeChains(CHAINS);
  if (!Object.values(reachable).some(Boolean)) {
    console.log(`live pre-flight suite skipped: no endpoint of ${CHAINS.join(', ')} answered within ${PROBE_MS} ms (set LIVE_WS_<CHAIN> to point at a fork)`);
  }
}, 2 * PROBE_MS);

const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '170000' });
afterAll(() => services.close());

/** Pin every chain the request touches to the endpoint that answered the probe. */
const options = () => ({ apiOverrides: Object.fromEntries(Object.entries(reachable).filter(([, url]) => url)) });
const names = (family: string) => (family === 'v5' ? { r: 'address', s: 'senderAddress' } : { r: 'recipient', s: 'sender' });
const transfer = (family: string, extra: Record<string, unknown> = {}) => ({
  from: 'AssetHubPolkadot',
  to: 'Hydration',
  currency: { symbol: { type: 'Native', value: 'DOT' }, amount: family === 'v2' ? '1' : '10000000000' },
  [names(family).r]: ADDRESS,
  [names(family).s]: SENDER,
  options: options(),
  ...extra,
});

const decimal = expect.stringMatching(/^\d+$/);
const asset = expect.objectContaining({ symbol: expect.any(String), decimals: expect.any(Number), existentialDeposit: decimal });

describe.each(FAMILIES)('/%s pre-flight, AssetHubPolkadot -> Hydration (live)', (family) => {
  const post = (path: string, body: unknown) => request(app).post(`/${family}${path}`).send(body as object);

  it('dry-run and dry-run-preview: success flag, origin, hops; dryRunError when not successful', async ({ skip }) => {
    if (!has('AssetHubPolkadot', 'Hydration')) skip();
    for (const path of ['/dry-run', '/dry-run-preview']) {
      const res = await post(path, transfer(family)).expect(200);
      expect(res.body).toMatchObject({ success: expect.any(Boolean), origin: expect.objectContaining({ success: expect.any(Boolean), asset }), hops: expect.any(Array) });
      if (!res.body.success) expect(res.body.dryRunError).toMatchObject({ reason: expect.any(String), chain: expect.any(String), chainKind: expect.any(String) });
      expect(res.body).not.toHaveProperty('failureReason');
    }
  });

  it('xcm-fee and origin-xcm-fee: fee strings and assets; no assetHub/bridgeHub objects', async ({ skip }) => {
    if (!has('AssetHubPolkadot', 'Hydration')) skip();
    const fee = await post('/xcm-fee', transfer(family)).expect(200);
    expect(fee.body).toMatchObject({ success: expect.any(Boolean), origin: expect.objectContaining({ fee: decimal, feeType: expect.any(String), asset }), hops: expect.any(Array) });
    expect(fee.body).not.toHaveProperty('assetHub');
    const origin = await post('/origin-xcm-fee', transfer(family, { disableFallback: 'False' })).expect(200);
    expect(origin.body.origin).toMatchObject({ fee: decimal, asset });
    expect(origin.body).not.toHaveProperty('destination');
  });

  it('transfer-info: chain, origin, hops', async ({ skip }) => {
    if (!has('AssetHubPolkadot', 'Hydration')) skip();
    const res = await post('/transfer-info', transfer(family)).expect(200);
    expect(res.body).toMatchObject({ chain: { origin: 'AssetHubPolkadot', destination: 'Hydration' }, origin: expect.any(Object), hops: expect.any(Array) });
    expect(res.body.origin.selectedCurrency.balance).toMatch(/^\d+$/);
  });

  it('transferable, min-transferable, receivable amounts and the ED check', async ({ skip }) => {
    if (!has('AssetHubPolkadot', 'Hydration')) skip();
    expect((await post('/transferable-amount', transfer(family)).expect(200)).body).toMatch(/^\d+$/);
    expect((await post('/min-transferable-amount', transfer(family)).expect(200)).body).toMatch(/^\d+$/);
    const receivable = await post('/receivable-amount', transfer(family));
    if (receivable.status === 200) expect(receivable.body).toMatch(/^\d+$/);
    else expect(receivable.body.kind).toBe('UnableToComputeError');
    expect(typeof (await post('/verify-ed-on-destination', transfer(family)).expect(200)).body).toBe('boolean');
  });

  it('balance on the asset hub as a decimal string', async ({ skip }) => {
    if (!has('AssetHubPolkadot', 'Hydration')) skip();
    const account = family === 'v5' ? { address: ADDRESS } : { recipient: ADDRESS };
    const res = await post('/balance/AssetHubPolkadot', { ...account, currency: { id: 1984 }, options: options() }).expect(200);
    expect(res.body).toMatch(/^\d+$/);
  });
});

describe('Ethereum bridge (live)', () => {
  it('GET /v5/x-transfer/eth-bridge-status', async ({ skip }) => {
    if (!has('AssetHubPolkadot', 'BridgeHubPolkadot')) skip();
    const res = await request(app).get('/v5/x-transfer/eth-bridge-status').expect(200);
    expect(['Normal', 'Halted']).toContain(res.body);
  });

  it('POST /v5/x-transfer builds AssetHubPolkadot -> Ethereum (WETH)', async ({ skip }) => {
    if (!has('AssetHubPolkadot', 'BridgeHubPolkadot')) skip();
    const res = await request(app)
      .post('/v5/x-transfer')
      .send({ from: 'AssetHubPolkadot', to: 'Ethereum', currency: { symbol: 'WETH', amount: '1000000000000000' }, address: ETH_ADDRESS, senderAddress: SENDER, options: options() });
    if (res.status === 503) expect(res.body.kind).toBe('FeatureTemporarilyDisabledError'); // bridge halted
    else expect(res.body).toMatch(/^0x[0-9a-f]+$/);
  });
});
