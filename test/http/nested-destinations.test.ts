import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app';
import { decodeCall, type TestChain, type TestChainName } from '../support/test-chain';
import { chainsForFile } from '../support/chains-for-file';

// Guards src/sdk/patches/nested-destinations.ts. The program a type-and-then call carries
// (`custom_xcm_on_dest`) runs on the call's `dest`; every onward location in it must be written as
// THAT chain sees it, and no later hop may buy execution with the whole amount sent (less arrives).
// Expected values are written out here from the chains' places (para ids, relays), not computed.
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const EVM_KEY = '0x1234567890123456789012345678901234567890';
const AMOUNT = 10_000_000_000;

const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Moonbeam', 'BridgeHubPolkadot', 'Kusama', 'AssetHubKusama'];
const { app, services } = testApp();
const { chains, overrides } = chainsForFile(NAMES, services);

type Json = Record<string, unknown>;

/** Builds through /v5/x-transfer and decodes the answer with the origin's metadata (`decodeAs`: a stand-in's). */
async function program({ standIns, ...body }: Json & { standIns?: Record<string, string> }, decodeAs?: TestChain): Promise<{ method: string; dest: unknown; xcm: Json[] }> {
  const res = await request(app)
    .post('/v5/x-transfer')
    .send({ ...body, options: { development: true, apiOverrides: { ...overrides, ...standIns } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const call = await decodeCall(decodeAs ?? chains[body.from as TestChainName], res.body as string);
  const versioned = call.args.custom_xcm_on_dest as Record<string, Json[]>;
  return { method: `${call.section}.${call.method}`, dest: call.args.dest, xcm: Object.values(versioned)[0]! };
}

const here = (parents: number) => ({ parents, interior: { here: null } });
const para = (parents: number, id: number) => ({ parents, interior: { x1: [{ parachain: id }] } });
const buy = (fees: unknown, amount: number) => ({ buyExecution: { fees: { id: fees, fun: { fungible: amount } }, weightLimit: { unlimited: null } } });
const account32 = { parents: 0, interior: { x1: [{ accountId32: { network: null, id: ALICE_ID } }] } };
const key20 = { parents: 0, interior: { x1: [{ accountKey20: { network: null, key: EVM_KEY } }] } };
const depositTo = (beneficiary: unknown) => ({ depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary } });

describe('type-and-then programs name each hop as the chain that runs it', () => {
  it('Polkadot -> Hydration DOT: Asset Hub deposits to its sibling 2034, which buys with no more than half the DOT sent', async () => {
    const { method, dest, xcm } = await program({ from: 'Polkadot', to: 'Hydration', currency: { symbol: 'DOT', amount: String(AMOUNT) }, address: ALICE, senderAddress: ALICE });
    expect(method).toBe('xcmPallet.transferAssetsUsingTypeAndThen');
    expect(Object.values(dest as Json)[0]).toEqual(para(0, 1000));
    expect(xcm[1]).toEqual({
      depositReserveAsset: {
        assets: { definite: [{ id: here(1), fun: { fungible: AMOUNT } }] },
        dest: para(1, 2034),
        xcm: [buy(here(1), AMOUNT / 2), depositTo(account32)],
      },
    });
  });

  it('Polkadot -> Moonbeam DOT: Asset Hub deposits to its sibling 2004 for the 20-byte account', async () => {
    const { xcm } = await program({ from: 'Polkadot', to: 'Moonbeam', currency: { symbol: 'DOT', amount: String(AMOUNT) }, address: EVM_KEY, senderAddress: ALICE });
    expect(xcm[1]).toEqual({
      depositReserveAsset: {
        assets: { definite: [{ id: here(1), fun: { fungible: AMOUNT } }] },
        dest: para(1, 2004),
        xcm: [buy(here(1), AMOUNT / 2), depositTo(key20)],
      },
    });
  });

  it('Kusama -> Moonriver KSM: Kusama Asset Hub deposits to its sibling 2023', async () => {
    // Moonbeam's node stands in for Moonriver (same runtime family, its metadata decodes the hop's fee query).
    const { method, dest, xcm } = await program({ from: 'Kusama', to: 'Moonriver', currency: { symbol: 'KSM', amount: String(AMOUNT) }, address: EVM_KEY, senderAddress: ALICE, standIns: { Moonriver: chains.Moonbeam.url } });
    expect(method).toBe('xcmPallet.transferAssetsUsingTypeAndThen');
    expect(Object.values(dest as Json)[0]).toEqual(para(0, 1000));
    expect(xcm[1]).toMatchObject({ depositReserveAsset: { dest: para(1, 2023), xcm: [buy(here(1), AMOUNT / 2), depositTo(key20)] } });
  });

  it('Hydration -> Polkadot DOT: Asset Hub teleports to its parent, which buys with no more than half', async () => {
    const { dest, xcm } = await program({ from: 'Hydration', to: 'Polkadot', currency: { symbol: 'DOT', amount: String(AMOUNT) }, address: ALICE, senderAddress: ALICE });
    expect(Object.values(dest as Json)[0]).toEqual(para(1, 1000));
    expect(xcm[1]).toMatchObject({ initiateTeleport: { dest: here(1), xcm: [buy(here(0), AMOUNT / 2), depositTo(account32)] } });
  });

  it('Hydration -> Moonbeam DOT: a sibling reads the same from Asset Hub (unchanged); the last hop buys half', async () => {
    const { xcm } = await program({ from: 'Hydration', to: 'Moonbeam', currency: { symbol: 'DOT', amount: String(AMOUNT) }, address: EVM_KEY, senderAddress: ALICE });
    expect(xcm[1]).toMatchObject({ depositReserveAsset: { dest: para(1, 2004), xcm: [buy(here(1), AMOUNT / 2), depositTo(key20)] } });
  });

  it('Hydration -> BridgeHubPolkadot DOT: Asset Hub teleports to its sibling 1002', async () => {
    const { xcm } = await program({ from: 'Hydration', to: 'BridgeHubPolkadot', currency: { symbol: 'DOT', amount: String(AMOUNT) }, address: ALICE, senderAddress: ALICE });
    expect(xcm[1]).toMatchObject({ initiateTeleport: { dest: para(1, 1002), xcm: [buy(here(1), AMOUNT / 2), depositTo(account32)] } });
  });

  it('AssetHubPolkadot -> AssetHubKusama KSM over the bridge: the far asset hub buys after pallet-xcm did, with no more than half', async () => {
    const { dest, xcm } = await program({ from: 'AssetHubPolkadot', to: 'AssetHubKusama', currency: { symbol: 'KSM', amount: String(AMOUNT) }, address: ALICE, senderAddress: ALICE });
    expect(Object.values(dest as Json)[0]).toEqual({ parents: 2, interior: { x2: [{ globalConsensus: { kusama: null } }, { parachain: 1000 }] } });
    expect(xcm).toEqual([buy(here(1), AMOUNT / 2), depositTo(account32)]);
  });

  it('AssetHubPolkadot -> AssetHubKusama DOT over the bridge: the far asset hub buys with DOT as it names it (not Polkadot Asset Hub as an asset)', async () => {
    const { xcm } = await program({ from: 'AssetHubPolkadot', to: 'AssetHubKusama', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: String(AMOUNT) }, address: ALICE, senderAddress: ALICE });
    expect(xcm).toEqual([buy({ parents: 2, interior: { x1: [{ globalConsensus: { polkadot: null } }] } }, AMOUNT / 2), depositTo(account32)]);
  });

  it('AssetHubKusama -> AssetHubPolkadot KSM over the bridge: Polkadot Asset Hub buys with KSM as it names it', async () => {
    const { xcm } = await program({ from: 'AssetHubKusama', to: 'AssetHubPolkadot', currency: { symbol: { type: 'Native', value: 'KSM' }, amount: String(AMOUNT) }, address: ALICE, senderAddress: ALICE });
    expect(xcm).toEqual([buy({ parents: 2, interior: { x1: [{ globalConsensus: { kusama: null } }] } }, AMOUNT / 2), depositTo(account32)]);
  });

  it('Hydration -> Ethereum WETH over Snowbridge: Asset Hub withdraws to Ethereum, two parents up from it too (unchanged)', async () => {
    const { dest, xcm } = await program({ from: 'Hydration', to: 'Ethereum', currency: { symbol: 'WETH', amount: '1000000000000000000' }, address: EVM_KEY, senderAddress: ALICE });
    expect(Object.values(dest as Json)[0]).toEqual(para(1, 1000));
    expect(xcm[1]).toMatchObject({ initiateReserveWithdraw: { reserve: { parents: 2, interior: { x1: [{ globalConsensus: { ethereum: { chainId: 1 } } }] } } } });
  });

  it('AssetHubKusama -> AssetHubPolkadot DOT over the bridge: the same, the other way', async () => {
    const { xcm } = await program({ from: 'AssetHubKusama', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(AMOUNT) }, address: ALICE, senderAddress: ALICE });
    expect(xcm).toEqual([buy(here(1), AMOUNT / 2), depositTo(account32)]);
  });
});
