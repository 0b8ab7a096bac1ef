import { createRequire } from 'node:module';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { polkadotApi, sdk, utilCrypto } from '../../src/sdk';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { decodeCallPapi } from '../helpers/papi-call';
import { decodeCall, refusedUrl, type DecodedCall, type TestChain, type TestChainName } from '../support/test-chain';
import { chainsForFile } from '../support/chains-for-file';

// What a wallet checks before it signs: pallet and method, destination, beneficiary, asset and amount.
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const DOT = 10_000_000_000n;
const USDT_ON_AH = { parents: 1, interior: { x3: [{ parachain: 1000 }, { palletInstance: 50 }, { generalIndex: 1984 }] } };

/** util-crypto's base58, spied on to count decodes (every decodeAddress goes through it). */
const bs58 = createRequire(__filename)('@polkadot/util-crypto/cjs/base58/bs58') as { base58Decode(value: string): Uint8Array };

/**
 * `account` (0x + 32 bytes) as prefix 0, the account and ONE checksum byte: its checksum holds, but
 * util-crypto decodes only 35 or 36 bytes with a 32-byte account (this is 34).
 */
function shortChecksumAddress(account: string): string {
  const body = Uint8Array.from([0, ...Buffer.from(account.slice(2), 'hex')]);
  const hash = utilCrypto.blake2AsU8a(Uint8Array.from([...Buffer.from('SS58PRE'), ...body]), 512);
  return utilCrypto.base58Encode(Uint8Array.from([...body, hash[0]!]));
}

const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Kusama', 'AssetHubKusama'];
const { app, services } = testApp();
const { chains, overrides } = chainsForFile(NAMES, services);

const options = (extra: Record<string, unknown> = {}) => ({ development: true, apiOverrides: overrides, ...extra });

async function build(body: Record<string, unknown>, family: 'v5' | 'v2' = 'v5') {
  return request(app)
    .post(`/${family}/x-transfer`)
    .send({ ...body, options: options((body.options as Record<string, unknown>) ?? {}) });
}

/** Builds, expects 200 and a hex string, and decodes it against the origin's metadata. */
async function buildAndDecode(body: Record<string, unknown>, chain?: TestChain, family: 'v5' | 'v2' = 'v5'): Promise<DecodedCall & { hex: string }> {
  const res = await build(body, family);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatch(/^0x[0-9a-f]+$/);
  const origin = chain ?? chains[body.from as TestChainName];
  const decoded = await decodeCall(origin, res.body as string);
  expectSameCall(origin, res.body as string, decoded);
  return { hex: res.body as string, ...decoded };
}

const beneficiaryId = (call: DecodedCall) => JSON.stringify(call.args.beneficiary);

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** polkadot-api's codecs read the same hex as the same pallet, call and argument names. */
function expectSameCall(chain: TestChain, hex: string, pjs: DecodedCall): void {
  const papi = decodeCallPapi(chain, hex);
  expect(papi.pallet.toLowerCase()).toBe(pjs.section.toLowerCase());
  expect(papi.call).toBe(snake(pjs.method));
  expect(Object.keys(papi.args)).toEqual(Object.keys(pjs.args));
}

/** Decodes a call-data answer with both clients' codecs. */
async function decodeBoth(chain: TestChain, hex: string): Promise<DecodedCall> {
  const call = await decodeCall(chain, hex);
  expectSameCall(chain, hex, call);
  return call;
}

