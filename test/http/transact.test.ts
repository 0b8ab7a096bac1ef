// Transact through POST /x-transfer: every answer is decoded as a Call with the origin's real
// metadata and checked the way a wallet would (instructions, origin kind, weight, call bytes,
// beneficiary). Runtime calls the test chain cannot execute (query_info, dry runs, XcmPaymentApi)
// answer what each test configures, encoded with the chain's own output types.
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { checkTransactRequest, type TransactCandidate } from '../../src/service/offline-checks';
import { FAMILIES, expectErrorBody, testApp, transferBody } from '../helpers/app';
import { decodeCall, refusedUrl, startTestChain, type TestChain, type TestChainName } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const BOB_ID = '0x8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48';
const DOT = 10_000_000_000n;

const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Kusama', 'AssetHubKusama'];
const chains = {} as Record<TestChainName, TestChain>;
const apis = {} as Record<TestChainName, ApiPromise>;
const overrides: Record<string, string> = {};
const { app, services } = testApp();

/** A call a client would make on the destination: system.remark_with_event("transact"). */
const remark = (chain: TestChainName) => apis[chain].tx.system!.remarkWithEvent!('0x7472616e73616374').method.toHex();

beforeAll(async () => {
  for (const name of NAMES) {
    chains[name] = await startTestChain(name);
    overrides[name] = chains[name].url;
    apis[name] = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[name].url), noInitWarn: true });
  }
}, 60_000);

afterAll(async () => {
  await services.close();
  await Promise.all(NAMES.map((n) => apis[n]?.disconnect()));
  await Promise.all(NAMES.map((n) => chains[n]?.close()));
});

afterEach(() => {
  for (const name of NAMES) for (const fn of CONFIGURED) chains[name].setRuntimeCall(fn, undefined);
  vi.restoreAllMocks();
});

const CONFIGURED = [
  'TransactionPaymentApi_query_info',
  'DryRunApi_dry_run_call',
  'DryRunApi_dry_run_xcm',
  'XcmPaymentApi_query_weight_to_asset_fee',
  'XcmPaymentApi_query_xcm_weight',
];

/** polkadot.js logs failed runtime calls with console.error: expected where a test makes them fail. */
const muteConsoleError = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

type Family = 'v5' | 'v2';
const names = (family: Family) => (family === 'v5' ? { r: 'address', s: 'senderAddress', t: 'transact' } : { r: 'recipient', s: 'sender', t: 'transactOptions' });

function body(family: Family, fields: { from: string; to: string; currency: unknown; transact: Record<string, unknown>; recipient?: string; sender?: string; xcmVersion?: string; extra?: Record<string, unknown> }) {
  return {
    ...transferBody(family, { ...fields, recipient: fields.recipient ?? ALICE, sender: fields.sender ?? BOB }),
    [names(family).t]: fields.transact,
    ...(fields.xcmVersion ? { xcmVersion: fields.xcmVersion } : {}),
    options: { development: true, apiOverrides: overrides, abstractDecimals: false },
    ...fields.extra,
  };
}

const post = (family: Family, b: Record<string, unknown>) => request(app).post(`/${family}/x-transfer`).send(b);

/** The answer in both families: one hex, decoded with the origin's metadata. */
async function buildBoth(fields: Parameters<typeof body>[1]) {
  const v5 = await post('v5', body('v5', fields));
  expect(v5.status, JSON.stringify(v5.body)).toBe(200);
  const v2 = await post('v2', body('v2', fields));
  expect(v2.status, JSON.stringify(v2.body)).toBe(200);
  expect(v2.body).toBe(v5.body);
  expect(v5.body).toMatch(/^0x[0-9a-f]+$/);
  const origin = chains[fields.from as TestChainName];
  // Call data, not an extrinsic: it decodes as a Call and re-encodes to the same bytes.
  expect(origin.registry.createType('Call', v5.body).toHex()).toBe(v5.body);
  return decodeCall(origin, v5.body as string);
}

const queryInfo = (refTime: number, proofSize: number) => () => ({ weight: { refTime, proofSize }, class: 'Normal', partialFee: 1_000_000 });

const beneficiary = (v: 'v3' | 'v4' | 'v5', id = ALICE_ID) => ({
  parents: 0,
  interior: { x1: v === 'v3' ? { accountId32: { network: null, id } } : [{ accountId32: { network: null, id } }] },
});

