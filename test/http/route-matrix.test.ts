import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { ASSET_PLACE, key, networkOf, PLACE, REFUSED, ROUTES, selector, type Asset } from '../support/route-matrix';
import { decodeCall, startTestChain, TEST_CHAIN_NAMES, type DecodedCall, type TestChain, type TestChainName } from '../support/test-chain';

// Every transfer among the sandbox's chains, for every asset the registry holds on both ends, in
// both families, built through the real SDK over the test chains. Each answer is decoded with the
// origin's real metadata and followed by the code below, which is written here on purpose (not
// the service's route check, not src/xcm): every location is read from the chain that runs it,
// with the chains' places written out as facts, down every nested program to the chain where the
// asset is deposited. What it reaches, the beneficiary, the asset and the amount must be the ones
// asked for. Every refusal is listed (test/support/route-matrix.ts) with its status and the reason
// it must name, so a route that starts or stops building fails here.

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const EVM = '0xf24ff3a9cf04c71dbc94d0b566f7a27b94566cac';
const AMOUNT = 10_000_000_000n;

// ---- facts -------------------------------------------------------------------------------------

/** Hydration's XTokens currency ids. */
const HYDRATION_CURRENCY: Record<number, Asset> = { 0: 'HDX', 5: 'DOT', 10: 'USDT', 16: 'GLMR', 22: 'USDC', 1000771: 'KSM' };

// ---- the follower ------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const only = (v: unknown): [string, unknown] => {
  if (typeof v === 'string') return [v.charAt(0).toLowerCase() + v.slice(1), null];
  if (!isObject(v) || Object.keys(v).length !== 1) throw new Error(`not an enum value: ${JSON.stringify(v)}`);
  const key = Object.keys(v)[0]!;
  return [key, v[key]];
};
/** `{v4: x}` -> x. */
const unversioned = (v: unknown): unknown => {
  const [key, value] = only(v);
  if (!/^v\d$/.test(key)) throw new Error(`not versioned: ${JSON.stringify(v)}`);
  return value;
};

/** A junction as a key: `parachain:1000`, `network:kusama`, `accountId32:0x..`. */
function junctionKey(junction: unknown): string {
  const [type, value] = only(junction);
  switch (type) {
    case 'globalConsensus': {
      const [network, detail] = only(value);
      return network === 'ethereum' ? `network:ethereum:${String((detail as Json).chainId)}` : `network:${network}`;
    }
    case 'accountId32':
      return `account:${String((value as Json).id).toLowerCase()}`;
    case 'accountKey20':
      return `account:${String((value as Json).key).toLowerCase()}`;
    default:
      return `${type}:${String(value)}`;
  }
}

/** A location (polkadot.js JSON) as parents and junction keys. */
function readLocation(location: unknown): { parents: number; keys: string[] } {
  const { parents, interior } = location as { parents: number; interior: unknown };
  const [width, junctions] = only(interior);
  if (width === 'here') return { parents, keys: [] };
  return { parents, keys: (Array.isArray(junctions) ? junctions : [junctions]).map(junctionKey) };
}

