// /explain within the bounds a real chain keeps (issue 42, part 1): XCM a chain would not decode is
// a 400 naming where; call data inside the bounds but built to cost (many distinct unlisted
// assets, reserve sends nested as deep as a chain decodes) is answered with its hops, warnings
// and size capped.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { until } from '../helpers/transfer-status';
import { chainsForFile } from '../support/chains-for-file';
import { callData, executeCall, hostileProgram, nestedReserveSends, unlistedAssets } from '../support/hostile-programs';

const { app, services } = testApp();
const { chains, overrides } = chainsForFile(['AssetHubPolkadot', 'Polkadot', 'Hydration', 'Moonbeam', 'BridgeHubPolkadot', 'AssetHubKusama'], services);
const registry = () => chains.AssetHubPolkadot.registry;

interface Hop {
  chain: string;
  ok: boolean;
  problems: { at: string; message: string }[];
  warnings: { at: string; message: string }[];
}

const explain = (hex: string, family: string = 'v5', chain = 'AssetHubPolkadot') =>
  request(app).post(`/${family}/explain`).send({ chain, hex, options: { development: true, apiOverrides: overrides } });

async function refused(hex: string, place: RegExp): Promise<void> {
  for (const family of FAMILIES) {
    const res = await explain(hex, family);
    expectErrorBody(res.body, 400, 'XcmBoundsError');
    expect(res.body.message).toMatch(place);
    expect(res.body.details).toEqual([{ path: 'body.hex', message: expect.stringMatching(place) }]);
  }
}