describe('V3/V4: the origin XCM pallet sends the program to the destination', () => {
  it('AssetHubPolkadot -> Hydration (V4 by default): weight from the destination\'s query_info, funds of the origin account there', async () => {
    const seen: unknown[][] = [];
    chains.Hydration.setRuntimeCall('TransactionPaymentApi_query_info', (args) => {
      seen.push(decodeArgs(chains.Hydration, 'TransactionPaymentApi_query_info', args));
      return queryInfo(1_234_567_890, 9_876)();
    });
    const call = remark('Hydration');
    expect(call).toBe('0x0107207472616e73616374'); // the example in openapi.yaml and docs/transfers-and-transact.md
    const decoded = await buildBoth({ from: 'AssetHubPolkadot', to: 'Hydration', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: String(DOT) }, transact: { hex: call } });
    expect(`${decoded.section}.${decoded.method}`).toBe('polkadotXcm.send');
    expect(decoded.args.dest).toEqual({ v4: { parents: 1, interior: { x1: [{ parachain: 2034 }] } } });
    const dot = { id: { parents: 1, interior: { here: null } }, fun: { fungible: Number(DOT) } };
    expect(decoded.args.message).toEqual({
      v4: [
        { withdrawAsset: [dot] },
        { buyExecution: { fees: dot, weightLimit: { unlimited: null } } },
        { transact: { originKind: 'SovereignAccount', requireWeightAtMost: { refTime: 1_234_567_890, proofSize: 9_876 }, call: { encoded: call } } },
        { expectTransactStatus: { success: null } },
        { refundSurplus: null },
        { depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary: beneficiary('v4') } },
      ],
    });
    // Asked once per family, with the call in an extrinsic (fake-)signed by the sender, and its length.
    expect(seen).toHaveLength(2);
    const [uxt, length] = seen[0] as [string, number];
    // The opaque argument holds the extrinsic's bytes; as an Extrinsic they carry their length first.
    const extrinsic = chains.Hydration.registry.createType('Extrinsic', chains.Hydration.registry.createType('Bytes', uxt).toU8a());
    expect(extrinsic.method.toHex()).toBe(call);
    expect(extrinsic.signer.toU8a()).toEqual(chains.Hydration.registry.createType('AccountId', BOB_ID).toU8a());
    expect(length).toBe(extrinsic.encodedLength);
  });

  it('AssetHubPolkadot -> Hydration with V3: the same program in V3 shapes, USDT (id 1984) as Hydration sees it', async () => {
    chains.Hydration.setRuntimeCall('TransactionPaymentApi_query_info', queryInfo(400_000_000, 3_000));
    const call = remark('Hydration');
    const decoded = await buildBoth({ from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' }, xcmVersion: 'V3', transact: { hex: call, originKind: 'Native' } });
    expect(`${decoded.section}.${decoded.method}`).toBe('polkadotXcm.send');
    expect(decoded.args.dest).toEqual({ v3: { parents: 1, interior: { x1: { parachain: 2034 } } } });
    const usdt = { id: { concrete: { parents: 1, interior: { x3: [{ parachain: 1000 }, { palletInstance: 50 }, { generalIndex: 1984 }] } } }, fun: { fungible: 2_500_000 } };
    expect(decoded.args.message).toEqual({
      v3: [
        { withdrawAsset: [usdt] },
        { buyExecution: { fees: usdt, weightLimit: { unlimited: null } } },
        { transact: { originKind: 'Native', requireWeightAtMost: { refTime: 400_000_000, proofSize: 3_000 }, call: { encoded: call } } },
        { expectTransactStatus: { success: null } },
        { refundSurplus: null },
        { depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary: beneficiary('v3') } },
      ],
    });
  });

  it('Polkadot -> AssetHubPolkadot with V3: XcmPallet.send, V3 shapes, the given maxWeight and origin kind, no estimate', async () => {
    const call = remark('AssetHubPolkadot');
    const decoded = await buildBoth({
      from: 'Polkadot',
      to: 'AssetHubPolkadot',
      // 0.01 DOT: Asset Hub's execution costs more than 1000 planck (the route check refuses that: TooExpensive).
      currency: { symbol: 'DOT', amount: '100000000' },
      xcmVersion: 'V3',
      recipient: BOB,
      transact: { hex: call, originKind: 'SuperUser', maxWeight: { refTime: '18446744073709551615', proofSize: '65536' } },
    });
    expect(`${decoded.section}.${decoded.method}`).toBe('xcmPallet.send');
    expect(decoded.args.dest).toEqual({ v3: { parents: 0, interior: { x1: { parachain: 1000 } } } });
    const dot = { id: { concrete: { parents: 1, interior: { here: null } } }, fun: { fungible: 100_000_000 } };
    expect(decoded.args.message).toEqual({
      v3: [
        { withdrawAsset: [dot] },
        { buyExecution: { fees: dot, weightLimit: { unlimited: null } } },
        { transact: { originKind: 'Superuser', requireWeightAtMost: { refTime: '18446744073709551615', proofSize: 65536 }, call: { encoded: call } } },
        { expectTransactStatus: { success: null } },
        { refundSurplus: null },
        { depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary: beneficiary('v3', BOB_ID) } },
      ],
    });
  });

  it('Polkadot -> AssetHubPolkadot with V4, each origin kind maps to its SCALE variant', async () => {
    chains.AssetHubPolkadot.setRuntimeCall('TransactionPaymentApi_query_info', queryInfo(5_000, 100));
    const kinds = { SovereignAccount: 'SovereignAccount', XCM: 'Xcm', Native: 'Native', SuperUser: 'Superuser' } as const;
    for (const [given, scale] of Object.entries(kinds)) {
      const decoded = await buildBoth({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, xcmVersion: 'V4', transact: { hex: remark('AssetHubPolkadot'), originKind: given } });
      const message = (decoded.args.message as { v4: Record<string, { originKind?: string; requireWeightAtMost?: unknown }>[] }).v4;
      expect(message[2]!.transact).toMatchObject({ originKind: scale, requireWeightAtMost: { refTime: 5_000, proofSize: 100 } });
    }
  });

  it("the ParaSpell XCM API's spellings build the same call: call for hex, Superuser and Xcm, weights as numbers, xcmVersion null", async () => {
    const call = remark('AssetHubPolkadot');
    const fields = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '100000000' }, xcmVersion: 'V3' };
    const documented = await buildBoth({ ...fields, transact: { hex: call, originKind: 'SuperUser', maxWeight: { refTime: '5000', proofSize: '100' } } });
    const upstream = await buildBoth({ ...fields, transact: { call, originKind: 'Superuser', maxWeight: { refTime: 5000, proofSize: 100 } } });
    expect(upstream).toEqual(documented);
    const both = await buildBoth({ ...fields, transact: { hex: call, call, originKind: 'Xcm', maxWeight: { refTime: 5000, proofSize: '100' } } });
    expect((both.args.message as { v3: { transact?: { originKind: string } }[] }).v3[2]!.transact!.originKind).toBe('Xcm');
    for (const family of FAMILIES) {
      const t = names(family).t;
      const differ = await post(family, body(family, { ...fields, transact: { hex: call, call: '0x0001' } })).expect(400);
      expectErrorBody(differ.body, 400, 'ValidationError');
      expect(differ.body.details[0].path).toBe(`body.${t}.call`);
      const none = await post(family, body(family, { ...fields, transact: { originKind: 'Native' } })).expect(400);
      expectErrorBody(none.body, 400, 'MissingParameterError');
      expect(none.body.details[0].path).toBe(`body.${t}.hex`);
      const fraction = await post(family, body(family, { ...fields, transact: { call, maxWeight: { refTime: 1.5, proofSize: 1 } } })).expect(400);
      expect(fraction.body.details[0].path).toBe(`body.${t}.maxWeight.refTime`);
    }
    // xcmVersion null is the default version, as if left out.
    const transact = { hex: call, maxWeight: { refTime: '1', proofSize: '1' } };
    const withNull = await post('v5', { ...body('v5', { ...fields, transact }), xcmVersion: null });
    const without = await post('v5', body('v5', { from: fields.from, to: fields.to, currency: fields.currency, transact }));
    expect(withNull.status, JSON.stringify(withNull.body)).toBe(without.status);
    expect({ ...withNull.body, requestId: undefined }).toEqual({ ...without.body, requestId: undefined });
    expect((await post('v5', { ...body('v5', { ...fields, transact }), xcmVersion: 'V9' })).status).toBe(400);
  });

  it('AssetHubKusama -> Kusama: a parachain sends to its relay, KSM as the relay sees it', async () => {
    const decoded = await buildBoth({
      from: 'AssetHubKusama',
      to: 'Kusama',
      currency: { symbol: { type: 'Native', value: 'KSM' }, amount: '5000' },
      xcmVersion: 'V4',
      recipient: 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F',
      sender: 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F',
      transact: { hex: remark('Kusama'), maxWeight: { refTime: '1000', proofSize: '10' } },
    });
    expect(`${decoded.section}.${decoded.method}`).toBe('polkadotXcm.send');
    expect(decoded.args.dest).toEqual({ v4: { parents: 1, interior: { here: null } } });
    const message = (decoded.args.message as { v4: Record<string, unknown>[] }).v4;
    expect(message[0]).toEqual({ withdrawAsset: [{ id: { parents: 0, interior: { here: null } }, fun: { fungible: 5000 } }] });
  });

  it('Hydration -> AssetHubPolkadot (V4): a non-system parachain may send to a trusted destination', async () => {
    chains.AssetHubPolkadot.setRuntimeCall('TransactionPaymentApi_query_info', queryInfo(77_000, 700));
    const call = remark('AssetHubPolkadot');
    const decoded = await buildBoth({ from: 'Hydration', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, transact: { hex: call } });
    expect(`${decoded.section}.${decoded.method}`).toBe('polkadotXcm.send');
    expect(decoded.args.dest).toEqual({ v4: { parents: 1, interior: { x1: [{ parachain: 1000 }] } } });
    const message = (decoded.args.message as { v4: Record<string, unknown>[] }).v4;
    expect(message[0]).toEqual({ withdrawAsset: [{ id: { parents: 1, interior: { here: null } }, fun: { fungible: Number(DOT) } }] });
    expect(message[2]).toEqual({ transact: { originKind: 'SovereignAccount', requireWeightAtMost: { refTime: 77_000, proofSize: 700 }, call: { encoded: call } } });
    expect(message[5]).toEqual({ depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary: beneficiary('v4') } });
  });

  it('a full extrinsic given by mistake is reduced to its call', async () => {
    chains.Hydration.setRuntimeCall('TransactionPaymentApi_query_info', queryInfo(10, 1));
    const tx = apis.Hydration.tx.system!.remarkWithEvent!('0x7472616e73616374');
    const fields = { from: 'AssetHubPolkadot', to: 'Hydration', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: String(DOT) } };
    const fromCall = await buildBoth({ ...fields, transact: { hex: tx.method.toHex() } });
    const fromExtrinsic = await buildBoth({ ...fields, transact: { hex: tx.toHex() } });
    expect(fromExtrinsic).toEqual(fromCall);
  });

  it('query_info failing is a 400 that asks for maxWeight; nothing half-built comes back', async () => {
    muteConsoleError();
    chains.Hydration.setRuntimeCall('TransactionPaymentApi_query_info', () => {
      throw new Error('Invalid transaction: Payment');
    });
    for (const family of FAMILIES) {
      const res = await post(family, body(family, { from: 'AssetHubPolkadot', to: 'Hydration', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: String(DOT) }, transact: { hex: remark('Hydration') } })).expect(400);
      expectErrorBody(res.body, 400, 'UnableToComputeError');
      expect(res.body.message).toContain('Hydration');
      expect(res.body.message).toContain('maxWeight');
    }
  });

  it('a hex that is no call of the destination is a 400 naming the decode failure', async () => {
    const res = await post('v5', body('v5', { from: 'AssetHubPolkadot', to: 'Hydration', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '1' }, transact: { hex: '0xff00ff00' } })).expect(400);
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(res.body.message).toMatch(/transact hex is not a call of Hydration \(spec \d+\): .+/);
    // A Polkadot call is not a Hydration call either (trailing bytes or a wrong index).
    const other = await post('v5', body('v5', { from: 'AssetHubPolkadot', to: 'Hydration', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '1' }, transact: { hex: apis.Polkadot.tx.balances!.transferKeepAlive!(ALICE, 1).method.toHex() } }));
    expect(other.status).toBe(400);
  });
});

