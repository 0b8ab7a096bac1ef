import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { decodeCall, refusedUrl, type TestChainName } from '../support/test-chain';
import { chainsForFile } from '../support/chains-for-file';

// Building from Moonbeam and with a custom pallet method: every failure is a 4xx or a 503 that says
// why, never a 500 (issue 32, part 4).
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const SENDER = '0xf24FF3a9CF04c71Dbc94D0b566f7A27B94566cac';

const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Moonbeam'];
const { app, services } = testApp();
const { chains, overrides } = chainsForFile(NAMES, services);

const names = (family: (typeof FAMILIES)[number]) => (family === 'v5' ? { to: 'address', from: 'senderAddress' } : { to: 'recipient', from: 'sender' });

describe.each(FAMILIES)('/%s Moonbeam-origin DOT', (family) => {
  const send = (to: string, extra: Record<string, unknown> = {}) =>
    request(app)
      .post(`/${family}/x-transfer`)
      .send({ from: 'Moonbeam', to, currency: { symbol: 'DOT', amount: '10000000000' }, [names(family).to]: ALICE, [names(family).from]: SENDER, options: { development: true, apiOverrides: { ...overrides, ...extra } } });

  it.each(['Polkadot', 'Hydration', 'AssetHubPolkadot'])(
    'Moonbeam -> %s DOT builds offline: the xcDOT balance is read with eth_call from the Moonbeam node the request uses',
    async (to) => {
      const res = await send(to);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const call = await decodeCall(chains.Moonbeam, res.body as string);
      expect(`${call.section}.${call.method}`).toBe('polkadotXcm.transferAssetsUsingTypeAndThen');
      // Through DOT's reserve, Asset Hub, to the account asked for.
      expect(Object.values(call.args.dest as object)[0]).toEqual({ parents: 1, interior: { x1: [{ parachain: 1000 }] } });
      expect(JSON.stringify(call.args.custom_xcm_on_dest)).toContain(ALICE_ID);
    },
  );

  it('an unreachable Moonbeam node is a 503 naming its endpoint', async () => {
    const url = await refusedUrl();
    const res = await send('Hydration', { Moonbeam: url });
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('Moonbeam');
    expect(res.body.message).toContain('127.0.0.1:0');
  });
});

it('a client\'s own Moonbeam node on the operator\'s shared runtime: the balance is read with eth_call over the client\'s connection', async () => {
  const service = testApp({ CHAIN_ENDPOINTS: JSON.stringify(overrides) });
  const send = (options: Record<string, unknown>) =>
    request(service.app)
      .post('/v5/x-transfer')
      .send({ from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, senderAddress: SENDER, options });
  try {
    // Over the operator's endpoints first: its connection's runtime is then shared with a client's own on the same runtime.
    expect((await send({})).status).toBe(200);
    const res = await send({ development: true, apiOverrides: { ...overrides, Moonbeam: `${chains.Moonbeam.url}/mine` } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  } finally {
    await service.services.close();
  }
});

describe.each(FAMILIES)('/%s pallet and method', (family) => {
  it('a method whose arguments do not fit the transfer is a 400 naming method', async () => {
    const res = await request(app)
      .post(`/${family}/x-transfer`)
      .send({
        from: 'AssetHubPolkadot',
        to: 'Hydration',
        pallet: 'PolkadotXcm',
        method: 'limited_reserve_transfer_assets',
        currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' },
        [names(family).to]: ALICE,
        [names(family).from]: ALICE,
        options: { development: true, apiOverrides: overrides },
      });
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(res.body.details).toEqual([{ path: 'body.method', message: expect.stringContaining('polkadotXcm.limitedReserveTransferAssets takes 5 arguments') }]);
  });
});
