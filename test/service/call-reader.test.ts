// Call data read straight from its bytes (src/service/route-check/call-reader.ts) gives the view a
// decode with polkadot.js gives (viewOf), for the calls the SDK builds over the test chains (teleport,
// reserve, bridge, local) and hand-made ones (programs, Transact bytes, V3 locations, xTokens, large
// amounts); and for every bytes mutated from them (each byte changed, cut short, one byte more) it
// either gives exactly what polkadot.js gives or declines, never a view where polkadot.js throws.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Call } from '@polkadot/types/interfaces';
import type { Registry } from '@polkadot/types/types';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { readCall } from '../../src/service/route-check';
import { CallReader } from '../../src/service/route-check/call-reader';
import { viewOf } from '../../src/service/route-check/walker';
import { FAMILIES, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';
import type { TestChainName } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const KUSAMA_ADDRESS = 'HLsPiB2amYFPFYMcYqKxGFLgDUVd4UP1kdA4QdZsH3e91LP';
const NAMES = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'AssetHubKusama'] as const satisfies readonly TestChainName[];
type Name = (typeof NAMES)[number];

// Templates off: every answer's bytes are the SDK's, read by the route check.
const local = testApp({ BUILD_TEMPLATES: '0' });
const { chains, overrides } = chainsForFile(NAMES, local.services);
const apis = {} as Record<Name, ApiPromise>;

beforeAll(async () => {
  for (const name of NAMES) apis[name] = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[name].url), noInitWarn: true });
});
afterAll(async () => {
  await Promise.all(Object.values(apis).map((a) => a.disconnect()));
});

const options = () => ({ development: true, apiOverrides: overrides });