// ---- V5 ----------------------------------------------------------------------------------

interface V5Setup {
  originFails?: boolean;
  destinationOutcome?: unknown;
  fee?: bigint;
}

/** A runtime call's arguments as the chain reads them (JSON of the metadata's input types). */
function decodeArgs(chain: TestChain, fn: string, bytes: Uint8Array): unknown[] {
  const registry = chain.registry;
  const [api, method] = [fn.slice(0, fn.indexOf('_')), fn.slice(fn.indexOf('_') + 1)];
  const inputs = registry.metadata.apis.find((a) => a.name.eq(api))!.methods.find((m) => m.name.eq(method))!.inputs;
  const types = inputs.map((i) => registry.createLookupType(i.type));
  // `(A)` is not a tuple to polkadot.js: one argument is read as itself.
  return types.length === 1 ? [registry.createType(types[0]!, bytes).toJSON()] : (registry.createType(`(${types.join(',')})`, bytes).toJSON() as unknown[]);
}

interface V5Route {
  from: TestChainName;
  to: TestChainName;
  /** `to` as `from` sees it, and `from` as `to` sees it (V5 JSON). */
  destination: unknown;
  originOnDestination: { parents: number; interior: Record<string, unknown> | 'Here' };
  /** How `to` receives the asset: ReceiveTeleportedAsset or ReserveAssetDeposited. */
  receive: string;
}

