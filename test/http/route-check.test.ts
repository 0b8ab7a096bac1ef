// The route check: call data is followed hop by hop before it is answered. Hand-made calls, encoded
// with the test chains' real metadata, each carry one problem the check names, at the hop where the
// message fails; /x-transfer refuses the one route the SDK builds wrong; /explain answers the same walk.
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/http/app';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { createServices } from '../../src/service';
import { FAMILIES, expectErrorBody, testConfig } from '../helpers/app';
import { startTestChain, type TestChain, type TestChainName } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Moonbeam'];

// The app logs at info level into `lines`: a refusal must be logged at error level with the request.
const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const config = testConfig({ LOG_LEVEL: 'info' });
const logger = pino({ level: 'info' }, sink);
const services = createServices(config, logger);
const app = createApp({ config, logger, services });

const chains = {} as Record<TestChainName, TestChain>;
const apis = {} as Record<TestChainName, ApiPromise>;
const overrides: Record<string, string> = {};

beforeAll(async () => {
  for (const name of NAMES) {
    chains[name] = await startTestChain(name, { partialFee: 1_000_000n });
    overrides[name] = chains[name].url;
    apis[name] = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[name].url), noInitWarn: true });
  }
});
afterAll(async () => {
  await Promise.all(Object.values(apis).map((a) => a.disconnect()));
  await services.close();
  await Promise.all(NAMES.map((n) => chains[n]?.close()));
});

const options = { development: true, apiOverrides: overrides };

interface Hop {
  chain: string;
  instructions: string[];
  ok: boolean;
  problems: { at: string; message: string }[];
  warnings: { at: string; message: string }[];
}

// ---- XCM values, written as the chain that reads them reads them ------------------------------

const here = { parents: 0, interior: 'Here' };
const loc = (parents: number, ...junctions: object[]) => ({ parents, interior: junctions.length === 0 ? 'Here' : { [`X${junctions.length}`]: junctions } });
const account = { AccountId32: { network: null, id: ALICE_ID } };
const asset = (id: object, amount: bigint) => ({ id, fun: { Fungible: amount } });
const DOT = 10_000_000_000n;
const usdtOnAssetHub = loc(0, { PalletInstance: 50 }, { GeneralIndex: 1984 });
const all = { Wild: { AllCounted: 1 } };
const deposit = { DepositAsset: { assets: all, beneficiary: loc(0, account) } };

/** Call data of `pallet.method(...args)` on `chain`, encoded with its metadata. */
function callData(chain: TestChainName, pallet: string, method: string, ...args: unknown[]): string {
  const tx = (apis[chain].tx as unknown as Record<string, Record<string, (...a: unknown[]) => { method: { toHex(): string } }>>)[pallet]![method]!;
  return tx(...args).method.toHex();
}

/** Polkadot -> Asset Hub by teleport, then the program `onAssetHub` there (the SDK's route to a parachain). */
const throughAssetHub = (onAssetHub: unknown[]) =>
  callData('Polkadot', 'xcmPallet', 'transferAssetsUsingTypeAndThen', { V4: loc(0, { Parachain: 1000 }) }, { V4: [asset(here, DOT)] }, 'Teleport', { V4: here }, 'Teleport', { V4: onAssetHub }, 'Unlimited');

/** What the SDK builds today for Polkadot -> Hydration DOT: Hydration written as the relay sees it, run on Asset Hub. */
const childOfAssetHub = () =>
  throughAssetHub([{ DepositReserveAsset: { assets: all, dest: loc(0, { Parachain: 2034 }), xcm: [{ BuyExecution: { fees: asset(loc(1), DOT), weightLimit: 'Unlimited' } }, deposit] } }]);

async function route(chain: TestChainName, hex: string, family: (typeof FAMILIES)[number] = 'v5'): Promise<Hop[]> {
  const res = await request(app).post(`/${family}/explain`).send({ chain, hex, options });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { route: Hop[] }).route;
}

/** The route check's verdict on `hex` (what a build passes before it is answered). */
function check(chain: TestChainName, hex: string, expected: { chain: string; recipient?: string }[] | null = null): Hop[] {
  try {
    services.routeCheck.check(apis[chain].registry, chain, hex, expected as never, { test: true });
    return [];
  } catch (error) {
    expect((error as { kind?: string }).kind).toBe('RouteCheckError');
    return (error as { fields: { route: Hop[] } }).fields.route;
  }
}

const failing = (hops: Hop[]) => hops.map((h, i) => ({ i, h })).filter(({ h }) => !h.ok);

// ---- one call per problem ------------------------------------------------------------------