describe('POST /x-transfer builds call data a wallet can check', () => {
  it('relay -> asset hub: a teleport of DOT to parachain 1000', async () => {
    const call = await buildAndDecode({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE });
    expect(`${call.section}.${call.method}`).toBe('xcmPallet.limitedTeleportAssets');
    expect(call.args.dest).toEqual({ v5: { parents: 0, interior: { x1: [{ parachain: 1000 }] } } });
    expect(beneficiaryId(call)).toContain(ALICE_ID);
    expect(call.args.assets).toEqual({ v5: [{ id: { parents: 0, interior: { here: null } }, fun: { fungible: Number(DOT) } }] });
  });

  it('the answer as sent: JSON of the hex, its length, varying by Accept; bare hex to a client that prefers text/plain', async () => {
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE };
    const res = await build(body);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(JSON.parse(res.text)).toMatch(/^0x[0-9a-f]+$/);
    const text = await request(app).post('/v5/x-transfer').set('Accept', 'text/plain').send({ ...body, options: options() }).expect(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.text).toBe(JSON.parse(res.text));
  });

  it('asset hub -> relay: a teleport of DOT back to the relay', async () => {
    const call = await buildAndDecode({ from: 'AssetHubPolkadot', to: 'Polkadot', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: String(DOT) }, address: ALICE, senderAddress: ALICE });
    expect(`${call.section}.${call.method}`).toBe('polkadotXcm.limitedTeleportAssets');
    expect(call.args.dest).toEqual({ v5: { parents: 1, interior: { here: null } } });
    expect(call.args.assets).toEqual({ v5: [{ id: { parents: 1, interior: { here: null } }, fun: { fungible: Number(DOT) } }] });
    expect(beneficiaryId(call)).toContain(ALICE_ID);
  });

  it('asset hub -> Hydration: a reserve transfer of USDT (id 1984) to parachain 2034', async () => {
    const call = await buildAndDecode({ from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' }, address: ALICE });
    expect(`${call.section}.${call.method}`).toBe('polkadotXcm.limitedReserveTransferAssets');
    expect(JSON.stringify(call.args.dest)).toContain('{"parachain":2034}');
    expect(JSON.stringify(call.args.assets)).toContain('"palletInstance":50},{"generalIndex":1984}');
    expect(JSON.stringify(call.args.assets)).toContain('"fungible":2500000');
    expect(beneficiaryId(call)).toContain(ALICE_ID);
  });

  it('the hex is call data: polkadot.js and polkadot-api both decode it into the same call', async () => {
    const { hex } = await buildAndDecode({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE });
    const api = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains.Polkadot.url), noInitWarn: true });
    try {
      // polkadot.js: call data -> Call -> an unsigned extrinsic ready for signAndSend.
      const tx = api.tx(api.createType('Call', hex));
      expect(`${tx.method.section}.${tx.method.method}`).toBe('xcmPallet.limitedTeleportAssets');
      expect(tx.method.toHex()).toBe(hex);
      expect(tx.isSigned).toBe(false);
      // The unsigned extrinsic is longer (length prefix + version byte): not what the service answers.
      expect(tx.toHex()).not.toBe(hex);
    } finally {
      await api.disconnect();
    }
    const papi = decodeCallPapi(chains.Polkadot, hex);
    expect(`${papi.pallet}.${papi.call}`).toBe('XcmPallet.limited_teleport_assets');
  });

  it('to as a custom Location builds the same call as the chain name', async () => {
    const byName = await buildAndDecode({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE });
    const byLocation = await buildAndDecode({ from: 'Polkadot', to: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } }, currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE });
    expect(byLocation.hex).toBe(byName.hex);
  });

  describe('local transfers (from = to)', () => {
    const local = (extra: Record<string, unknown>) => ({ from: 'AssetHubPolkadot', to: 'AssetHubPolkadot', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: String(DOT) }, address: ALICE, ...extra });

    it('keepAlive true keeps the account alive, false allows it to be reaped', async () => {
      const kept = await buildAndDecode(local({ keepAlive: true }));
      expect(`${kept.section}.${kept.method}`).toBe('balances.transferKeepAlive');
      expect(kept.args).toEqual({ dest: { id: ALICE }, value: Number(DOT) });
      const reaped = await buildAndDecode(local({ keepAlive: false }));
      expect(`${reaped.section}.${reaped.method}`).toBe('balances.transferAllowDeath');
      expect(reaped.args).toEqual({ dest: { id: ALICE }, value: Number(DOT) });
      const byDefault = await buildAndDecode(local({}));
      expect(byDefault.hex).toBe(kept.hex);
    });

    it('keepAlive applies to asset pallets too (USDT on asset hub)', async () => {
      const usdt = { currency: { id: 1984, amount: '1000' } };
      const kept = await buildAndDecode(local({ ...usdt, keepAlive: true }));
      expect(`${kept.section}.${kept.method}`).toBe('assets.transferKeepAlive');
      expect(kept.args).toEqual({ id: 1984, target: { id: ALICE }, amount: 1000 });
      const reaped = await buildAndDecode(local({ ...usdt, keepAlive: false }));
      expect(`${reaped.section}.${reaped.method}`).toBe('assets.transfer');
    });

    it('ALL sends everything, keeping the account alive unless keepAlive is false', async () => {
      const all = { currency: { symbol: { type: 'Native', value: 'DOT' }, amount: 'ALL' }, senderAddress: ALICE };
      const kept = await buildAndDecode(local({ ...all }));
      expect(`${kept.section}.${kept.method}`).toBe('balances.transferAll');
      expect(kept.args).toEqual({ dest: { id: ALICE }, keep_alive: true });
      const reaped = await buildAndDecode(local({ ...all, keepAlive: false }));
      expect(reaped.args).toEqual({ dest: { id: ALICE }, keep_alive: false });
    });

    it('keepAlive that is not a boolean is a 400 naming the field', async () => {
      const res = await build(local({ keepAlive: 'yes' }));
      expectErrorBody(res.body, 400, 'ValidationError');
      expect(res.body.details).toEqual([{ path: 'body.keepAlive', message: 'must be true or false' }]);
    });
  });

  it('a multi-asset transfer with feeAsset sends both assets and pays fees with the chosen one', async () => {
    // sdk-pjs 11 builds multi-asset transfers only through XTokens (asset hub and Hydration use an
    // execute call that refuses them). BifrostPolkadot is an XTokens chain; Hydration's runtime,
    // which has the same XTokens pallet, stands in for it here.
    const res = await request(app)
      .post('/v5/x-transfer')
      .send({
        from: 'BifrostPolkadot',
        to: 'AssetHubPolkadot',
        currency: [{ symbol: 'USDT', amount: '1000000' }, { symbol: 'DOT', amount: String(DOT) }],
        feeAsset: { symbol: 'DOT' },
        address: ALICE,
        senderAddress: ALICE,
        options: options({ apiOverrides: { ...overrides, BifrostPolkadot: chains.Hydration.url } }),
      })
      .expect(200);
    const call = await decodeBoth(chains.Hydration, res.body);
    expect(`${call.section}.${call.method}`).toBe('xTokens.transferMultiassets');
    expect(call.args.assets).toEqual({
      v5: [
        { id: USDT_ON_AH, fun: { fungible: 1000000 } },
        { id: { parents: 1, interior: { here: null } }, fun: { fungible: Number(DOT) } },
      ],
    });
    expect(call.args.fee_item).toBe(1);
    expect(JSON.stringify(call.args.dest)).toContain('{"parachain":1000}');
  });

  it('an Override(...) location sends exactly that asset', async () => {
    const loc = '{"parents":1,"interior":{"X3":[{"Parachain":1000},{"PalletInstance":50},{"GeneralIndex":1984}]}}';
    const call = await buildAndDecode({ from: 'Hydration', to: 'AssetHubPolkadot', currency: { location: `Override(${loc})`, amount: '1000000' }, address: ALICE, senderAddress: ALICE });
    expect(`${call.section}.${call.method}`).toBe('xTokens.transferMultiasset');
    expect(call.args.asset).toEqual({ v4: { id: USDT_ON_AH, fun: { fungible: 1000000 } } });
    const asObject = await buildAndDecode({ from: 'Hydration', to: 'AssetHubPolkadot', currency: { location: { type: 'Override', value: JSON.parse(loc) }, amount: '1000000' }, address: ALICE, senderAddress: ALICE });
    expect(asObject.hex).toBe(call.hex);
  });

  it('xcmVersion V3 and V4 produce different encodings of the same transfer', async () => {
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE };
    const v3 = await buildAndDecode({ ...body, xcmVersion: 'V3' });
    const v4 = await buildAndDecode({ ...body, xcmVersion: 'V4' });
    expect(v3.hex).not.toBe(v4.hex);
    expect(Object.keys(v3.args.dest as object)).toEqual(['v3']);
    expect(Object.keys(v4.args.dest as object)).toEqual(['v4']);
    expect(v3.args.assets).toEqual({ v3: [{ id: { concrete: { parents: 0, interior: { here: null } } }, fun: { fungible: Number(DOT) } }] });
  });

  it('pallet + method pick a custom XCM method; one pallet-xcm refuses for the asset is a 400', async () => {
    const call = await buildAndDecode({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE, pallet: 'XcmPallet', method: 'limited_teleport_assets' });
    expect(`${call.section}.${call.method}`).toBe('xcmPallet.limitedTeleportAssets');
    // DOT is teleported between the relay and its Asset Hub: pallet-xcm refuses to reserve-transfer it (Filtered).
    const refused = await build({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE, pallet: 'XcmPallet', method: 'limited_reserve_transfer_assets' });
    expectErrorBody(refused.body, 400, 'UnsupportedOperationError');
    expect(refused.body.message).toContain('limitedReserveTransferAssets.assets');
  });

  it('asset hub Polkadot -> asset hub Kusama crosses the bridge', async () => {
    const call = await buildAndDecode({ from: 'AssetHubPolkadot', to: 'AssetHubKusama', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: String(DOT) }, address: ALICE, senderAddress: ALICE });
    expect(`${call.section}.${call.method}`).toBe('polkadotXcm.transferAssetsUsingTypeAndThen');
    expect(call.args.dest).toEqual({ v5: { parents: 2, interior: { x2: [{ globalConsensus: { kusama: null } }, { parachain: 1000 }] } } });
  });

  it('the same transfer through /v5 and /v2 gives the same hex', async () => {
    const v5 = await build({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE }, 'v5');
    const v2 = await build({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, recipient: ALICE, options: { abstractDecimals: false } }, 'v2');
    expect(v5.status).toBe(200);
    expect(v2.body).toBe(v5.body);
    // /v2 reads amounts in whole DOT by default.
    const abstract = await build({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, recipient: ALICE }, 'v2');
    expect(abstract.body).toBe(v5.body);
    const v5abstract = await build({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, address: ALICE, options: { abstractDecimals: true } }, 'v5');
    expect(v5abstract.body).toBe(v5.body);
  });
});