const POLKADOT_TO_AH: V5Route = { from: 'Polkadot', to: 'AssetHubPolkadot', destination: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } }, originOnDestination: { parents: 1, interior: 'Here' }, receive: 'ReceiveTeleportedAsset' };
const AH_TO_HYDRATION: V5Route = { from: 'AssetHubPolkadot', to: 'Hydration', destination: { parents: 1, interior: { X1: [{ Parachain: 2034 }] } }, originOnDestination: { parents: 1, interior: { X1: [{ Parachain: 1000 }] } }, receive: 'ReserveAssetDeposited' };

/**
 * Answers shaped like a real chain's for the V5 path: the origin's dry run forwards the message
 * the destination would get, the destination's dry run reports the weight it used, XcmPaymentApi
 * prices it and weighs the program. Records each call's decoded arguments.
 */
function configureV5(route: V5Route, setup: V5Setup = {}) {
  const seen: Record<string, unknown[][]> = {};
  const record = (chain: TestChain, fn: string, args: Uint8Array) => (seen[fn] ??= []).push(decodeArgs(chain, fn, args));
  const junctions = route.originOnDestination.interior === 'Here' ? [] : (Object.values(route.originOnDestination.interior)[0] as unknown[]);
  const dot = { parents: 1, interior: 'Here' };
  const forwarded = {
    V5: [
      { [route.receive]: [{ id: dot, fun: { Fungible: 4_000_000_000 } }] },
      { PayFees: { asset: { id: dot, fun: { Fungible: 4_000_000_000 } } } },
      { [route.receive]: [{ id: dot, fun: { Fungible: 5_000_000_000 } }] },
      { AliasOrigin: { parents: 1, interior: { [`X${junctions.length + 1}`]: [...junctions, { AccountId32: { network: null, id: BOB_ID } }] } } },
      { Transact: { originKind: 'SovereignAccount', fallbackMaxWeight: null, call: { encoded: '0x0000' } } },
      { ExpectTransactStatus: 'Success' },
      'RefundSurplus',
      { DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: ALICE_ID } }] } } } },
    ],
  };
  const origin = chains[route.from];
  const destination = chains[route.to];
  origin.setRuntimeCall('DryRunApi_dry_run_call', (args) => {
    record(origin, 'DryRunApi_dry_run_call', args);
    if (setup.originFails) {
      return { Ok: { executionResult: { Err: { postInfo: { actualWeight: null, paysFee: 'Yes' }, error: { Module: { index: 99, error: '0x18000000' } } } }, emittedEvents: [], localXcm: null, forwardedXcms: [] } };
    }
    return { Ok: { executionResult: { Ok: { actualWeight: null, paysFee: 'Yes' } }, emittedEvents: [], localXcm: null, forwardedXcms: [[{ V5: route.destination }, [forwarded]]] } };
  });
  destination.setRuntimeCall('DryRunApi_dry_run_xcm', (args) => {
    record(destination, 'DryRunApi_dry_run_xcm', args);
    return { Ok: { executionResult: setup.destinationOutcome ?? { Complete: { used: { refTime: 3_000_000_000, proofSize: 50_000 } } }, emittedEvents: [], forwardedXcms: [] } };
  });
  destination.setRuntimeCall('XcmPaymentApi_query_weight_to_asset_fee', (args) => {
    record(destination, 'XcmPaymentApi_query_weight_to_asset_fee', args);
    return { Ok: setup.fee ?? 100_000_000n };
  });
  origin.setRuntimeCall('XcmPaymentApi_query_xcm_weight', (args) => {
    record(origin, 'XcmPaymentApi_query_xcm_weight', args);
    return { Ok: { refTime: 7_777_777, proofSize: 8_888 } };
  });
  return seen;
}