describe('the route check names each problem at the hop where the message fails', () => {
  it("a destination written as the relay sees it but run on Asset Hub is a child of Asset Hub: refused at Asset Hub's DepositReserveAsset", async () => {
    const hops = check('Polkadot', childOfAssetHub());
    expect(failing(hops)).toHaveLength(1);
    expect(hops[0]).toMatchObject({ chain: 'Polkadot', ok: true, instructions: ['WithdrawAsset', 'InitiateTeleport'] });
    expect(hops[1]).toMatchObject({ chain: 'AssetHubPolkadot', ok: false, instructions: ['ReceiveTeleportedAsset', 'ClearOrigin', 'BuyExecution', 'DepositReserveAsset'] });
    expect(hops[1]!.problems).toEqual([{ at: 'DepositReserveAsset.dest', message: expect.stringContaining('a child of AssetHubPolkadot, which does not exist') }]);
    // The message never reaches Hydration: no hop is walked past the failure.
    expect(hops).toHaveLength(2);
  });

  it('the same route re-anchored (Hydration as Asset Hub sees it) passes once Hydration buys less than the whole amount', () => {
    const fees = (amount: bigint) => [{ DepositReserveAsset: { assets: all, dest: loc(1, { Parachain: 2034 }), xcm: [{ BuyExecution: { fees: asset(loc(1), amount), weightLimit: 'Unlimited' } }, deposit] } }];
    const whole = check('Polkadot', throughAssetHub(fees(DOT)));
    expect(failing(whole).map(({ i, h }) => [i, h.chain, h.problems.map((p) => p.at)])).toEqual([[2, 'Hydration', ['BuyExecution.fees']]]);
    expect(whole[2]!.problems[0]!.message).toMatch(/buys execution with all 10000000000 of DOT sent, but less reaches Hydration/);
    expect(check('Polkadot', throughAssetHub(fees(DOT / 2n)), [{ chain: 'Hydration', recipient: ALICE }])).toEqual([]);
  });

  it("a teleport between chains that do not trust each other (Asset Hub -> Hydration): refused at Asset Hub's InitiateTeleport", () => {
    const hex = callData('AssetHubPolkadot', 'polkadotXcm', 'limitedTeleportAssets', { V4: loc(1, { Parachain: 2034 }) }, { V4: loc(0, account) }, { V4: [asset(loc(1), DOT)] }, 0, 'Unlimited');
    const hops = check('AssetHubPolkadot', hex);
    expect(failing(hops).map(({ i, h }) => [i, h.chain])).toEqual([[0, 'AssetHubPolkadot']]);
    expect(hops[0]!.problems).toEqual([{ at: 'InitiateTeleport.dest', message: expect.stringContaining("AssetHubPolkadot and Hydration do not trust each other's teleports") }]);
  });

  it('an asset the registry does not list: a warning at each hop that holds it, not a refusal', () => {
    const unknown = loc(0, { PalletInstance: 50 }, { GeneralIndex: 987654321 });
    const hex = callData('AssetHubPolkadot', 'polkadotXcm', 'limitedReserveTransferAssets', { V4: loc(1, { Parachain: 2034 }) }, { V4: loc(0, account) }, { V4: [asset(unknown, 1000n)] }, 0, 'Unlimited');
    expect(check('AssetHubPolkadot', hex, [{ chain: 'Hydration', recipient: ALICE }])).toEqual([]);
    const warned = lines.find((l) => l.msg === 'route check: the registry cannot tell every hop' && l.origin === 'AssetHubPolkadot');
    expect(warned).toMatchObject({ level: 40, request: { test: true } });
  });

  it('an asset the registry does not list, as /explain shows it: ok hops carrying warnings', async () => {
    const unknown = loc(0, { PalletInstance: 50 }, { GeneralIndex: 987654321 });
    const hex = callData('AssetHubPolkadot', 'polkadotXcm', 'limitedReserveTransferAssets', { V4: loc(1, { Parachain: 2034 }) }, { V4: loc(0, account) }, { V4: [asset(unknown, 1000n)] }, 0, 'Unlimited');
    const hops = await route('AssetHubPolkadot', hex);
    expect(hops.map((h) => [h.chain, h.ok])).toEqual([
      ['AssetHubPolkadot', true],
      ['Hydration', true],
    ]);
    expect(hops[0]!.warnings).toContainEqual({ at: 'TransferReserveAsset.assets', message: expect.stringMatching(/the registry does not list .*987654321.* on AssetHubPolkadot/) });
    expect(hops[1]!.warnings).toContainEqual({ at: 'ReserveAssetDeposited', message: expect.stringMatching(/the registry does not list .*987654321.* on Hydration/) });
  });

  it("fees in an asset the chain does not take (WETH on Asset Hub): refused at Asset Hub's BuyExecution", () => {
    const weth = loc(0, { PalletInstance: 50 }, { GeneralIndex: 100 });
    const message = [{ WithdrawAsset: [asset(weth, 1000n)] }, { BuyExecution: { fees: asset(weth, 1000n), weightLimit: 'Unlimited' } }, deposit];
    const hex = callData('Hydration', 'polkadotXcm', 'send', { V4: loc(1, { Parachain: 1000 }) }, { V4: message });
    const hops = check('Hydration', hex);
    expect(failing(hops).map(({ i, h }) => [i, h.chain])).toEqual([[1, 'AssetHubPolkadot']]);
    expect(hops[1]!.problems).toEqual([{ at: 'BuyExecution.fees', message: 'AssetHubPolkadot does not take WETH for fees' }]);
  });

  it('fees on a chain whose registry marks no fee asset (Acala): a warning at that hop, not a refusal', async () => {
    // USDT (Hydration's asset 10) through its reserve, the asset hub, to Acala.
    const hex = callData('Hydration', 'xTokens', 'transfer', 10, 2_500_000n, { V4: loc(1, { Parachain: 2000 }, account) }, 'Unlimited');
    expect(check('Hydration', hex, [{ chain: 'Acala', recipient: ALICE }])).toEqual([]);
    const hops = await route('Hydration', hex);
    const acala = hops.find((h) => h.chain === 'Acala')!;
    expect(acala.ok).toBe(true);
    expect(acala.warnings).toContainEqual({ at: 'BuyExecution.fees', message: 'the registry marks no fee asset on Acala: whether it takes USDT for fees cannot be told' });
  });

  it('a beneficiary that is not an account (a location one level up): refused at the destination\'s DepositAsset', () => {
    const hex = callData('AssetHubPolkadot', 'polkadotXcm', 'limitedReserveTransferAssets', { V4: loc(1, { Parachain: 2034 }) }, { V4: loc(1, account) }, { V4: [asset(usdtOnAssetHub, 2_500_000n)] }, 0, 'Unlimited');
    const hops = check('AssetHubPolkadot', hex);
    expect(failing(hops).map(({ i, h }) => [i, h.chain])).toEqual([[1, 'Hydration']]);
    expect(hops[1]!.problems).toEqual([{ at: 'DepositAsset.beneficiary', message: expect.stringContaining('is not an account on Hydration') }]);
  });

  it('a para id no chain of the relay has: refused at the origin, where the destination is read', () => {
    const hex = callData('Polkadot', 'xcmPallet', 'limitedReserveTransferAssets', { V4: loc(0, { Parachain: 4444 }) }, { V4: loc(0, account) }, { V4: [asset(here, DOT)] }, 0, 'Unlimited');
    const hops = check('Polkadot', hex);
    expect(failing(hops).map(({ i, h }) => [i, h.chain])).toEqual([[0, 'Polkadot']]);
    expect(hops[0]!.problems).toEqual([{ at: 'TransferReserveAsset.dest', message: expect.stringContaining('no chain of Polkadot has para id 4444') }]);
  });

  it('a call that ends elsewhere than the request asked, or for someone else: refused at the deposit', () => {
    const hex = callData('Polkadot', 'xcmPallet', 'limitedReserveTransferAssets', { V4: loc(0, { Parachain: 2034 }) }, { V4: loc(0, account) }, { V4: [asset(here, DOT)] }, 0, 'Unlimited');
    expect(check('Polkadot', hex, [{ chain: 'Hydration', recipient: ALICE }])).toEqual([]);
    const elsewhere = check('Polkadot', hex, [{ chain: 'Moonbeam', recipient: ALICE }]);
    expect(elsewhere[1]!.problems).toEqual([{ at: 'DepositAsset', message: 'the assets are deposited on Hydration, but the request asked for Moonbeam' }]);
    const someoneElse = check('Polkadot', hex, [{ chain: 'Hydration', recipient: '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3' }]);
    expect(someoneElse[1]!.problems).toEqual([{ at: 'DepositAsset.beneficiary', message: expect.stringContaining('is not the recipient the request asked for') }]);
  });
});