describe('amounts the engine would change are refused', () => {
  const body = (amount: string, family: 'v5' | 'v2') => ({
    from: 'Polkadot',
    to: 'AssetHubPolkadot',
    currency: { symbol: 'DOT', amount },
    [family === 'v5' ? 'address' : 'recipient']: ALICE,
  });

  it('below 2 base units (sdk-pjs would send 2): a 400 naming the minimum; 2 is below the relay\'s existential deposit: a 400 too', async () => {
    for (const [family, amount] of [['v5', '1'], ['v5', '00001'], ['v2', '0.0000000001']] as const) {
      const res = await build(body(amount, family), family);
      expect(res.status, `${family} ${amount}`).toBe(400);
      expect(res.body.message, `${family} ${amount}`).toContain('2 base units');
    }
    const v2 = await build(body('0.0000000001', 'v2'), 'v2');
    expectErrorBody(v2.body, 400, 'AmountTooLowError');
    expect(v2.body.message).toContain('0.0000000002 DOT');
    // 2 is what the engine sends, but no teleport out of the relay below its existential deposit arrives.
    const two = await build(body('2', 'v5'));
    expectErrorBody(two.body, 400, 'AmountTooLowError');
    expect(two.body.message).toContain('below Polkadot\'s existential deposit');
  });

  it('more fraction digits than the asset has decimals (sdk-pjs would truncate): a 400', async () => {
    const res = await build(body('1.0000000000000000000000000001', 'v2'), 'v2');
    expectErrorBody(res.body, 400);
    expect(res.body.details[0].path).toBe('body.currency.amount');
    const exact = await build(body('1.0000000001', 'v2'), 'v2');
    expect(exact.status).toBe(200);
    expect(JSON.stringify((await decodeCall(chains.Polkadot, exact.body)).args.assets)).toContain('"fungible":10000000001');
  });
});