describe('V5: the origin executes InitiateTransfer carrying the Transact', () => {
  it('Polkadot -> AssetHubPolkadot: teleport, remote fees = destination price padded by 40%, max_weight from query_xcm_weight', async () => {
    const seen = configureV5(POLKADOT_TO_AH);
    const call = remark('AssetHubPolkadot');
    const decoded = await buildBoth({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, transact: { hex: call, originKind: 'XCM' } });
    expect(`${decoded.section}.${decoded.method}`).toBe('xcmPallet.execute');
    expect(decoded.args.max_weight).toEqual({ refTime: 7_777_777, proofSize: 8_888 });
    const here = { parents: 0, interior: { here: null } };
    expect(decoded.args.message).toEqual({
      v5: [
        { withdrawAsset: [{ id: here, fun: { fungible: Number(DOT) } }] },
        { setFeesMode: { jitWithdraw: true } },
        {
          initiateTransfer: {
            destination: { parents: 0, interior: { x1: [{ parachain: 1000 }] } },
            remoteFees: { teleport: { definite: [{ id: here, fun: { fungible: 140_000_000 } }] } },
            preserveOrigin: true,
            assets: [{ teleport: { wild: { allOf: { id: here, fun: 'Fungible' } } } }],
            remoteXcm: [
              { transact: { originKind: 'Xcm', fallbackMaxWeight: null, call: { encoded: call } } },
              { expectTransactStatus: { success: null } },
              { refundSurplus: null },
              { depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary: beneficiary('v5') } },
            ],
          },
        },
      ],
    });
    // Each runtime call once per family, with the arguments a real chain would read:
    const [dryRun] = seen['DryRunApi_dry_run_call']!;
    expect(seen['DryRunApi_dry_run_call']).toHaveLength(2);
    // the first version of the program, as the sender, forwarded messages asked in V5;
    expect(dryRun![0]).toEqual({ system: { signed: BOB } });
    const draft = (dryRun![1] as { args: { message: { v5: Record<string, { remoteFees: unknown }>[] } } }).args.message.v5;
    expect(draft[2]!.initiateTransfer!.remoteFees).toEqual({ teleport: { definite: [{ id: here, fun: { fungible: Number(DOT / 2n) } }] } });
    expect(dryRun![2]).toBe(5);
    // the forwarded message, from Polkadot as the asset hub sees it;
    const [xcmDryRun] = seen['DryRunApi_dry_run_xcm']!;
    expect(xcmDryRun![0]).toEqual({ v5: { parents: 1, interior: { here: null } } });
    expect(Object.keys((xcmDryRun![1] as { v5: object[] }).v5[0]!)).toEqual(['receiveTeleportedAsset']);
    // the weight that run used, priced in DOT as the asset hub sees it;
    expect(seen['XcmPaymentApi_query_weight_to_asset_fee']![0]).toEqual([{ refTime: 3_000_000_000, proofSize: 50_000 }, { v5: { parents: 1, interior: { here: null } } }]);
    // and the final program weighed on the origin.
    expect(seen['XcmPaymentApi_query_xcm_weight']![0]).toEqual([decoded.args.message]);
  });

  it('AssetHubPolkadot -> Hydration with xcmVersion V5: reserve deposit of DOT, maxWeight as the fallback weight', async () => {
    const seen = configureV5(AH_TO_HYDRATION, { fee: 1_000n });
    const call = remark('Hydration');
    const decoded = await buildBoth({ from: 'AssetHubPolkadot', to: 'Hydration', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: String(DOT) }, xcmVersion: 'V5', transact: { hex: call, maxWeight: { refTime: '2000', proofSize: '30' } } });
    expect(`${decoded.section}.${decoded.method}`).toBe('polkadotXcm.execute');
    expect(decoded.args.max_weight).toEqual({ refTime: 7_777_777, proofSize: 8_888 });
    const dot = { parents: 1, interior: { here: null } };
    expect(decoded.args.message).toEqual({
      v5: [
        { withdrawAsset: [{ id: dot, fun: { fungible: Number(DOT) } }] },
        { setFeesMode: { jitWithdraw: true } },
        {
          initiateTransfer: {
            destination: { parents: 1, interior: { x1: [{ parachain: 2034 }] } },
            remoteFees: { reserveDeposit: { definite: [{ id: dot, fun: { fungible: 1_400 } }] } },
            preserveOrigin: true,
            assets: [{ reserveDeposit: { wild: { allOf: { id: dot, fun: 'Fungible' } } } }],
            remoteXcm: [
              { transact: { originKind: 'SovereignAccount', fallbackMaxWeight: { refTime: 2000, proofSize: 30 }, call: { encoded: call } } },
              { expectTransactStatus: { success: null } },
              { refundSurplus: null },
              { depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary: beneficiary('v5') } },
            ],
          },
        },
      ],
    });
    // Hydration dry-runs the message as coming from the asset hub.
    expect(seen['DryRunApi_dry_run_xcm']![0]![0]).toEqual({ v5: { parents: 1, interior: { x1: [{ parachain: 1000 }] } } });
  });

  it('the execute failing on the origin is a 400 naming the chain and the pallet error', async () => {
    configureV5(POLKADOT_TO_AH, { originFails: true });
    const res = await post('v5', body('v5', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, transact: { hex: remark('AssetHubPolkadot') } })).expect(400);
    expectErrorBody(res.body, 400, 'DryRunFailedError');
    expect(res.body.message).toMatch(/^The execute fails on Polkadot for 14E5n\w+: xcmPallet\.LocalExecutionIncomplete /);
  });

  it('the message failing on the destination (no aliasing) is a 400 that points to V4', async () => {
    configureV5(POLKADOT_TO_AH, {
      destinationOutcome: { Incomplete: { used: { refTime: 1, proofSize: 1 }, error: { index: 2, error: 'NoPermission' } } },
    });
    const res = await post('v2', body('v2', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, transact: { hex: remark('AssetHubPolkadot') }, extra: {} })).expect(400);
    expectErrorBody(res.body, 400, 'DryRunFailedError');
    expect(res.body.message).toContain('fails on AssetHubPolkadot');
    expect(res.body.message).toContain('NoPermission');
    expect(res.body.message).toContain('xcmVersion V4');
  });

  it('an amount that does not cover the padded remote fee is a 400 saying how much is needed', async () => {
    configureV5(POLKADOT_TO_AH, { fee: 1_000n });
    const res = await post('v5', body('v5', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1400' }, transact: { hex: remark('AssetHubPolkadot') } })).expect(400);
    expectErrorBody(res.body, 400, 'AmountTooLowError');
    expect(res.body.message).toContain('more than 1400');
  });

  it('an asset the destination does not take for fees is a 400 saying to pick another currency', async () => {
    configureV5(POLKADOT_TO_AH);
    chains.AssetHubPolkadot.setRuntimeCall('XcmPaymentApi_query_weight_to_asset_fee', () => ({ Err: 'AssetNotFound' }));
    const res = await post('v5', body('v5', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, transact: { hex: remark('AssetHubPolkadot') } })).expect(400);
    expectErrorBody(res.body, 400, 'UnableToComputeError');
    expect(res.body.message).toBe('AssetHubPolkadot does not take DOT for execution fees ("AssetNotFound"); pick another currency');
  });

  it('a runtime API the chain cannot answer is a 400 naming the chain and the call', async () => {
    muteConsoleError();
    configureV5(POLKADOT_TO_AH);
    chains.Polkadot.setRuntimeCall('XcmPaymentApi_query_xcm_weight', undefined);
    const res = await post('v5', body('v5', { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, transact: { hex: remark('AssetHubPolkadot') } })).expect(400);
    expectErrorBody(res.body, 400, 'UnableToComputeError');
    expect(res.body.message).toMatch(/XcmPaymentApi_query_xcm_weight\) failed on Polkadot/);
  });

  it('a chain without DryRunApi/XcmPaymentApi in the registry is refused before dialling with RuntimeApiUnavailableError', async () => {
    // The registry lists neither for KiltSpiritnet.
    const down = { development: true, apiOverrides: { AssetHubPolkadot: await refusedUrl(), KiltSpiritnet: await refusedUrl() }, abstractDecimals: false };
    const res = await post('v5', { ...body('v5', { from: 'AssetHubPolkadot', to: 'KiltSpiritnet', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '1' }, xcmVersion: 'V5', transact: { hex: '0x0000' } }), options: down }).expect(400);
    expectErrorBody(res.body, 400, 'RuntimeApiUnavailableError');
    expect(res.body.message).toContain('KiltSpiritnet');
  });
});

