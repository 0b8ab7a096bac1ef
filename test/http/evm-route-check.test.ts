// The route check on EVM transactions that carry XCM: the XTokens precompile's calldata (Moonbeam,
// Moonriver) and the XCM-interface precompile's (Moonbeam -> Ethereum) are decoded back into the
// transfer they dispatch and followed hop by hop before they are answered. A bad answer is made by
// handing the check a transfer altered after decoding, as a builder bug would; Snowbridge's
// sendToken from Ethereum carries no XCM we write and is not walked.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectErrorBody, FAMILIES, testApp } from '../helpers/app';
import { startTestChain, type TestChain } from '../support/test-chain';

const SENDER = '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326';
const SS58 = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const EVM_RECIPIENT = '0x24d18dbfbced732eadf98ee520853e13909fe258';

const { app, services } = testApp();
afterAll(() => services.close());

const names = (family: string) => (family === 'v5' ? { sender: 'senderAddress', recipient: 'address' } : { sender: 'sender', recipient: 'recipient' });
const glmrToHydration = (family: string) => ({ from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'GLMR', amount: '1000000000000000000' }, [names(family).sender]: SENDER, [names(family).recipient]: SS58, options: { abstractDecimals: false } });
const metrics = async () => (await request(app).get('/metrics')).text;

interface Hop {
  chain: string;
  ok: boolean;
  problems: { at: string; message: string }[];
}

describe.each(FAMILIES)('/%s/evm-x-transfer through the XTokens precompile: the route check', (family) => {
  it('a good transfer passes, counted for Moonbeam', async () => {
    const res = await request(app).post(`/${family}/evm-x-transfer`).send(glmrToHydration(family));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await metrics()).toMatch(/xcm_gateway_route_checks_total\{outcome="passed",origin="Moonbeam"\} [1-9]/);
  });

  it('calldata whose destination is a para id no chain has is a 500 RouteCheckError naming the origin hop, counted as refused', async () => {
    const real = services.routeCheck.checkXTokens.bind(services.routeCheck);
    const spy = vi.spyOn(services.routeCheck, 'checkXTokens').mockImplementation((origin, transfer, expected, req) =>
      real(origin, { ...transfer, destination: { ...transfer.destination, junctions: [{ type: 'Parachain', value: 4444 }, ...transfer.destination.junctions.slice(1)] } }, expected, req),
    );
    try {
      const res = await request(app).post(`/${family}/evm-x-transfer`).send(glmrToHydration(family));
      expect(res.status, JSON.stringify(res.body)).toBe(500);
      expectErrorBody(res.body, 500, 'RouteCheckError');
      expect(res.body.message).toMatch(/built from Moonbeam would not arrive: at hop 1 \(Moonbeam\), .*dest: .*no chain of Polkadot has para id 4444/);
    } finally {
      spy.mockRestore();
    }
    expect(await metrics()).toMatch(/xcm_gateway_route_checks_total\{outcome="refused",origin="Moonbeam"\} [1-9]/);
  });

  it('calldata whose beneficiary is no account (a parachain) is refused at the destination\'s DepositAsset', async () => {
    const real = services.routeCheck.checkXTokens.bind(services.routeCheck);
    const spy = vi.spyOn(services.routeCheck, 'checkXTokens').mockImplementation((origin, transfer, expected, req) =>
      real(origin, { ...transfer, destination: { ...transfer.destination, junctions: [transfer.destination.junctions[0]!, { type: 'Parachain', value: 2006 }] } }, expected, req),
    );
    try {
      const res = await request(app).post(`/${family}/evm-x-transfer`).send(glmrToHydration(family));
      expect(res.status, JSON.stringify(res.body)).toBe(500);
      expectErrorBody(res.body, 500, 'RouteCheckError');
      const route = res.body.route as Hop[];
      expect(route.map((h) => [h.chain, h.ok])).toEqual([
        ['Moonbeam', true],
        ['Hydration', false],
      ]);
      expect(route[1]!.problems[0]).toEqual({ at: 'DepositAsset.beneficiary', message: expect.stringContaining('is not an account on Hydration') });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('/evm-x-transfer Moonbeam -> Ethereum through the XCM-interface precompile: the route check', () => {
  let moonbeam: TestChain;
  let assetHub: TestChain;
  let bridgeHub: TestChain;
  beforeAll(async () => {
    [moonbeam, assetHub, bridgeHub] = await Promise.all([startTestChain('Moonbeam'), startTestChain('AssetHubPolkadot'), startTestChain('BridgeHubPolkadot')]);
  });
  afterAll(async () => {
    await Promise.all([moonbeam, assetHub, bridgeHub].map((c) => c.close()));
  });
  const wethToEthereum = () => ({
    from: 'Moonbeam',
    to: 'Ethereum',
    currency: { symbol: 'WETH', amount: '1000000000000000000' },
    senderAddress: SENDER,
    address: EVM_RECIPIENT,
    ahAddress: SS58,
    options: { development: true, apiOverrides: { Moonbeam: moonbeam.url, AssetHubPolkadot: assetHub.url, BridgeHubPolkadot: bridgeHub.url } },
  });

  it('a good transfer passes: Moonbeam, the asset hub and Ethereum, each ok', async () => {
    const spy = vi.spyOn(services.routeCheck, 'checkPalletCall');
    try {
      const res = await request(app).post('/v5/evm-x-transfer').send(wethToEthereum());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(spy).toHaveBeenCalledOnce();
      expect(spy.mock.calls[0]![0]).toBe('Moonbeam');
    } finally {
      spy.mockRestore();
    }
    expect(await metrics()).toMatch(/xcm_gateway_route_checks_total\{outcome="(passed|warned)",origin="Moonbeam"\} [1-9]/);
  });

  it('calldata sending the assets to Hydration instead of the asset hub is a 500 RouteCheckError at Moonbeam: Hydration is not their reserve', async () => {
    const real = services.routeCheck.checkPalletCall.bind(services.routeCheck);
    const spy = vi.spyOn(services.routeCheck, 'checkPalletCall').mockImplementation((origin, method, args, expected, req) =>
      real(origin, method, { ...args, dest: { parents: 1, interior: { X1: [{ Parachain: 2034 }] } } }, expected, req),
    );
    try {
      const res = await request(app).post('/v2/evm-x-transfer').send({ ...wethToEthereum(), senderAddress: undefined, address: undefined, sender: SENDER, recipient: EVM_RECIPIENT });
      expect(res.status, JSON.stringify(res.body)).toBe(500);
      expectErrorBody(res.body, 500, 'RouteCheckError');
      // pallet-xcm refuses the declared type first; the reserve withdrawal would fail as well.
      expect(res.body.message).toMatch(/at hop 1 \(Moonbeam\), transferAssetsUsingTypeAndThen\.assets_transfer_type: DestinationReserve says Hydration is the reserve of xcDOT/);
      expect(JSON.stringify(res.body.details)).toMatch(/InitiateReserveWithdraw\.reserve.*Hydration is not the reserve of xcDOT/);
    } finally {
      spy.mockRestore();
    }
  });
});
