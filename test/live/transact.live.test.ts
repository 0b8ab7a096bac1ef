// Live transact suite (`npm run test:live`): transact answers built against real chains, whose
// runtimes really answer TransactionPaymentApi, DryRunApi and XcmPaymentApi. Endpoints come from
// LIVE_WS_<CHAIN> (e.g. a chopsticks fork) or the registry's public ones; without reachable
// endpoints the suite is skipped with one line. Chain state decides fees and dry-run outcomes, so
// the program's shape is checked, not amounts.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { FAMILIES, testApp } from '../helpers/app';
import { PROBE_MS, probeChains } from './support';

const CHAINS = ['Polkadot', 'AssetHubPolkadot', 'Hydration'] as const;
type LiveChain = (typeof CHAINS)[number];
const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
let reachable: Partial<Record<LiveChain, string>> = {};
const apis: Partial<Record<LiveChain, ApiPromise>> = {};
const has = (...chains: LiveChain[]) => chains.every((c) => reachable[c] !== undefined);

beforeAll(async () => {
  reachable = await probeChains(CHAINS);
  if (!Object.values(reachable).some(Boolean)) {
    console.log(`live transact suite skipped: no endpoint of ${CHAINS.join(', ')} answered within ${PROBE_MS} ms (set LIVE_WS_<CHAIN> to point at a fork)`);
    return;
  }
  // The test's own connections decode the answers and build the destination calls, as a wallet would.
  await Promise.all(
    Object.entries(reachable).map(async ([chain, url]) => {
      apis[chain as LiveChain] = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(url), noInitWarn: true });
    }),
  );
}, 60_000);

const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '170000' });
afterAll(async () => {
  await services.close();
  await Promise.all(Object.values(apis).map((api) => api?.disconnect()));
});

const names = (family: string) => (family === 'v5' ? { r: 'address', s: 'senderAddress', t: 'transact' } : { r: 'recipient', s: 'sender', t: 'transactOptions' });
const remark = (chain: LiveChain) => apis[chain]!.tx.system!.remarkWithEvent!('0x7472616e73616374').method.toHex();

const body = (family: string, from: LiveChain, to: LiveChain, currency: unknown, transact: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  from,
  to,
  currency,
  [names(family).r]: ADDRESS,
  [names(family).s]: SENDER,
  [names(family).t]: transact,
  options: { development: true, apiOverrides: Object.fromEntries(Object.entries(reachable).filter(([, url]) => url)), abstractDecimals: false },
  ...extra,
});

/** The call data decoded with the origin's live metadata: section.method and the versioned message. */
function decode(chain: LiveChain, hex: string) {
  const call = apis[chain]!.createType('Call', hex);
  expect(call.toHex()).toBe(hex);
  const args = Object.fromEntries(call.argsEntries.map(([name, value]) => [name, value.toJSON()]));
  return { name: `${call.section}.${call.method}`, args: args as Record<string, Record<string, Record<string, unknown>[]>> };
}

describe.each(FAMILIES)('/%s transact (live)', (family) => {
  it('AssetHubPolkadot -> Hydration, V4 send: the weight Hydration reports for the call', async ({ skip }) => {
    if (!has('AssetHubPolkadot', 'Hydration')) skip();
    const call = remark('Hydration');
    const res = await request(app)
      .post(`/${family}/x-transfer`)
      .send(body(family, 'AssetHubPolkadot', 'Hydration', { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' }, { hex: call }, { xcmVersion: 'V4' }))
      .expect(200);
    const { name, args } = decode('AssetHubPolkadot', res.body);
    expect(name).toBe('polkadotXcm.send');
    const message = args.message!.v4!;
    expect(message.map((i) => Object.keys(i)[0])).toEqual(['withdrawAsset', 'buyExecution', 'transact', 'expectTransactStatus', 'refundSurplus', 'depositAsset']);
    const transact = message[2]!.transact as { requireWeightAtMost: { refTime: number }; call: { encoded: string } };
    expect(transact.call.encoded).toBe(call);
    expect(transact.requireWeightAtMost.refTime).toBeGreaterThan(0);
  });

  it('Polkadot -> AssetHubPolkadot, V5 execute: priced by the real dry runs, or a 400 naming the chain that refused', async ({ skip }) => {
    if (!has('Polkadot', 'AssetHubPolkadot')) skip();
    const call = remark('AssetHubPolkadot');
    const res = await request(app)
      .post(`/${family}/x-transfer`)
      .send(body(family, 'Polkadot', 'AssetHubPolkadot', { symbol: 'DOT', amount: '10000000000' }, { hex: call, originKind: 'SovereignAccount' }, { xcmVersion: 'V5' }));
    if (res.status === 400) {
      // The dry run executes as the sender: an account without the amount fails there.
      expect(res.body.kind).toMatch(/^(DryRunFailedError|AmountTooLowError|UnableToComputeError)$/);
      expect(res.body.message).toMatch(/Polkadot|AssetHubPolkadot/);
      return;
    }
    expect(res.status).toBe(200);
    const { name, args } = decode('Polkadot', res.body);
    expect(name).toBe('xcmPallet.execute');
    const initiate = args.message!.v5![2]!.initiateTransfer as { preserveOrigin: boolean; remoteXcm: Record<string, unknown>[] };
    expect(initiate.preserveOrigin).toBe(true);
    expect(initiate.remoteXcm.map((i) => Object.keys(i)[0])).toEqual(['transact', 'expectTransactStatus', 'refundSurplus', 'depositAsset']);
  });
});