describe.each(FAMILIES)('/%s transact: refused before any chain is dialled', (family) => {
  const n = names(family);
  let down: Record<string, unknown>;
  beforeAll(async () => {
    const url = await refusedUrl();
    down = { development: true, apiOverrides: Object.fromEntries(['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Moonbeam', 'Astar', 'Acala', 'AssetHubKusama'].map((c) => [c, url])), abstractDecimals: false };
  });
  const valid = (extra: Record<string, unknown> = {}) => ({
    from: 'AssetHubPolkadot',
    to: 'Hydration',
    currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '1000' },
    [n.r]: ALICE,
    [n.s]: BOB,
    [n.t]: { hex: '0x0000' },
    options: down,
    ...extra,
  });

  it.each([
    ['a local transfer', { to: 'AssetHubPolkadot' }, 'UnsupportedOperationError', /from and to must differ/],
    ['several currencies', { currency: [{ symbol: 'DOT', amount: '1' }, { symbol: 'USDT', amount: '1' }], feeAsset: { symbol: 'DOT' } }, 'UnsupportedOperationError', /one currency/],
    ['an XTokens-only origin', { from: 'Acala', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' } }, 'UnsupportedOperationError', /Acala sends XCM only through XTokens/],
    ['a route without a trusted chain', { from: 'Astar', to: 'Hydration', currency: { symbol: 'DOT', amount: '1' } }, 'UnsupportedOperationError', /trusted chain at one end.*Astar.*Hydration/],
    ['an EVM chain', { to: 'Moonbeam', [n.r]: '0x24D18dbFBcEd732EAdF98EE520853e13909fE258' }, 'UnsupportedOperationError', /Substrate chains only/],
    ['across ecosystems', { to: 'AssetHubKusama' }, 'UnsupportedOperationError', /different relay chains/],
    ['a custom location as destination', { to: { parents: 1, interior: { X1: [{ Parachain: 2034 }] } } }, 'ValidationError', /chain name/],
    ['ALL as the amount', { currency: { symbol: { type: 'Native', value: 'DOT' }, amount: 'ALL' } }, 'NumberFormatError', /definite amount/],
    ['a feeAsset', { feeAsset: { symbol: 'DOT' } }, 'ValidationError', /leave feeAsset out/],
    ['a custom pallet', { pallet: 'PolkadotXcm', method: 'send' }, 'ValidationError', /leave pallet and method out/],
  ])('%s', async (_name, extra, kind, message) => {
    const res = await post(family, valid(extra)).expect(400);
    expectErrorBody(res.body, 400, kind);
    expect(res.body.message).toMatch(message);
  });

  it.each([
    ['malformed hex', { hex: '0xabc' }, `body.${n.t}.hex`, /0x-prefixed hex/],
    ['an unknown originKind', { hex: '0x00', originKind: 'Root' }, `body.${n.t}.originKind`, /SovereignAccount, XCM, Native or SuperUser/],
    ['a weight that is not a number', { hex: '0x00', maxWeight: { refTime: '1.5', proofSize: '1' } }, `body.${n.t}.maxWeight.refTime`, /whole number/],
    ['a weight above 64 bits', { hex: '0x00', maxWeight: { refTime: '1', proofSize: '18446744073709551616' } }, `body.${n.t}.maxWeight.proofSize`, /64 bits/],
    ['a weight without proofSize', { hex: '0x00', maxWeight: { refTime: '1' } }, `body.${n.t}.maxWeight.proofSize`, /required/],
  ])('%s is a 400 naming the field', async (_name, payload, path, message) => {
    const res = await post(family, valid({ [n.t]: payload })).expect(400);
    expectErrorBody(res.body, 400);
    const detail = res.body.details.find((d: { path: string }) => d.path === path);
    expect(detail?.message).toMatch(message);
  });

  it('the sender is required with transact', async () => {
    const { [n.s]: _sender, ...rest } = valid();
    const res = await post(family, rest).expect(400);
    expectErrorBody(res.body, 400, 'MissingParameterError');
    expect(res.body.details).toEqual([{ path: `body.${n.s}`, message: `is required with ${n.t}` }]);
  });

  it('pre-flight queries refuse the payload with a 400 that points to /x-transfer', async () => {
    const res = await request(app).post(`/${family}/dry-run`).send(valid()).expect(400);
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(res.body.details).toEqual([{ path: `body.${n.t}`, message: `is not accepted by pre-flight queries: build the transact with POST /${family}/x-transfer and dry-run that call on the chain` }]);
  });

  it('a transact inside a batch is a 400 pointing to /x-transfer', async () => {
    const { options, ...transfer } = valid();
    const res = await request(app).post(`/${family}/x-transfer-batch`).send({ transfers: [transfer], options }).expect(400);
    expectErrorBody(res.body, 400, 'BatchValidationError');
    expect(res.body.details).toEqual([{ path: `body.transfers.0.${n.t}`, message: `is not supported inside a batch: build the transact alone with POST /${family}/x-transfer` }]);
  });

  it('a valid request does dial: the refused endpoint is a 503 naming the chain', async () => {
    const res = await post(family, valid()).expect(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
  });
});

describe('checkTransactRequest (for the shared pre-dial checks)', () => {
  const request = (extra: Partial<TransactCandidate>): TransactCandidate => ({
    from: 'AssetHubPolkadot',
    to: 'Hydration',
    currency: { symbol: 'DOT', amount: '1' },
    recipient: ALICE,
    sender: BOB,
    options: { development: true, abstractDecimals: false, xcmFormatCheck: false, apiOverrides: {} },
    ...extra,
  });

  it('has nothing to check without a payload, and passes a valid one', () => {
    expect(() => checkTransactRequest(request({ to: 'AssetHubPolkadot' }))).not.toThrow();
    expect(() => checkTransactRequest(request({ transact: { hex: '0x00', originKind: 'SovereignAccount' } }))).not.toThrow();
  });

  it('refuses swapOptions (which only other bodies carry) with what to do instead', () => {
    expect(() => checkTransactRequest(request({ transact: { hex: '0x00', originKind: 'SovereignAccount' }, swapOptions: { currencyTo: { symbol: 'HDX' } } }))).toThrow(
      /transact cannot be combined with swapOptions: build the swap \(POST \/x-transfers\) and the transact as two transfers/,
    );
  });
});