describe('POST /x-transfer-batch', () => {
  const transfer = (amount: bigint, family: 'v5' | 'v2' = 'v5') => ({
    from: 'Polkadot',
    to: 'AssetHubPolkadot',
    currency: { symbol: 'DOT', amount: String(amount) },
    [family === 'v5' ? 'address' : 'recipient']: ALICE,
  });

  it('BATCH_ALL (the default) and BATCH wrap the transfers in utility.batchAll / utility.batch', async () => {
    const all = await request(app).post('/v5/x-transfer-batch').send({ transfers: [transfer(DOT), transfer(2n * DOT)], options: options() }).expect(200);
    const batchAll = await decodeBoth(chains.Polkadot, all.body);
    expect(`${batchAll.section}.${batchAll.method}`).toBe('utility.batchAll');
    const calls = batchAll.args.calls as { args: { assets: unknown } }[];
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(calls[0])).toContain(`"fungible":${DOT}`);
    expect(JSON.stringify(calls[1])).toContain(`"fungible":${2n * DOT}`);
    const some = await request(app).post('/v5/x-transfer-batch').send({ transfers: [transfer(DOT), transfer(2n * DOT)], options: options({ mode: 'BATCH' }) }).expect(200);
    expect((await decodeBoth(chains.Polkadot, some.body)).method).toBe('batch');
    const v2 = await request(app).post('/v2/x-transfer-batch').send({ transfers: [transfer(DOT, 'v2'), transfer(2n * DOT, 'v2')], options: options({ abstractDecimals: false }) }).expect(200);
    expect(v2.body).toBe(all.body);
  });

  it('an empty list, mixed origins, a bad mode or per-transfer options are a 400', async () => {
    expectErrorBody((await request(app).post('/v5/x-transfer-batch').send({ transfers: [], options: options() }).expect(400)).body, 400, 'BatchValidationError');
    const mixed = { ...transfer(DOT), from: 'Kusama', to: 'AssetHubKusama', currency: { symbol: 'KSM', amount: '1' } };
    const res = await request(app).post('/v5/x-transfer-batch').send({ transfers: [transfer(DOT), mixed], options: options() }).expect(400);
    expectErrorBody(res.body, 400, 'BatchValidationError');
    expect(res.body.message).toContain('Kusama');
    expectErrorBody((await request(app).post('/v5/x-transfer-batch').send({ transfers: [transfer(DOT)], options: options({ mode: 'SOME' }) }).expect(400)).body, 400, 'ValidationError');
    const own = await request(app).post('/v5/x-transfer-batch').send({ transfers: [{ ...transfer(DOT), options: {} }], options: options() }).expect(400);
    expectErrorBody(own.body, 400, 'BatchValidationError');
    expect(own.body.details[0].path).toBe('body.transfers.0.options');
  });
});