/** The path a location names, read by the chain at `reader`. */
function resolve(reader: string[], location: unknown): string[] {
  const { parents, keys } = readLocation(location);
  if (parents > reader.length) throw new Error(`${JSON.stringify(location)} climbs above the universe from ${reader.join('/')}`);
  return [...reader.slice(0, reader.length - parents), ...keys];
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((k, i) => k === b[i]);

function chainAt(path: string[]): TestChainName {
  const found = TEST_CHAIN_NAMES.find((c) => same(PLACE[c], path));
  if (!found) throw new Error(`no chain at ${path.join('/')}`);
  return found;
}

/** The account a beneficiary location names from its own chain: exactly one account junction below it. */
function accountOf(location: unknown): string {
  const { parents, keys } = readLocation(location);
  if (parents !== 0 || keys.length !== 1 || !keys[0]!.startsWith('account:')) throw new Error(`not an account of the chain: ${JSON.stringify(location)}`);
  return keys[0]!.slice('account:'.length);
}

function assetAt(path: string[]): Asset {
  const found = (Object.keys(ASSET_PLACE) as Asset[]).find((a) => same(ASSET_PLACE[a], path));
  if (!found) throw new Error(`no known asset at ${path.join('/')}`);
  return found;
}

/** What a hop after the first buys execution with: never all that was sent (less reaches it). */
interface Buy {
  on: TestChainName;
  asset: Asset;
  amount: bigint;
}

interface Arrival {
  hops: TestChainName[];
  buys: Buy[];
  beneficiary: string;
  /** What the origin sends, by asset. */
  sent: Partial<Record<Asset, bigint>>;
}

const fungible = (asset: Json): bigint => BigInt(String((asset.fun as Json).fungible));

function sentAssets(origin: string[], assets: unknown): Partial<Record<Asset, bigint>> {
  const list = unversioned(assets);
  const sent: Partial<Record<Asset, bigint>> = {};
  for (const asset of (Array.isArray(list) ? list : [list]) as Json[]) sent[assetAt(resolve(origin, asset.id))] = fungible(asset);
  return sent;
}

const ONWARD: Record<string, string> = { depositReserveAsset: 'dest', initiateTeleport: 'dest', transferReserveAsset: 'dest', initiateReserveWithdraw: 'reserve', initiateTransfer: 'destination' };

/** Follows a program run by the chain at `runner` to the chain that deposits, and the account it deposits to. */
function followProgram(runner: string[], program: Json[], hops: TestChainName[], buys: Buy[]): string {
  let beneficiary: string | undefined;
  for (const instruction of program) {
    const [name, body] = only(instruction);
    const field = ONWARD[name];
    if (field) {
      const next = resolve(runner, (body as Json)[field]);
      hops.push(chainAt(next));
      return followProgram(next, ((body as Json).xcm ?? (body as Json).remote_xcm ?? (body as Json).remoteXcm) as Json[], hops, buys);
    }
    if (name === 'buyExecution' || name === 'payFees') {
      const fees = ((body as Json).fees ?? (body as Json).asset) as Json;
      buys.push({ on: hops.at(-1)!, asset: assetAt(resolve(runner, fees.id)), amount: fungible(fees) });
    }
    // A deposit inside SetAppendix is the refund of what is left: not the transfer.
    if (name === 'depositAsset') beneficiary = accountOf((body as Json).beneficiary);
  }
  if (beneficiary === undefined) throw new Error(`the program run on ${hops.at(-1)} deposits nothing: ${JSON.stringify(program)}`);
  return beneficiary;
}

/** Where a decoded call takes the asset, read hop by hop. */
function follow(origin: TestChainName, call: DecodedCall): Arrival {
  const from = PLACE[origin];
  const { args } = call;
  if (call.section === 'xTokens') {
    // XTokens' dest is the destination chain with the account below it.
    const full = resolve(from, unversioned(args.dest));
    const destination = full.slice(0, -1);
    const beneficiary = full.at(-1)!;
    if (!beneficiary.startsWith('account:')) throw new Error(`XTokens dest ends in no account: ${full.join('/')}`);
    const sent = args.currency_id !== undefined ? { [HYDRATION_CURRENCY[Number(args.currency_id)]!]: BigInt(String(args.amount)) } : sentAssets(from, args.asset ?? args.assets);
    return { hops: [chainAt(destination)], buys: [], beneficiary: beneficiary.slice('account:'.length), sent };
  }
  const first = resolve(from, unversioned(args.dest));
  const hops = [chainAt(first)];
  const buys: Buy[] = [];
  const sent = sentAssets(from, args.assets);
  if (args.custom_xcm_on_dest !== undefined) return { hops, buys, beneficiary: followProgram(first, unversioned(args.custom_xcm_on_dest) as Json[], hops, buys), sent };
  return { hops, buys, beneficiary: accountOf(unversioned(args.beneficiary)), sent };
}

/** The account each chain's beneficiaries are: a 20-byte key on Moonbeam, ALICE elsewhere. */
const accountFor = (chain: TestChainName) => (chain === 'Moonbeam' ? { address: EVM, id: EVM } : { address: ALICE, id: ALICE_ID });

const chains = {} as Record<TestChainName, TestChain>;
const overrides: Record<string, string> = {};
const { app, services } = testApp();

beforeAll(async () => {
  await Promise.all(
    TEST_CHAIN_NAMES.map(async (name) => {
      chains[name] = await startTestChain(name, { partialFee: 1_000_000n });
      overrides[name] = chains[name].url;
    }),
  );
});

afterAll(async () => {
  await services.close();
  await Promise.all(TEST_CHAIN_NAMES.map((n) => chains[n]?.close()));
});

it('the registry allows the routes this matrix expects (78: 45 build, 33 are refused), and every refusal listed is one of them', () => {
  expect(ROUTES).toHaveLength(78);
  expect(Object.keys(REFUSED)).toHaveLength(33);
  const keys = new Set(ROUTES.map(key));
  for (const refused of Object.keys(REFUSED)) expect(keys, refused).toContain(refused);
});

describe.each(FAMILIES)('/%s every route among the sandbox chains', (family) => {
  const fields = family === 'v5' ? { recipient: 'address', sender: 'senderAddress' } : { recipient: 'recipient', sender: 'sender' };

  it.each(ROUTES.map((r) => [key(r), r] as const))('%s', async (_name, route) => {
    const { from, to, asset } = route;
    const res = await request(app)
      .post(`/${family}/x-transfer`)
      .send({
        from,
        to,
        currency: { location: selector(asset, networkOf(from)), amount: String(AMOUNT) },
        [fields.recipient]: accountFor(to).address,
        [fields.sender]: accountFor(from).address,
        options: { development: true, apiOverrides: overrides, abstractDecimals: false },
      });
    const refusal = REFUSED[key(route)];
    if (refusal) {
      expectErrorBody(res.body, refusal.status, refusal.kind);
      expect(res.body.message).toMatch(refusal.says);
      return;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const call = await decodeCall(chains[from], res.body as string);
    const arrival = follow(from, call);
    expect(arrival.hops.at(-1), `${JSON.stringify(call.args)}`).toBe(to);
    expect(arrival.beneficiary).toBe(accountFor(to).id);
    expect(arrival.sent[asset]).toBe(AMOUNT);
    // pallet-xcm buys on the call's dest with what arrives there; a program's own purchase comes
    // after it (or on a later hop), where less than was sent is held.
    for (const buy of arrival.buys) expect(buy.amount, `${buy.asset} bought on ${buy.on}`).toBeLessThan(arrival.sent[buy.asset] ?? 0n);
  });
});
