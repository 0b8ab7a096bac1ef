// options.customAssets: for one request, the chains it names list the assets it gives them, as if
// the registry did (src/sdk/patches/custom-assets.ts). Through the real SDK over local test chains:
// a transfer, pre-flight queries, a balance, the conflict with a registry asset and its override.
import request from 'supertest';
import { parseTransaction, toHex, type Hex } from 'viem';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { customAssetsSchema } from '../../src/schemas/custom-assets';
import { sdk, utilCrypto } from '../../src/sdk';
import { FAMILIES, accountFields, expectErrorBody, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';
import { answerDryRunCall, answerDryRunXcm, answerQueryInfo, answerXcmPayment, callSuccess, parachain, reserveMessage, xcmComplete } from '../support/runtime-answers';
import { seedAsset, seedNative, seedTokens } from '../support/seed';
import { decodeCall } from '../support/test-chain';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

const UNIT = 1_000_000n; // MYUSD has 6 decimals
const amountOf = (family: string, units: bigint) => (family === 'v5' ? (units * UNIT).toString() : units.toString());
const ED_AH = 10_000n;
const ED_HYDRATION = 1_000n;
const SENDER_BALANCE = 100n * UNIT;
const RECIPIENT_BALANCE = 5n * UNIT;
const HYDRATION_FEE = 20_000n;

/** MYUSD: pallet-assets id 9999 on Asset Hub, Tokens id 9999 on Hydration; no registry lists it. */
const MYUSD = { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 9999 }] } };
const CUSTOM = {
  // Written from Asset Hub itself, as upstream's documentation does: read in the registry's form.
  AssetHubPolkadot: [{ symbol: 'MYUSD', decimals: 6, assetId: '9999', existentialDeposit: ED_AH.toString(), location: { parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 9999 }] } } }],
  Hydration: [{ symbol: 'MYUSD', decimals: 6, assetId: 9999, existentialDeposit: ED_HYDRATION.toString(), isFeeAsset: true, location: MYUSD }],
};
const USDT_LOCATION = { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] } };