describe.each(FAMILIES)('/%s x-transfer: each condition of the error table is a 400 naming the field', (family) => {
  const recipient = family === 'v5' ? 'address' : 'recipient';
  const base = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, [recipient]: ALICE, options: { development: true, apiOverrides: overrides, abstractDecimals: false } };
  const send = (body: Record<string, unknown>) => request(app).post(`/${family}/x-transfer`).send(body);
  const without = (key: string) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== key));

  it.each([
    ['from missing', () => without('from'), 'MissingParameterError', 'body.from'],
    ['to missing', () => without('to'), 'MissingParameterError', 'body.to'],
    ['currency missing', () => without('currency'), 'MissingParameterError', 'body.currency'],
    ['recipient missing', () => without(recipient), 'MissingParameterError', `body.${recipient}`],
    ['from unknown', () => ({ ...base, from: 'Polkadat' }), 'UnknownChainError', 'body.from'],
    ['to unknown', () => ({ ...base, to: 'AssetHubPolkadoot' }), 'UnknownChainError', 'body.to'],
    ['amount missing', () => ({ ...base, currency: { symbol: 'DOT' } }), 'MissingParameterError', 'body.currency.amount'],
    ['amount not a number', () => ({ ...base, currency: { symbol: 'DOT', amount: 'ten' } }), 'NumberFormatError', 'body.currency.amount'],
    ['amount negative', () => ({ ...base, currency: { symbol: 'DOT', amount: -1 } }), 'NumberFormatError', 'body.currency.amount'],
    ['amount fractional without abstractDecimals', () => ({ ...base, currency: { symbol: 'DOT', amount: '1.5' } }), 'NumberFormatError', 'body.currency.amount'],
    ['currency with two selectors', () => ({ ...base, currency: { symbol: 'DOT', id: 1, amount: '1' } }), 'InvalidCurrencyError', 'body.currency'],
    ['xcmVersion unknown', () => ({ ...base, xcmVersion: 'V9' }), 'ValidationError', 'body.xcmVersion'],
    ['pallet without method', () => ({ ...base, pallet: 'XcmPallet' }), 'MissingParameterError', 'body.method'],
    ['transact malformed', () => ({ ...base, [family === 'v5' ? 'transact' : 'transactOptions']: { hex: 'zz' } }), 'ValidationError', `body.${family === 'v5' ? 'transact' : 'transactOptions'}.hex`],
    ['override URL not a websocket', () => ({ ...base, options: { ...base.options, apiOverrides: { Polkadot: 'http://127.0.0.1:1' } } }), 'ValidationError', 'body.options.apiOverrides.Polkadot'],
    ['override for an unknown chain', () => ({ ...base, options: { ...base.options, apiOverrides: { Polkadat: 'ws://127.0.0.1:1' } } }), 'UnknownChainError', 'body.options.apiOverrides.Polkadat'],
    ['an option this endpoint does not take', () => ({ ...base, options: { ...base.options, mode: 'BATCH' } }), 'ValidationError', 'body.options'],
    ['the other family\'s field name', () => ({ ...base, [family === 'v5' ? 'recipient' : 'address']: ALICE }), 'ValidationError', 'body'],
  ])('%s', async (_name, body, kind, path) => {
    const res = await send(body()).expect(400);
    expectErrorBody(res.body, 400, kind);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('an amount of the top of a u128 on a route whose fees are priced by a dry run: 400 naming currency.amount, in both families', async () => {
    // The SDK mints the sender the amount plus 1,000 DOT before its dry run: a u128 on the relay, an i128 on Hydration.
    for (const from of ['Polkadot', 'Hydration'] as const) {
      const to = from === 'Polkadot' ? 'Hydration' : 'Polkadot';
      const res = await send({ ...base, from, to, currency: { symbol: 'DOT', amount: String(2n ** 128n - 1n) }, [family === 'v5' ? 'senderAddress' : 'sender']: ALICE });
      expectErrorBody(res.body, 400, 'ValidationError');
      expect(res.body.message, from).toMatch(/too large to price this transfer's fees/);
      expect(res.body.details).toEqual([{ path: 'body.currency.amount', message: res.body.message }]);
    }
  });

  it('an unknown asset, an invalid address and incompatible chains are 400s from the engine', async () => {
    const asset = await send({ ...base, currency: { symbol: 'NOPE', amount: '1' } }).expect(400);
    expectErrorBody(asset.body, 400, 'InvalidCurrencyError');
    const address = await send({ ...base, [recipient]: 'not-an-address' }).expect(400);
    expectErrorBody(address.body, 400, 'InvalidAddressError');
    const incompatible = await send({ ...base, to: 'AssetHubKusama' }).expect(400);
    expectErrorBody(incompatible.body, 400, 'UnsupportedOperationError');
  });

  it('addresses are checked before any chain is dialled: a bad one is a 400 even when the chain is down', async () => {
    const down = { development: true, apiOverrides: { Polkadot: await refusedUrl() }, abstractDecimals: false };
    const bad = await send({ ...base, [recipient]: 'not-an-address', options: down }).expect(400);
    expectErrorBody(bad.body, 400, 'InvalidAddressError');
    expect(bad.body.details[0].path).toBe(`body.${recipient}`);
    const toEvm = await send({ ...base, to: 'Moonbeam', options: down }).expect(400);
    expectErrorBody(toEvm.body, 400, 'InvalidAddressError');
    expect(toEvm.body.message).toContain('Moonbeam is an EVM chain');
    const evmToSubstrate = await send({ ...base, [recipient]: '0x24D18dbFBcEd732EAdF98EE520853e13909fE258', options: down }).expect(400);
    expectErrorBody(evmToSubstrate.body, 400, 'InvalidAddressError');
    // A raw 32-byte account id is a valid Substrate recipient.
    const raw = await send({ ...base, [recipient]: ALICE_ID, options: down }).expect(503);
    expectErrorBody(raw.body, 503, 'ProviderUnavailableError');
  });

  it('an SS58 address util-crypto will not decode (34 bytes: a 32-byte account, one checksum byte) is a 400 before any chain is dialled', async () => {
    const down = { development: true, apiOverrides: { Polkadot: await refusedUrl() }, abstractDecimals: false };
    const bad = await send({ ...base, [recipient]: shortChecksumAddress(ALICE_ID), options: down }).expect(400);
    expectErrorBody(bad.body, 400, 'InvalidAddressError');
    expect(bad.body.details[0].path).toBe(`body.${recipient}`);
  });

  it('a new SS58 address is decoded once for the whole build: the schema, the SDK and polkadot.js read one memo', async () => {
    const address = utilCrypto.encodeAddress(utilCrypto.randomAsU8a(32), 0);
    const base58 = vi.spyOn(bs58, 'base58Decode');
    try {
      const res = await send({ ...base, [recipient]: address });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(base58.mock.calls.filter(([value]) => value === address)).toHaveLength(1);
    } finally {
      base58.mockRestore();
    }
  });

  it('a transact payload without the sender is a 400 naming the sender field (test/http/transact.test.ts covers transact)', async () => {
    const res = await send({ ...base, [family === 'v5' ? 'transact' : 'transactOptions']: { hex: '0x0000' } }).expect(400);
    expectErrorBody(res.body, 400, 'MissingParameterError');
    expect(res.body.details[0].path).toBe(`body.${family === 'v5' ? 'senderAddress' : 'sender'}`);
  });

  it('development mode without an override for a chain the transfer needs is a 400 naming it', async () => {
    const res = await send({ ...base, options: { development: true, apiOverrides: {}, abstractDecimals: false } }).expect(400);
    expectErrorBody(res.body, 400, 'MissingChainApiError');
    expect(res.body.message).toContain('Polkadot');
  });
});

describe('override endpoints on private networks', () => {
  it('are refused unless the operator allows them', async () => {
    const strict = testApp({ ALLOW_PRIVATE_OVERRIDES: 'false' });
    try {
      for (const url of ['ws://127.0.0.1:9944', 'ws://localhost:9944', 'wss://10.1.2.3', 'ws://[::1]:9944', 'ws://192.168.0.5']) {
        const res = await request(strict.app)
          .post('/v5/x-transfer')
          .send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(DOT) }, address: ALICE, options: { apiOverrides: { Polkadot: url } } })
          .expect(400);
        expectErrorBody(res.body, 400, 'ValidationError');
        expect(res.body.details[0].path).toBe('body.options.apiOverrides.Polkadot');
      }
    } finally {
      await strict.services.close();
    }
  });
});

it('the SDK is the one copy loaded through src/sdk', () => {
  const load = createRequire(__filename);
  expect(sdk).toBe(load('@paraspell/sdk-pjs'));
  expect(polkadotApi).toBe(load('@polkadot/api'));
});