// ---- through the service ----------------------------------------------------------------------

describe('/x-transfer never answers call data that would not arrive', () => {
  // The SDK 11.14.8 built Polkadot -> Hydration and Polkadot -> Moonbeam DOT with the onward chain
  // written as the relay sees it, run on Asset Hub; nested-destinations.ts re-anchors it. The check
  // passes the corrected call, and refuses the SDK's own bytes where a build would answer them.
  for (const family of FAMILIES) {
    for (const [to, address] of [
      ['Hydration', ALICE],
      ['Moonbeam', '0x1501C1413e4178c38567Ada8945A80351F7B8496'],
    ] as const) {
      const [field, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
      const body = { from: 'Polkadot', to, currency: { symbol: 'DOT', amount: '10000000000' }, [field]: address, [sender]: ALICE, options: { ...options, abstractDecimals: false } };

      it(`${family}: Polkadot -> ${to} DOT passes, every hop ok`, async () => {
        const res = await request(app).post(`/${family}/x-transfer`).send(body);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect((await route('Polkadot', res.body as string, family)).map((h) => [h.chain, h.ok])).toEqual([
          ['Polkadot', true],
          ['AssetHubPolkadot', true],
          [to, true],
        ]);
      });

      it(`${family}: Polkadot -> ${to} DOT as the SDK built it is a 500 RouteCheckError naming Asset Hub's DepositReserveAsset, logged with the request and counted`, async () => {
        const check = services.routeCheck.check.bind(services.routeCheck);
        const spy = vi.spyOn(services.routeCheck, 'check').mockImplementation((registry, origin, _hex, expected, req) => check(registry, origin, childOfAssetHub(), expected, req));
        try {
          const res = await request(app).post(`/${family}/x-transfer`).send(body);
          expect(res.status, JSON.stringify(res.body)).toBe(500);
          expectErrorBody(res.body, 500, 'RouteCheckError');
          expect(res.body.message).toMatch(/at hop 2 \(AssetHubPolkadot\), DepositReserveAsset\.dest: .*a child of AssetHubPolkadot/);
          expect(res.body.details).toContainEqual({ path: 'route.1.DepositReserveAsset.dest', message: expect.stringContaining('AssetHubPolkadot:') });
          expect((res.body.route as Hop[]).map((h) => [h.chain, h.ok])).toEqual([
            ['Polkadot', true],
            ['AssetHubPolkadot', false],
          ]);
        } finally {
          spy.mockRestore();
        }
        const logged = lines.find((l) => l.msg === 'route check refused call data' && (l.request as { to?: string } | undefined)?.to === to);
        expect(logged).toMatchObject({ level: 50, origin: 'Polkadot', request: { from: 'Polkadot', to, recipient: address } });
        const metrics = await request(app).get('/metrics');
        expect(metrics.text).toMatch(/xcm_gateway_route_checks_total\{outcome="refused",origin="Polkadot"\} [1-9]/);
      });
    }
  }

  it('what passes is answered as before, and counted', async () => {
    const res = await request(app)
      .post('/v5/x-transfer')
      .send({ from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' }, address: ALICE, options });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatch(/^0x/);
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toMatch(/xcm_gateway_route_checks_total\{outcome="passed",origin="AssetHubPolkadot"\} [1-9]/);
  });
});

describe('/explain answers the route of any call data', () => {
  for (const family of FAMILIES) {
    it(`${family}: a good two-hop transfer, each hop ok with its instructions`, async () => {
      const hex = callData('AssetHubPolkadot', 'polkadotXcm', 'limitedReserveTransferAssets', { V4: loc(1, { Parachain: 2034 }) }, { V4: loc(0, account) }, { V4: [asset(usdtOnAssetHub, 2_500_000n)] }, 0, 'Unlimited');
      expect(await route('AssetHubPolkadot', hex, family)).toEqual([
        { chain: 'AssetHubPolkadot', instructions: ['TransferReserveAsset'], ok: true, problems: [], warnings: [] },
        { chain: 'Hydration', instructions: ['ReserveAssetDeposited', 'ClearOrigin', 'BuyExecution', 'DepositAsset'], ok: true, problems: [], warnings: [] },
      ]);
    });

    it(`${family}: a bad call (a child of Asset Hub), flagged at Asset Hub`, async () => {
      const hops = await route('Polkadot', childOfAssetHub(), family);
      expect(hops.map((h) => [h.chain, h.ok])).toEqual([
        ['Polkadot', true],
        ['AssetHubPolkadot', false],
      ]);
      expect(hops[1]!.problems).toEqual([{ at: 'DepositReserveAsset.dest', message: expect.stringContaining('a child of AssetHubPolkadot') }]);
    });
  }

  it('a batch: each transfer\'s hops in call order', async () => {
    const inner = (amount: bigint) => apis.AssetHubPolkadot.tx.polkadotXcm.limitedReserveTransferAssets({ V4: loc(1, { Parachain: 2034 }) }, { V4: loc(0, account) }, { V4: [asset(usdtOnAssetHub, amount)] }, 0, 'Unlimited');
    const hex = apis.AssetHubPolkadot.tx.utility.batchAll([inner(1_000_000n), apis.AssetHubPolkadot.tx.balances.transferKeepAlive(ALICE, 1n)]).method.toHex();
    expect((await route('AssetHubPolkadot', hex)).map((h) => [h.chain, h.instructions[0], h.ok])).toEqual([
      ['AssetHubPolkadot', 'TransferReserveAsset', true],
      ['Hydration', 'ReserveAssetDeposited', true],
      ['AssetHubPolkadot', 'balances.transferKeepAlive', true],
    ]);
  });
});