describe.each(FAMILIES)('/%s options.customAssets', (family) => {
  const local = testApp();
  const { chains } = chainsForFile(['AssetHubPolkadot', 'Hydration'], local.services, {});

  beforeEach(() => {
    seedNative(chains.AssetHubPolkadot, SENDER, 5n * 10n ** 10n);
    seedAsset(chains.AssetHubPolkadot, 9999, SENDER, SENDER_BALANCE);
    seedTokens(chains.Hydration, ADDRESS, 9999, RECIPIENT_BALANCE);
    answerQueryInfo(chains.AssetHubPolkadot, 15_000_000n);
    answerQueryInfo(chains.Hydration, 15_000_000n);
    answerXcmPayment(chains.Hydration, { fee: HYDRATION_FEE });
    const ten = 10n * UNIT;
    answerDryRunCall(chains.AssetHubPolkadot, (r) => callSuccess(r, { sender: SENDER, amount: ten, deliveryFee: 3_000_000n, forwarded: { destination: parachain(2034), message: reserveMessage(r, ten, ADDRESS, MYUSD) } }));
    answerDryRunXcm(chains.Hydration, (r) => xcmComplete(r, { beneficiary: ADDRESS, received: ten - HYDRATION_FEE }));
  });

  const options = (extra: Record<string, unknown> = {}) => ({ development: true, apiOverrides: { AssetHubPolkadot: chains.AssetHubPolkadot.url, Hydration: chains.Hydration.url }, customAssets: CUSTOM, ...extra });
  const body = (currency: Record<string, unknown>, units: bigint, extra: Record<string, unknown> = {}) => ({
    from: 'AssetHubPolkadot',
    to: 'Hydration',
    currency: { ...currency, amount: amountOf(family, units) },
    [accountFields(family).recipient]: ADDRESS,
    [accountFields(family).sender]: SENDER,
    options: options(extra),
  });
  const p = (endpoint: string, b: unknown) => request(local.app).post(`/${family}/${endpoint}`).send(b as object);

  it('a transfer: selected by symbol, id or location, the call carries the asset at its location', async () => {
    for (const currency of [{ symbol: 'MYUSD' }, { id: 9999 }, { location: MYUSD }]) {
      const res = await p('x-transfer', body(currency, 2n));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const call = await decodeCall(chains.AssetHubPolkadot, res.body as string);
      expect(`${call.section}.${call.method}`).toBe('polkadotXcm.limitedReserveTransferAssets');
      expect(JSON.stringify(call.args.dest)).toContain('{"parachain":2034}');
      // In /v2 the amount is in whole MYUSD: the custom asset's decimals scale it.
      // As Asset Hub sees it, in Hydration's XCM version.
      expect(call.args.assets).toEqual({ v4: [{ id: { parents: 0, interior: { x2: [{ palletInstance: 50 }, { generalIndex: 9999 }] } }, fun: { fungible: Number(2n * UNIT) } }] });
    }
    // The same request without the option: the registry does not know MYUSD.
    const { customAssets: _c, ...plain } = options();
    const refused = await p('x-transfer', { ...body({ symbol: 'MYUSD' }, 2n), options: plain });
    expectErrorBody(refused.body, 400, 'InvalidCurrencyError');
    // A local transfer: pallet-assets with the custom id.
    const localRes = await p('x-transfer', { ...body({ id: '9999' }, 1n), to: 'AssetHubPolkadot', [accountFields(family).recipient]: ADDRESS });
    expect(localRes.status, JSON.stringify(localRes.body)).toBe(200);
    const kept = await decodeCall(chains.AssetHubPolkadot, localRes.body as string);
    expect(`${kept.section}.${kept.method}`).toBe('assets.transferKeepAlive');
    expect(kept.args).toEqual({ id: 9999, target: { id: ADDRESS }, amount: Number(UNIT) });
  });

  it("an asset declared on the origin alone is found on the destination its location names (upstream's e2e: CUSTX, Hydration -> AssetHubPolkadot)", async () => {
    // Asset Hub's pallet-assets asset 80003 as Hydration sees it; no registry lists it.
    const location = { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 80003 }] } };
    const custx = { symbol: 'CUSTX', decimals: 6, assetId: '80003', location };
    const res = await p('x-transfer', {
      ...body({ symbol: 'CUSTX' }, 2n, { customAssets: { Hydration: [custx] } }),
      from: 'Hydration',
      to: 'AssetHubPolkadot',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const call = await decodeCall(chains.Hydration, res.body as string);
    expect(`${call.section}.${call.method}`).toBe('xTokens.transferMultiasset');
    expect(call.args).toMatchObject({
      asset: { v4: { id: { parents: 1, interior: { x3: [{ parachain: 1000 }, { palletInstance: 50 }, { generalIndex: 80003 }] } }, fun: { fungible: Number(2n * UNIT) } } },
      dest: { v4: { parents: 1, interior: { x2: [{ parachain: 1000 }, { accountId32: { network: null, id: toHex(utilCrypto.decodeAddress(ADDRESS)) } }] } } },
    });
    // Declared on neither chain, it is no asset at all.
    const unknown = await p('x-transfer', { ...body({ symbol: 'CUSTX' }, 2n), from: 'Hydration', to: 'AssetHubPolkadot' });
    expectErrorBody(unknown.body, 400, 'InvalidCurrencyError');
  });

  it('a batch carries custom assets in its shared options', async () => {
    const transfer = { from: 'AssetHubPolkadot', to: 'Hydration', currency: { symbol: 'MYUSD', amount: amountOf(family, 1n) }, [accountFields(family).recipient]: ADDRESS };
    const res = await p('x-transfer-batch', { transfers: [transfer, transfer], options: options() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const call = await decodeCall(chains.AssetHubPolkadot, res.body as string);
    expect(`${call.section}.${call.method}`).toBe('utility.batchAll');
    expect(JSON.stringify(call.args)).toContain('"generalIndex":9999');
  });

  it('pre-flight: the custom existential deposit, balances and fees', async () => {
    // Rule 1: balance - ED; the origin fee is paid in DOT.
    expect((await p('transferable-amount', body({ symbol: 'MYUSD' }, 10n)).expect(200)).body).toBe((SENDER_BALANCE - ED_AH).toString());
    const info = await p('transfer-info', body({ symbol: 'MYUSD' }, 10n));
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    expect(info.body.origin.selectedCurrency).toMatchObject({
      balance: SENDER_BALANCE.toString(),
      existentialDeposit: ED_AH.toString(),
      asset: { symbol: 'MYUSD', assetId: '9999', decimals: 6, location: MYUSD },
    });
    expect(info.body.destination.receivedCurrency).toMatchObject({
      receivedAmount: (10n * UNIT - HYDRATION_FEE).toString(),
      balance: RECIPIENT_BALANCE.toString(),
      asset: { symbol: 'MYUSD', assetId: '9999', location: MYUSD },
    });
    expect((await p('verify-ed-on-destination', body({ symbol: 'MYUSD' }, 10n)).expect(200)).body).toBe(true);
    const fee = await p('xcm-fee', body({ symbol: 'MYUSD' }, 10n)).expect(200);
    expect(fee.body.destination).toMatchObject({ fee: HYDRATION_FEE.toString(), asset: { symbol: 'MYUSD' } });
  });

  it('a custom asset without existentialDeposit counts none, in every pre-flight query', async () => {
    const { existentialDeposit: _a, ...ahAsset } = CUSTOM.AssetHubPolkadot[0];
    const { existentialDeposit: _h, ...hydrationAsset } = CUSTOM.Hydration[0];
    const noEd = body({ symbol: 'MYUSD' }, 10n, { customAssets: { AssetHubPolkadot: [ahAsset], Hydration: [hydrationAsset] } });
    const dryRun = await p('dry-run', noEd);
    expect(dryRun.status, JSON.stringify(dryRun.body)).toBe(200);
    expect(dryRun.body.origin.success).toBe(true);
    const info = await p('transfer-info', noEd);
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    expect(info.body.origin.selectedCurrency).toMatchObject({ existentialDeposit: '0', asset: { symbol: 'MYUSD' } });
    const received = 10n * UNIT - HYDRATION_FEE;
    expect((await p('receivable-amount', noEd).expect(200)).body).toBe(received.toString());
    expect((await p('transferable-amount', noEd).expect(200)).body).toBe(SENDER_BALANCE.toString());
    // A new account on Hydration: amount - fee > 0 is enough when there is no ED.
    seedTokens(chains.Hydration, ADDRESS, 9999, 0n);
    expect((await p('verify-ed-on-destination', noEd).expect(200)).body).toBe(true);
  });

  it('a balance of a custom asset (registry lookups take no options: they answer the installed registry)', async () => {
    const account = family === 'v5' ? 'address' : 'recipient';
    const res = await request(local.app)
      .post(`/${family}/balance/AssetHubPolkadot`)
      .send({ [account]: SENDER, currency: { symbol: 'MYUSD' }, options: { development: true, apiOverrides: { AssetHubPolkadot: chains.AssetHubPolkadot.url }, customAssets: CUSTOM } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toBe(SENDER_BALANCE.toString());
    const lookup = await request(local.app).post(`/${family}/assets/AssetHubPolkadot/asset-info`).send({ currency: { symbol: 'MYUSD' } });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toBeNull();
  });

  it('a location the registry lists is a CustomAssetConflictError, unless forceOverride replaces that asset', async () => {
    const usdt = { symbol: 'MYUSDT', decimals: 6, assetId: '1984', existentialDeposit: '70000', location: USDT_LOCATION };
    const conflict = await p('x-transfer', body({ symbol: 'MYUSDT' }, 1n, { customAssets: { AssetHubPolkadot: [CUSTOM.AssetHubPolkadot[0], usdt] } }));
    expectErrorBody(conflict.body, 400, 'CustomAssetConflictError');
    expect(conflict.body.details).toEqual([{ path: 'body.options.customAssets.AssetHubPolkadot.1.location', message: expect.stringContaining('USDt') }]);
    // The same location written from Asset Hub, its numbers as strings: the same conflict.
    const local0 = { ...usdt, location: { parents: 0, interior: { X2: [{ PalletInstance: '50' }, { GeneralIndex: '1984' }] } } };
    const conflict0 = await p('x-transfer', body({ symbol: 'MYUSDT' }, 1n, { customAssets: { AssetHubPolkadot: [local0] } }));
    expectErrorBody(conflict0.body, 400, 'CustomAssetConflictError');
    expect(conflict0.body.details).toEqual([{ path: 'body.options.customAssets.AssetHubPolkadot.0.location', message: expect.stringContaining('USDt') }]);
    // Overridden: the registry's USDt is MYUSDT for this request (its symbol, its ED), and only for it.
    seedAsset(chains.AssetHubPolkadot, 1984, SENDER, SENDER_BALANCE);
    const forced = { customAssets: { AssetHubPolkadot: [{ ...usdt, forceOverride: true }] } };
    const local = { ...body({ symbol: 'MYUSDT' }, 1n, forced), to: 'AssetHubPolkadot' };
    expect((await p('x-transfer', local)).status).toBe(200);
    expect((await p('transferable-amount', local).expect(200)).body).toBe((SENDER_BALANCE - 70_000n).toString());
    // Requests in flight together each see their own registry.
    const [overridden, plain] = await Promise.all([p('transferable-amount', local), p('transferable-amount', { ...local, currency: { id: 1984, amount: local.currency.amount }, options: options() })]);
    expect([overridden.body, plain.body]).toEqual([(SENDER_BALANCE - 70_000n).toString(), (SENDER_BALANCE - 10_000n).toString()]); // the registry's USDt ED is 10000
    const after = await p('x-transfer', { ...local, options: options() });
    expectErrorBody(after.body, 400, 'InvalidCurrencyError');
  });

  it('bounds and shapes: 400s naming the field', async () => {
    const asset = CUSTOM.Hydration[0];
    const tooMany = Object.fromEntries(['Polkadot', 'Kusama', 'AssetHubPolkadot', 'AssetHubKusama', 'Hydration', 'Moonbeam', 'Acala', 'Astar', 'BifrostPolkadot'].map((c) => [c, [asset]]));
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customAssets: tooMany }, 'body.options.customAssets', 'ValidationError'],
      [{ customAssets: { Hydration: Array.from({ length: 33 }, () => asset) } }, 'body.options.customAssets.Hydration', 'ValidationError'],
      [{ customAssets: { Hydraton: [asset] } }, 'body.options.customAssets.Hydraton', 'UnknownChainError'],
      [{ customAssets: { Hydration: [{ ...asset, decimals: 1.5 }] } }, 'body.options.customAssets.Hydration.0.decimals', 'ValidationError'],
      [{ customAssets: { Hydration: [{ ...asset, colour: 'red' }] } }, 'body.options.customAssets.Hydration.0', 'ValidationError'],
      [{ customAssets: { Hydration: [asset, { ...asset, symbol: 'OTHER' }] } }, 'body.options.customAssets.Hydration.1.location', 'ValidationError'],
      // Locations reach the SDK and the chain's codec: each junction is checked here.
      [{ customAssets: { Hydration: [{ ...asset, location: { parents: 1, interior: {} } }] } }, 'body.options.customAssets.Hydration.0.location.interior', 'ValidationError'],
      [{ customAssets: { Hydration: [{ ...asset, location: { parents: 1, interior: { X2: [{ Parachain: 1000 }] } } }] } }, 'body.options.customAssets.Hydration.0.location.interior.X2', 'ValidationError'],
      [{ customAssets: { Hydration: [{ ...asset, location: { parents: 1, interior: { X2: [{ Parachain: 1000 }, { GeneralKey: 'zz' }] } } }] } }, 'body.options.customAssets.Hydration.0.location.interior.X2.1.GeneralKey', 'ValidationError'],
      [{ customAssets: { Hydration: [{ ...asset, location: { parents: 1, interior: { X2: [{ Parachain: 1000 }, { Foo: 1 }] } } }] } }, 'body.options.customAssets.Hydration.0.location.interior.X2.1', 'ValidationError'],
      // Every value inside a junction is checked: nothing unchecked (here a nested field) reaches the SDK.
      [{ customAssets: { Hydration: [{ ...asset, location: { parents: 1, interior: { X1: [{ AccountId32: { id: `0x${'11'.repeat(32)}`, network: null, note: { a: { b: [1] } } } }] } } }] } }, 'body.options.customAssets.Hydration.0.location.interior.X1.0.AccountId32', 'ValidationError'],
      [{ customAssets: { Hydration: [{ ...asset, location: { ...MYUSD, parents: '256' } }] } }, 'body.options.customAssets.Hydration.0.location.parents', 'ValidationError'],
      [{ customAssets: { Hydration: [{ ...asset, location: { parents: 1, interior: null } }] } }, 'body.options.customAssets.Hydration.0.location.interior', 'ValidationError'],
      [{ customAssets: { Hydration: [{ ...asset, location: 'Here' }] } }, 'body.options.customAssets.Hydration.0.location', 'ValidationError'],
    ];
    for (const [extra, path, kind] of cases) {
      const res = await p('x-transfer', body({ symbol: 'MYUSD' }, 1n, extra));
      expectErrorBody(res.body, 400, kind);
      expect(res.body.details.map((d: { path: string }) => d.path), JSON.stringify(res.body)).toContain(path);
    }
  });

  it("names of Object's own members (__proto__, __defineGetter__, ...) as junctions, networks or chains: a 400 naming the field", async () => {
    const asset = CUSTOM.Hydration[0];
    const at = 'body.options.customAssets.Hydration.0.location.interior.X2.1';
    const id = `0x${'11'.repeat(32)}`;
    // Built from JSON text: an object literal's `__proto__` would set the prototype, not a key.
    const withJunction = (junction: string) => ({ Hydration: [{ ...asset, location: JSON.parse(`{"parents":1,"interior":{"X2":[{"Parachain":1000},${junction}]}}`) }] });
    const refused: string[] = [];
    for (const name of ['__proto__', '__defineGetter__', '__lookupSetter__', 'constructor', 'hasOwnProperty']) {
      const cases: [unknown, string][] = [
        [withJunction(`{"${name}":1}`), at],
        [withJunction(`{"${name}":null}`), at],
        [withJunction(`{"GlobalConsensus":"${name}"}`), `${at}.GlobalConsensus`],
        [withJunction(`{"GlobalConsensus":{"${name}":null}}`), `${at}.GlobalConsensus`],
        [withJunction(`{"AccountId32":{"id":"${id}","network":"${name}"}}`), `${at}.AccountId32`],
        [withJunction(`{"AccountKey20":{"key":"0x${'22'.repeat(20)}","network":{"${name}":null}}}`), `${at}.AccountKey20`],
        [withJunction(`{"AccountIndex64":{"index":1,"network":"${name}"}}`), `${at}.AccountIndex64`],
        [JSON.parse(`{"${name}":${JSON.stringify([asset])}}`), `body.options.customAssets.${name}`],
      ];
      for (const [customAssets, path] of cases) {
        const res = await p('x-transfer', body({ symbol: 'MYUSD' }, 1n, { customAssets }));
        const paths = (res.body.details ?? []).map((d: { path: string }) => d.path);
        if (res.status !== 400 || !paths.includes(path)) refused.push(`${JSON.stringify(customAssets).slice(0, 160)}: ${res.status} ${JSON.stringify(res.body.details ?? res.body.message)}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('the router cannot honour custom assets: a 400 naming the option', async () => {
    const swap = { ...body({ symbol: 'MYUSD' }, 1n), swapOptions: { currencyTo: { symbol: 'HDX' } } };
    const res = await p('xcm-fee', swap);
    expectErrorBody(res.body, 400, 'UnsupportedOperationError');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('body.options.customAssets');
    const router = await request(local.app)
      .post(`/${family}/router/xcm-fees`)
      .send({ from: 'AssetHubPolkadot', exchange: 'HydrationDex', to: 'Hydration', currencyFrom: { symbol: 'DOT' }, currencyTo: { symbol: 'HDX' }, amount: '1', options: { customAssets: CUSTOM } });
    expectErrorBody(router.body, 400);
    expect(router.body.details).toContainEqual({ path: 'body.options.customAssets', message: expect.stringContaining('not accepted by the router') });
  });
});

describe.each(FAMILIES)('/%s/evm-x-transfer with options.customAssets (XTokens precompile, offline)', (family) => {
  const { app, services } = testApp();
  afterAll(() => services.close());
  const ID = '123456789'; // an XC-20 no registry lists: 0xffffffff + the id as 16 bytes
  const customAssets = {
    Moonbeam: [{ symbol: 'xcMYUSD', decimals: 6, assetId: ID, location: MYUSD }],
    Hydration: [{ symbol: 'MYUSD', decimals: 6, assetId: '9999', location: MYUSD }],
  };
  const send = (options: object) =>
    request(app)
      .post(`/${family}/evm-x-transfer`)
      .send({ from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'xcMYUSD', amount: amountOf(family, 3n) }, [accountFields(family).sender]: '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326', [accountFields(family).recipient]: ADDRESS, options });

  it('the precompile call names the custom asset\'s XC-20 and its amount in its decimals', async () => {
    const res = await send({ customAssets });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { data } = parseTransaction(res.body as Hex);
    expect(data).toContain(`ffffffff${BigInt(ID).toString(16).padStart(32, '0')}`);
    expect(data).toContain((3n * UNIT).toString(16).padStart(64, '0'));
    expectErrorBody((await send({})).body, 400, 'InvalidCurrencyError');
  });
});

describe('custom asset locations', () => {
  it("every registry asset's location is accepted as a custom asset's (a forceOverride copies them)", () => {
    const refused: string[] = [];
    for (const chain of sdk.CHAINS) {
      for (const asset of sdk.getAssets(chain)) {
        if (!asset.location) continue;
        const parsed = customAssetsSchema.safeParse({ [chain]: [{ symbol: asset.symbol, decimals: asset.decimals, location: asset.location }] });
        if (!parsed.success) refused.push(`${chain} ${asset.symbol}: ${JSON.stringify(asset.location)}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