/** What a decode of `hex` with `registry` gives the walk (or the error it throws). */
function fresh(registry: Registry, hex: string): unknown {
  try {
    return viewOf(registry.createType<Call>('Call', hex));
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

// ---- the calls -------------------------------------------------------------------------------

interface Built {
  name: string;
  chain: Name;
  hex: string;
}

const SDK_TRANSFERS: { name: string; chain: Name; body: Record<string, unknown> }[] = [
  { name: 'teleport Polkadot -> AssetHubPolkadot DOT', chain: 'Polkadot', body: { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE } },
  { name: 'reserve AssetHubPolkadot -> Hydration USDT', chain: 'AssetHubPolkadot', body: { from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' }, address: ALICE } },
  {
    name: 'bridge AssetHubPolkadot -> AssetHubKusama DOT',
    chain: 'AssetHubPolkadot',
    body: { from: 'AssetHubPolkadot', to: 'AssetHubKusama', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' }, address: KUSAMA_ADDRESS, senderAddress: ALICE },
  },
  { name: 'local AssetHubPolkadot USDT', chain: 'AssetHubPolkadot', body: { from: 'AssetHubPolkadot', to: 'AssetHubPolkadot', currency: { id: 1984, amount: '1000' }, address: ALICE } },
];

async function sdkBuilt(): Promise<Built[]> {
  const built: Built[] = [];
  for (const t of SDK_TRANSFERS) {
    const res = await request(local.app).post('/v5/x-transfer').send({ ...t.body, options: options() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    built.push({ name: t.name, chain: t.chain, hex: res.body as string });
  }
  return built;
}

const here = { parents: 0, interior: 'Here' };
const loc = (parents: number, ...junctions: object[]) => ({ parents, interior: junctions.length === 0 ? 'Here' : { [`X${junctions.length}`]: junctions } });
const account = { AccountId32: { network: null, id: ALICE_ID } };
const asset = (id: object, amount: bigint) => ({ id, fun: { Fungible: amount } });
const all = { Wild: { AllCounted: 1 } };

function callData(chain: Name, pallet: string, method: string, ...args: unknown[]): string {
  const tx = (apis[chain].tx as unknown as Record<string, Record<string, (...a: unknown[]) => { method: { toHex(): string } }>>)[pallet]![method]!;
  return tx(...args).method.toHex();
}

function handMade(): Built[] {
  const program = [
    { WithdrawAsset: [asset(loc(1), 2n ** 100n)] },
    { BuyExecution: { fees: asset(loc(1), 2n ** 52n), weightLimit: { Limited: { refTime: 2n ** 60n, proofSize: 65_536 } } } },
    { SetAppendix: [{ RefundSurplus: null }, { DepositAsset: { assets: all, beneficiary: loc(0, account) } }] },
    { Transact: { originKind: 'SovereignAccount', fallbackMaxWeight: null, call: { encoded: '0x0a0b0c' } } },
    { DepositReserveAsset: { assets: { Definite: [asset(loc(0, { PalletInstance: 50 }, { GeneralIndex: 2n ** 64n }), 1n)] }, dest: loc(1, { Parachain: 2034 }), xcm: [{ ClearOrigin: null }, { DepositAsset: { assets: all, beneficiary: loc(0, { AccountKey20: { network: { Ethereum: { chainId: 1 } }, key: `0x${'ab'.repeat(20)}` } }) } }] } },
  ];
  return [
    { name: 'teleport with a Limited weight and a large amount', chain: 'Polkadot', hex: callData('Polkadot', 'xcmPallet', 'limitedTeleportAssets', { V4: loc(0, { Parachain: 1000 }) }, { V4: loc(0, account) }, { V4: [asset(here, 2n ** 80n + 7n)] }, 0, { Limited: { refTime: 5_000_000_000n, proofSize: 2n ** 53n } }) },
    { name: 'V3 locations with network ids', chain: 'Polkadot', hex: callData('Polkadot', 'xcmPallet', 'limitedReserveTransferAssets', { V3: { parents: 0, interior: { X1: { Parachain: 2034 } } } }, { V3: { parents: 0, interior: { X1: { AccountId32: { network: 'Polkadot', id: ALICE_ID } } } } }, { V3: [{ id: { Concrete: here }, fun: { Fungible: 1n } }] }, 0, 'Unlimited') },
    { name: 'execute a program (Transact bytes, nested programs)', chain: 'AssetHubPolkadot', hex: callData('AssetHubPolkadot', 'polkadotXcm', 'execute', { V4: program }, { refTime: 1n, proofSize: 2n }) },
    { name: 'send with GeneralKey and GlobalConsensus', chain: 'AssetHubPolkadot', hex: callData('AssetHubPolkadot', 'polkadotXcm', 'send', { V4: loc(2, { GlobalConsensus: { ByGenesis: `0x${'01'.repeat(32)}` } }) }, { V4: [{ ReceiveTeleportedAsset: [asset(loc(1, { GeneralKey: { length: 2, data: `0x${'0f'.repeat(32)}` } }), 3n)] }, { ClearOrigin: null }] }) },
    { name: 'xTokens transfer from Hydration', chain: 'Hydration', hex: callData('Hydration', 'xTokens', 'transfer', 10, 2_500_000n, { V4: loc(1, { Parachain: 2000 }, account) }, 'Unlimited') },
    { name: 'type-and-then with a remote reserve', chain: 'Polkadot', hex: callData('Polkadot', 'xcmPallet', 'transferAssetsUsingTypeAndThen', { V4: loc(0, { Parachain: 1000 }) }, { V4: [asset(here, 10n)] }, { RemoteReserve: { V4: loc(0, { Parachain: 1000 }) } }, { V4: here }, 'Teleport', { V4: [{ DepositAsset: { assets: all, beneficiary: loc(0, account) } }] }, 'Unlimited') },
  ];
}

// ---- the tests -------------------------------------------------------------------------------

describe('call data read straight from its bytes', () => {
  it('the calls the SDK builds (teleport, reserve, bridge) are read without polkadot.js, as its decode reads them', async () => {
    for (const { name, chain, hex } of await sdkBuilt()) {
      const view = new CallReader(apis[chain].registry).view(hex);
      if (name.startsWith('local')) {
        // A local transfer names its target as a MultiAddress (an SS58 string in toJSON): polkadot.js reads it.
        if (view !== null) expect(view, name).toEqual(fresh(apis[chain].registry, hex));
        continue;
      }
      expect(view, name).not.toBeNull();
      expect(view, name).toEqual(fresh(apis[chain].registry, hex));
    }
  });

  it('hand-made calls (programs, Transact bytes, V3, xTokens, amounts over 2^52) read as polkadot.js reads them', () => {
    for (const { name, chain, hex } of handMade()) {
      const view = new CallReader(apis[chain].registry).view(hex);
      expect(view, name).not.toBeNull();
      expect(view, name).toEqual(fresh(apis[chain].registry, hex));
    }
  });

  it('every byte changed, the bytes cut short or one byte more: the same view as polkadot.js, or none (never one where polkadot.js throws)', async () => {
    const calls = [...(await sdkBuilt()), ...handMade()];
    let read = 0;
    let declined = 0;
    for (const { name, chain, hex } of calls) {
      const registry = apis[chain].registry;
      const reader = new CallReader(registry);
      const bytes = Buffer.from(hex.slice(2), 'hex');
      const mutants: string[] = [];
      for (let i = 0; i < bytes.length; i++) {
        for (const value of new Set([0, 1, 2, 0xff, bytes[i]! ^ 1, (bytes[i]! + 1) & 0xff])) {
          const copy = Buffer.from(bytes);
          copy[i] = value;
          mutants.push(`0x${copy.toString('hex')}`);
        }
        mutants.push(`0x${bytes.subarray(0, i).toString('hex')}`);
      }
      mutants.push(`${hex}00`);
      for (const mutant of mutants) {
        const view = reader.view(mutant);
        if (view === null) {
          declined++;
          continue;
        }
        read++;
        expect(view, `${name}: ${mutant}`).toEqual(fresh(registry, mutant));
      }
    }
    // Both ways were taken: most changed bytes still read, the rest left to polkadot.js.
    expect(read).toBeGreaterThan(1000);
    expect(declined).toBeGreaterThan(100);
  }, 90_000); // thousands of polkadot.js decodes: seconds alone, longer on a loaded machine
});

describe.each(FAMILIES)('/%s x-transfer with call data read from its bytes', (family) => {
  const build = (address: string, amount: string) =>
    request(local.app)
      .post(`/${family}/x-transfer`)
      .send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount }, [family === 'v5' ? 'address' : 'recipient']: address, options: options() });
  const hexOf = (res: request.Response): string => (typeof res.body === 'string' ? res.body : (res.body as { tx: string }).tx);

  it('new bytes each answer (another amount) are checked as their own bytes; the same bytes with one byte of the beneficiary changed are refused', async () => {
    for (const amount of ['10000000001', '10000000002']) {
      const hex = hexOf(await build(ALICE, amount).expect(200));
      expect(readCall(apis.Polkadot.registry, hex)).toEqual(fresh(apis.Polkadot.registry, hex));
      // The beneficiary's account id is in the bytes: a byte of it changed is another recipient, refused.
      const at = hex.indexOf(ALICE_ID.slice(2));
      expect(at).toBeGreaterThan(0);
      const mutant = `${hex.slice(0, at)}${ALICE_ID.slice(2, 4) === 'ff' ? '00' : 'ff'}${hex.slice(at + 2)}`;
      expect(() => local.services.routeCheck.check(apis.Polkadot.registry, 'Polkadot', mutant, [{ chain: 'AssetHubPolkadot', recipient: ALICE }], null)).toThrow(/beneficiary/);
    }
  });
});