describe('XCM a chain would not decode: a 400 naming where, in both families', () => {
  it('programs nested 33 deep (MAX_EXPLAIN_NESTING is 32); 32 deep is read', async () => {
    await refused(executeCall(registry(), nestedReserveSends(32)), /polkadotXcm\.execute message(\.0\.DepositReserveAsset\.xcm){32}: programs nested 33 deep/);
    expect((await explain(executeCall(registry(), nestedReserveSends(31)))).status).toBe(200);
  });

  it('a call whose program nests past 8 is read (a chain decodes it): the hop that would send a message past MAX_XCM_DECODE_DEPTH says so', async () => {
    const res = await explain(executeCall(registry(), nestedReserveSends(9)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const route = res.body.route as Hop[];
    expect(route[0]!.ok, JSON.stringify(route[0])).toBe(false);
    expect(route[0]!.problems).toContainEqual({ at: 'DepositReserveAsset.dest', message: expect.stringMatching(/nests programs 9 deep: more than MAX_XCM_DECODE_DEPTH \(8\).*ExceedsMaxMessageSize/) });
  });

  it('21 assets in one list (MAX_ITEMS_IN_ASSETS is 20); 20 are read', async () => {
    await refused(executeCall(registry(), [{ WithdrawAsset: unlistedAssets(21) }]), /polkadotXcm\.execute message\.0\.WithdrawAsset: 21 assets in one list/);
    expect((await explain(executeCall(registry(), [{ WithdrawAsset: unlistedAssets(20) }]))).status).toBe(200);
  });

  it('101 instructions in one message, nested ones counted (MAX_INSTRUCTIONS_TO_DECODE is 100)', async () => {
    await refused(executeCall(registry(), [...Array.from({ length: 95 }, () => ({ ClearOrigin: null })), ...nestedReserveSends(6)]), /polkadotXcm\.execute message(\.\d+\.DepositReserveAsset\.xcm)+: more than 100 instructions/);
  });

  it('more than 64 assets brought into one program\'s holding (MaxAssetsIntoHolding): four lists of 20', async () => {
    await refused(executeCall(registry(), hostileProgram(4, 20, 1)), /polkadotXcm\.execute message\.3\.WithdrawAsset: more than 64 assets brought into the holding/);
  });

  it('a message of more than 12,402 bytes (MAX_XCM_ENCODED_SIZE), inside a batch', async () => {
    const transact = { Transact: { originKind: 'SovereignAccount', requireWeightAtMost: { refTime: 1, proofSize: 1 }, call: { encoded: `0x${'00'.repeat(12_500)}` } } };
    const execute = executeCall(registry(), [transact]);
    const batch = callData(registry(), 'Utility', 'batch_all', { calls: [executeCall(registry(), [{ ClearOrigin: null }]), execute] });
    await refused(batch, /utility\.batchAll call 2: polkadotXcm\.execute message: \d+ bytes, more than the 12402/);
  });
});

describe('call data past the explanation\'s own bounds, or that does not decode: a 400 from the scan before decoding, in both families', () => {
  it('a batch of 128 remarks (129 calls, MAX_EXPLAIN_CALLS is 128); 127 are read', async () => {
    const remarks = (n: number) => callData(registry(), 'Utility', 'batch', { calls: Array.from({ length: n }, () => callData(registry(), 'System', 'remark', { remark: '0x' })) });
    for (const family of FAMILIES) {
      const res = await explain(remarks(128), family);
      expectErrorBody(res.body, 400, 'ExplanationTooLargeError');
      expect(res.body.details).toEqual([{ path: 'body.hex', message: expect.stringMatching(/holds 129 calls .*MAX_EXPLAIN_CALLS/) }]);
    }
    expect((await explain(remarks(127))).status).toBe(200);
  });

  it('a program nested 1,000 deep in 2 kB (polkadot.js decoded it until its stack ran out): UndecodableCallError naming the argument', async () => {
    const polkadotXcmExecute = callData(registry(), 'PolkadotXcm', 'execute', { message: { V4: [] }, max_weight: { refTime: 0, proofSize: 0 } }).slice(0, 6);
    for (const family of FAMILIES) {
      const res = await explain(`${polkadotXcmExecute}0404${'1604'.repeat(1_000)}0a0000`, family);
      expectErrorBody(res.body, 400, 'UndecodableCallError');
      expect(res.body.message).toMatch(/at byte 2: argument message of polkadotXcm\.execute: values nested more than 1024 deep/);
    }
  });
});

describe('call data inside the bounds, built to cost', () => {
  it('60 distinct unlisted assets sent through 7 nested reserve hops: 16 checked, the others carried on, every hop walked', async () => {
    for (const family of FAMILIES) {
      const res = await explain(executeCall(registry(), hostileProgram(3, 20, 7)), family);
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
      const route = res.body.route as Hop[];
      expect(route.map((h) => h.chain)).toEqual(['AssetHubPolkadot', ...Array.from({ length: 7 }, (_, i) => (i % 2 === 0 ? 'Hydration' : 'AssetHubPolkadot'))]);
      for (const hop of route) {
        expect(hop.warnings.length).toBeLessThanOrEqual(22);
        expect(hop.problems.length).toBeLessThanOrEqual(21);
        expect(new Set(hop.warnings.map((w) => `${w.at} ${w.message}`)).size).toBe(hop.warnings.length);
      }
      expect(route[0]!.warnings.filter((w) => /registry does not list/.test(w.message))).toHaveLength(16);
      expect(route[0]!.warnings.at(-1)?.message).toMatch(/^more than 16 distinct assets move: the others are carried on but not checked \(MAX_WALK_ASSETS\)/);
    }
  });

  it('a message sent on to 40 chains: the walk stops at 32 hops (MAX_ROUTE_HOPS) and its last hop says so', async () => {
    const sends = Array.from({ length: 40 }, () => nestedReserveSends(1)[0]!);
    const res = await explain(executeCall(registry(), [{ WithdrawAsset: unlistedAssets(1) }, ...sends]));
    expect(res.status).toBe(200);
    const route = res.body.route as Hop[];
    expect(route).toHaveLength(32);
    expect(route.at(-1)!.warnings).toContainEqual({ at: 'route', message: expect.stringMatching(/reaches more than 32 chains \(MAX_ROUTE_HOPS\)/) });
  });

  it('a batch of 40 programs of 100 instructions: a 400 past 256 instructions in the call data (MAX_CALL_INSTRUCTIONS)', async () => {
    const program = executeCall(registry(), Array.from({ length: 100 }, () => ({ ClearOrigin: null })));
    await refused(callData(registry(), 'Utility', 'batch_all', { calls: Array.from({ length: 40 }, () => program) }), /utility\.batchAll call 3: polkadotXcm\.execute message: more than 256 instructions in the call data's messages together/);
  });

  it('a batch of 30 programs of 60 assets: a 400 past 128 assets in the call data (MAX_CALL_ASSETS)', async () => {
    const program = executeCall(registry(), hostileProgram(3, 20, 7));
    await refused(callData(registry(), 'Utility', 'batch_all', { calls: Array.from({ length: 30 }, () => program) }), /utility\.batchAll call 3: polkadotXcm\.execute message\.0\.WithdrawAsset: more than 128 assets listed/);
  });
});

const remark = (chain: keyof typeof chains) => callData(chains[chain].registry, 'System', 'remark', { remark: '0x1234' });

/** xcmPallet.send from the relay to parachain `id`, Transacting `remark(chain)` there. */
const transactAt = (id: number, chain: keyof typeof chains) =>
  callData(chains.Polkadot.registry, 'XcmPallet', 'send', {
    dest: { V4: { parents: 0, interior: { X1: [{ Parachain: id }] } } },
    message: {
      V4: [
        { UnpaidExecution: { weightLimit: 'Unlimited', checkOrigin: null } },
        { Transact: { originKind: 'SovereignAccount', requireWeightAtMost: { refTime: 1_000_000, proofSize: 10_000 }, call: { encoded: remark(chain) } } },
      ],
    },
  });

type TransactStep = { chain: string; instruction: string; transact?: { call?: { pallet?: string; undecoded?: string } } };
const transactsOf = (body: { xcm: TransactStep[] }) => body.xcm.filter((s) => s.instruction === 'Transact').map((t) => [t.chain, t.transact?.call?.pallet ?? t.transact?.call?.undecoded]);

describe('a walk dials only the chains its route reaches, at most 2 besides the origin (issue 42, part 2)', () => {
  it('Transacts sent to five chains: decoded on the first two the route reaches; the next two, and a chain of another consensus, shown as bytes with a warning, never dialled', async () => {
    const calls = [
      transactAt(1000, 'AssetHubPolkadot'),
      transactAt(2034, 'Hydration'),
      transactAt(2004, 'Moonbeam'),
      transactAt(1002, 'BridgeHubPolkadot'),
      // Read on the relay, a location of Kusama's asset hub; the relay has no bridge: no hop goes there.
      callData(chains.Polkadot.registry, 'XcmPallet', 'send', {
        dest: { V4: { parents: 1, interior: { X2: [{ GlobalConsensus: 'Kusama' }, { Parachain: 1000 }] } } },
        message: { V4: [{ Transact: { originKind: 'SovereignAccount', requireWeightAtMost: { refTime: 1, proofSize: 1 }, call: { encoded: remark('AssetHubKusama') } } }] },
      }),
    ];
    const hex = callData(chains.Polkadot.registry, 'Utility', 'batch_all', { calls });
    // Other tests of the file (in any order) may have dialled them: only this test's dials count.
    const dials = () => [chains.Moonbeam.connectionsOpened, chains.BridgeHubPolkadot.connectionsOpened, chains.AssetHubKusama.connectionsOpened];
    const before = dials();
    for (const family of FAMILIES) {
      const res = await explain(hex, family, 'Polkadot');
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
      expect(transactsOf(res.body)).toEqual([
        ['AssetHubPolkadot', 'system'],
        ['Hydration', 'system'],
        ['Moonbeam', expect.stringMatching(/at most 2 chains besides its own \(MAX_TRANSACT_CHAINS\)/)],
        ['BridgeHubPolkadot', expect.stringMatching(/at most 2 chains besides its own \(MAX_TRANSACT_CHAINS\)/)],
        ['AssetHubKusama', expect.stringMatching(/route does not reach AssetHubKusama/)],
      ]);
      const warnings = (res.body.warnings as { code: string; message: string }[]).filter((w) => w.code === 'TransactNotDecoded');
      expect(warnings.map((w) => w.message)).toEqual(['Moonbeam', 'BridgeHubPolkadot', 'AssetHubKusama'].map((chain) => expect.stringMatching(new RegExp(`on ${chain} is shown as bytes`))));
    }
    expect(dials()).toEqual(before);
  });

  it('a client\'s walks dial through its own budget: no shared connection or another client\'s is closed for them; past the budget the call stays bytes, saying why', async () => {
    // The file's chains are the operator's (the shared registry): three at most (MAX_CHAINS), one of a client's own.
    const endpoints = Object.fromEntries(Object.entries(chains).map(([name, chain]) => [name, chain.url]));
    const shared = testApp({ TRUST_PROXY: 'loopback', MAX_CHAINS: '3', MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: '1', CHAIN_ENDPOINTS: JSON.stringify(endpoints) });
    const as = (client: string, family: string, chain: string, hex: string) =>
      request(shared.app).post(`/${family}/explain`).set('X-Forwarded-For', client).send({ chain, hex });
    const open = () => Object.fromEntries(Object.entries(chains).map(([name, chain]) => [name, chain.openConnections]));
    try {
      const before = open();
      // Another client leaves the shared side full: Polkadot, BridgeHubPolkadot and AssetHubKusama, idle.
      for (const chain of ['Polkadot', 'BridgeHubPolkadot', 'AssetHubKusama'] as const) {
        expect((await as('203.0.113.2', 'v5', chain, remark(chain))).status).toBe(200);
      }
      const held = open();
      const hex = callData(chains.Polkadot.registry, 'Utility', 'batch_all', { calls: [transactAt(1000, 'AssetHubPolkadot'), transactAt(2034, 'Hydration')] });
      const hydrationDials = chains.Hydration.connectionsOpened;
      for (const family of FAMILIES) {
        const res = await as('203.0.113.1', family, 'Polkadot', hex);
        expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
        // The asset hub's call on a connection of the client's own; Hydration's would be a second.
        expect(transactsOf(res.body)).toEqual([
          ['AssetHubPolkadot', 'system'],
          ['Hydration', expect.stringMatching(/not decoded: Hydration is not connected, and this client's connections are spent \(1 connections to endpoints this client named \(MAX_OVERRIDE_CONNECTIONS_PER_CLIENT\)\)/)],
        ]);
        expect((res.body.warnings as { code: string; message: string }[]).filter((w) => w.code === 'TransactNotDecoded').map((w) => w.message)).toEqual([
          expect.stringMatching(/^The call a Transact dispatches on Hydration is shown as bytes \(callHex\), not decoded: Hydration is not connected/),
        ]);
      }
      // Counted at the nodes: the walks opened one connection of their own, and the other client's
      // are still there (its explanations dial nothing again).
      expect(chains.Hydration.connectionsOpened).toBe(hydrationDials);
      const dials = () => [chains.Polkadot.connectionsOpened, chains.BridgeHubPolkadot.connectionsOpened, chains.AssetHubKusama.connectionsOpened];
      const dialled = dials();
      for (const chain of ['Polkadot', 'BridgeHubPolkadot', 'AssetHubKusama'] as const) {
        expect((await as('203.0.113.2', 'v2', chain, remark(chain))).status).toBe(200);
      }
      expect(dials()).toEqual(dialled);
      expect(open()).toEqual({ ...held, AssetHubPolkadot: held.AssetHubPolkadot! + 1 });
      expect(held).toEqual({ ...before, Polkadot: before.Polkadot! + 1, BridgeHubPolkadot: before.BridgeHubPolkadot! + 1, AssetHubKusama: before.AssetHubKusama! + 1 });

      // The other way round, the client closes its own idle connection to dial Hydration: still one of its own.
      const reversed = callData(chains.Polkadot.registry, 'Utility', 'batch_all', { calls: [transactAt(2034, 'Hydration'), transactAt(1000, 'AssetHubPolkadot')] });
      const res = await as('203.0.113.1', 'v5', 'Polkadot', reversed);
      expect(transactsOf(res.body)).toEqual([
        ['Hydration', 'system'],
        ['AssetHubPolkadot', expect.stringMatching(/not decoded: AssetHubPolkadot is not connected, and this client's connections are spent/)],
      ]);
      await until(() => chains.AssetHubPolkadot.openConnections === held.AssetHubPolkadot, 'the client\'s own idle connection to close');
      expect(open()).toEqual({ ...held, Hydration: held.Hydration! + 1 });
    } finally {
      await shared.services.close();
    }
  });
});
