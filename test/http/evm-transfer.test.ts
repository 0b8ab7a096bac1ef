// POST /evm-x-transfer, both families: every answer is parsed as a wallet would (viem's
// parseTransaction) and its data decoded with the precompile's or gateway's ABI, declared here
// from the published signatures, independently of the code under test.
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { concat as concatBytes, decodeFunctionData, getAddress, hexToBytes, parseAbi, parseTransaction, stringToBytes, toFunctionSelector, toHex, type Hex } from 'viem';
import type { TChain } from '@paraspell/sdk-pjs';
import { sdk, utilCrypto } from '../../src/sdk';
import { accountFields, expectErrorBody, FAMILIES, testApp, transferBody } from '../helpers/app';
import { until } from '../hostile/helpers';
import { startEthNode } from '../support/eth-node';
import { ethereumApp } from '../support/ethereum-app';
import { decodeCall, refusedUrl, startBlackHole, startTestChain, type TestChain } from '../support/test-chain';

const XTOKENS = parseAbi([
  'function transfer(address currency_address, uint256 amount, (uint8 parents, bytes[] interior) destination, uint64 weight)',
  'function transferMultiCurrencies((address currency_address, uint256 amount)[] currencies, uint32 fee_item, (uint8 parents, bytes[] interior) destination, uint64 weight)',
]);
const GATEWAY_ABI = parseAbi([
  'function sendToken(address token, uint32 destinationChain, (uint8 kind, bytes data) destinationAddress, uint128 destinationFee, uint128 amount) payable',
]);

const PRECOMPILE = '0x0000000000000000000000000000000000000804';
const NATIVE = '0x0000000000000000000000000000000000000802';
const GATEWAY = getAddress('0x27ca963c279c93801941e1eb8799c23f407d68e7');
const U64_MAX = 2n ** 64n - 1n;

const SENDER = '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326';
const SS58 = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ACCOUNT = toHex(utilCrypto.decodeAddress(SS58));
const EVM_RECIPIENT = '0x24d18dbfbced732eadf98ee520853e13909fe258';

const WETH = getAddress('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2');
const XCDOT_ID = '42259045809535163221576417993425387648';

function body(family: string, fields: { from: string; to: string; currency: object; recipient?: string; sender?: string; options?: object }) {
  return {
    ...transferBody(family, { ...fields, recipient: fields.recipient ?? SS58, sender: fields.sender ?? SENDER }),
    ...(fields.options ? { options: fields.options } : {}),
  };
}

/** Parses the answer and checks it carries chain id, to, data and value only. */
function parseAnswer(hex: unknown) {
  expect(hex).toMatch(/^0x02[0-9a-f]+$/);
  const tx = parseTransaction(hex as Hex);
  expect(tx.type).toBe('eip1559');
  expect(tx).not.toHaveProperty('gas');
  expect(tx).not.toHaveProperty('maxFeePerGas');
  expect(tx).not.toHaveProperty('maxPriorityFeePerGas');
  expect(tx.nonce ?? 0).toBe(0);
  return tx;
}

/** The native token's ERC-20, an ERC-20 under its own address, or an XC-20 (0xffffffff + u128 id). */
const erc20Of = (assetId: string | undefined) =>
  assetId === undefined ? NATIVE : getAddress(assetId.startsWith('0x') ? assetId : `0xffffffff${BigInt(assetId).toString(16).padStart(32, '0')}`);

const paraJunction = (id: number) => `0x00${id.toString(16).padStart(8, '0')}`;
const account32 = (hex: string) => `0x01${hex.slice(2)}00`.toLowerCase();
const account20 = (hex: string) => `0x03${hex.slice(2)}00`.toLowerCase();

function decodeXTokens(hex: unknown, chainId: number) {
  const tx = parseAnswer(hex);
  expect(tx.chainId).toBe(chainId);
  expect(tx.to).toBe(PRECOMPILE);
  expect(tx.value ?? 0n).toBe(0n);
  return decodeFunctionData({ abi: XTOKENS, data: tx.data! });
}

describe('the ABI the tests decode with', () => {
  it('has the selectors of the precompile and the gateway', () => {
    expect(toFunctionSelector(XTOKENS[0])).toBe('0xb9f813ff');
    expect(toFunctionSelector(GATEWAY_ABI[0])).toBe('0x52054834');
  });
});

describe.each(FAMILIES)('/%s/evm-x-transfer from Moonbeam and Moonriver (XTokens precompile, offline)', (family) => {
  const { app, services } = testApp();
  afterAll(() => services.close());
  const post = (b: object) => request(app).post(`/${family}/evm-x-transfer`).send(b);
  const whole = family === 'v2';
  const amount = (units: string, decimals: number) => (whole ? units : (BigInt(units.replace('.', '')) * 10n ** BigInt(decimals - (units.split('.')[1]?.length ?? 0))).toString());

  it('native GLMR by symbol to Hydration: 0x...0802, Parachain(2034), AccountId32', async () => {
    const res = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'GLMR', amount: amount('1.5', 18) } })).expect(200);
    const call = decodeXTokens(res.body, 1284);
    expect(call.functionName).toBe('transfer');
    expect(call.args).toEqual([NATIVE, 1_500_000_000_000_000_000n, { parents: 1, interior: [paraJunction(2034), account32(ACCOUNT)] }, U64_MAX]);
  });

  it('an XC-20 by id to the relay chain: 0xffffffff + the id, interior [AccountId32] only', async () => {
    const res = await post(body(family, { from: 'Moonbeam', to: 'Polkadot', currency: { id: XCDOT_ID, amount: amount('2', 10) } })).expect(200);
    const call = decodeXTokens(res.body, 1284);
    expect(call.args).toEqual([getAddress(`0xffffffff${BigInt(XCDOT_ID).toString(16).padStart(32, '0')}`), 20_000_000_000n, { parents: 1, interior: [account32(ACCOUNT)] }, U64_MAX]);
    expect((call.args[0] as string).toLowerCase()).toBe('0xffffffff1fcacbd218edc0eba20fc2308c778080');
  });

  it('an XC-20 by location (DOT, {parents 1, Here}) to the asset hub, with a 32-byte hex recipient', async () => {
    const res = await post(body(family, { from: 'Moonbeam', to: 'AssetHubPolkadot', recipient: ACCOUNT, currency: { location: { parents: 1, interior: { Here: null } }, amount: amount('0.25', 10) } })).expect(200);
    const call = decodeXTokens(res.body, 1284);
    expect(call.args).toEqual([getAddress('0xffffffff1fcacbd218edc0eba20fc2308c778080'), 2_500_000_000n, { parents: 1, interior: [paraJunction(1000), account32(ACCOUNT)] }, U64_MAX]);
  });

  it('an XC-20 by symbol to an EVM parachain: AccountKey20', async () => {
    const usdt = sdk.findAssetInfoOrThrow('Moonbeam', { symbol: 'xcUSDT' }, 'Darwinia') as { assetId: string };
    const res = await post(body(family, { from: 'Moonbeam', to: 'Darwinia', recipient: EVM_RECIPIENT, currency: { symbol: 'xcUSDT', amount: amount('3', 6) } })).expect(200);
    const call = decodeXTokens(res.body, 1284);
    expect(call.args).toEqual([getAddress(`0xffffffff${BigInt(usdt.assetId).toString(16).padStart(32, '0')}`), 3_000_000n, { parents: 1, interior: [paraJunction(2046), account20(EVM_RECIPIENT)] }, U64_MAX]);
  });

  it('Moonriver: chain id 1285, MOVR and XC-20s into the Kusama ecosystem', async () => {
    const native = await post(body(family, { from: 'Moonriver', to: 'Karura', currency: { symbol: 'MOVR', amount: amount('1', 18) } })).expect(200);
    expect(decodeXTokens(native.body, 1285).args).toEqual([NATIVE, 10n ** 18n, { parents: 1, interior: [paraJunction(2000), account32(ACCOUNT)] }, U64_MAX]);
    const ksm = sdk.findAssetInfoOrThrow('Moonriver', { symbol: 'KSM' }, 'Kusama') as { assetId: string; decimals: number };
    const relay = await post(body(family, { from: 'Moonriver', to: 'Kusama', currency: { symbol: 'KSM', amount: amount('1', ksm.decimals) } })).expect(200);
    expect(decodeXTokens(relay.body, 1285).args).toEqual([getAddress(`0xffffffff${BigInt(ksm.assetId).toString(16).padStart(32, '0')}`), 10n ** BigInt(ksm.decimals), { parents: 1, interior: [account32(ACCOUNT)] }, U64_MAX]);
  });

  it('asset hub assets that cannot pay their own delivery go with xcUSDT as the fee item', async () => {
    const res = await post(body(family, { from: 'Moonbeam', to: 'AssetHubPolkadot', currency: { symbol: 'xcPINK', amount: amount('5', 10) } })).expect(200);
    const call = decodeXTokens(res.body, 1284);
    expect(call.functionName).toBe('transferMultiCurrencies');
    const [currencies, feeItem, destination, weight] = call.args as [{ currency_address: string; amount: bigint }[], number, unknown, bigint];
    expect(currencies[0].amount).toBe(50_000_000_000n);
    expect(currencies[0].currency_address.toLowerCase()).toMatch(/^0xffffffff/);
    expect(currencies[1]).toEqual({ currency_address: expect.stringMatching(/^0x[fF]{8}/), amount: 200_000n });
    expect([feeItem, destination, weight]).toEqual([1, { parents: 1, interior: [paraJunction(1000), account32(ACCOUNT)] }, U64_MAX]);
  });

  it('an asset a chain on the way does not take for fees goes with a fee asset that chain takes (DAI.e through the asset hub to Hydration: xcUSDT)', async () => {
    const usdt = sdk.findAssetInfoOrThrow('Moonbeam', { symbol: 'xcUSDT' }, 'Hydration') as { assetId: string };
    const res = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'DAI.e', amount: amount('2', 18) } })).expect(200);
    const call = decodeXTokens(res.body, 1284);
    expect(call.functionName).toBe('transferMultiCurrencies');
    const [currencies, feeItem] = call.args as unknown as [{ currency_address: string; amount: bigint }[], number];
    expect(currencies[0]!.amount).toBe(2n * 10n ** 18n);
    expect(currencies[1]).toEqual({ currency_address: erc20Of(usdt.assetId), amount: 200_000n });
    expect(feeItem).toBe(1);
  });

  it('a transfer no fee asset can carry is a 400 naming the hop and why; so is one through a reserve the registry knows no chain for', async () => {
    const hdx = await post(body(family, { from: 'Moonbeam', to: 'AssetHubPolkadot', currency: { symbol: 'xcHDX', amount: amount('1', 12) } }));
    expect(hdx.status, JSON.stringify(hdx.body)).toBe(400);
    expectErrorBody(hdx.body, 400, 'UnsupportedOperationError');
    expect(hdx.body.message).toMatch(/Moonbeam -> AssetHubPolkadot xcHDX cannot arrive .*at hop 3 \(AssetHubPolkadot\), AssetHubPolkadot does not take HDX for fees, and no fee asset of Moonbeam can go with it \(with xcUSDT, at hop 1 \(Moonbeam\) the fee asset xcUSDT moves as DestinationReserve, the assets through its reserve Hydration: pallet-xcm sends fees apart only where neither goes through a remote reserve/);
    expect(hdx.body.details).toEqual([{ path: 'body.currency', message: expect.stringContaining('xcHDX') }]);
    const eqd = await post(body(family, { from: 'Moonbeam', to: 'Acala', currency: { symbol: 'xcEQD', amount: amount('1', 9) } }));
    expect(eqd.status, JSON.stringify(eqd.body)).toBe(400);
    expect(eqd.body.message).toMatch(/through its reserve, para 2011 of Polkadot, and the registry knows no chain with that para id/);
  });

  it('a sender in lower case is taken; a wrong checksum is a 400 naming the field', async () => {
    const currency = { symbol: 'GLMR', amount: '1' };
    await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency, sender: SENDER.toLowerCase() })).expect(200);
    const bad = SENDER.replace('aE28', 'ae28');
    const res = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency, sender: bad })).expect(400);
    expectErrorBody(res.body, 400, 'InvalidAddressError');
    expect(res.body.details[0]).toMatchObject({ path: `body.${accountFields(family).sender}`, message: expect.stringContaining('checksum') });
    const ss58Sender = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency, sender: SS58 })).expect(400);
    expect(ss58Sender.body.details[0].path).toBe(`body.${accountFields(family).sender}`);
  });

  it('the recipient must fit the destination', async () => {
    const evmToSubstrate = await post(body(family, { from: 'Moonbeam', to: 'Hydration', recipient: EVM_RECIPIENT, currency: { symbol: 'GLMR', amount: '1' } })).expect(400);
    expectErrorBody(evmToSubstrate.body, 400, 'InvalidAddressError');
    expect(evmToSubstrate.body.details[0].path).toBe(`body.${accountFields(family).recipient}`);
    const ss58ToEvm = await post(body(family, { from: 'Moonbeam', to: 'Darwinia', recipient: SS58, currency: { symbol: 'xcUSDT', amount: '1' } })).expect(400);
    expectErrorBody(ss58ToEvm.body, 400, 'InvalidAddressError');
  });

  it('other EVM origins are a 400 naming the served ones; a Substrate origin is a 400 at body.from', async () => {
    for (const from of ['Mythos', 'Darwinia', 'Crab', 'Laos']) {
      const res = await post(body(family, { from, to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' } })).expect(400);
      expectErrorBody(res.body, 400, 'UnsupportedOperationError');
      expect(res.body.message).toContain('Moonbeam and Moonriver');
      expect(res.body.message).toContain('Ethereum');
    }
    const substrate = await post(body(family, { from: 'Hydration', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' } })).expect(400);
    expectErrorBody(substrate.body, 400, 'UnsupportedOperationError');
    expect(substrate.body.details[0]).toMatchObject({ path: 'body.from', message: expect.stringContaining('not an EVM chain') });
  });

  it('routes the precompile cannot take are 400s naming them', async () => {
    // Moonbeam -> Ethereum goes through the XCM precompile (its own tests below); Moonriver has no such route.
    const toEthereum = await post(body(family, { from: 'Moonriver', to: 'Ethereum', recipient: EVM_RECIPIENT, currency: { symbol: 'MOVR', amount: '1' } })).expect(400);
    expectErrorBody(toEthereum.body, 400, 'UnsupportedOperationError');
    expect(toEthereum.body.message).toContain('Moonriver -> Ethereum is not a route of the registry');
    const otherEcosystem = await post(body(family, { from: 'Moonbeam', to: 'Karura', currency: { symbol: 'GLMR', amount: '1' } })).expect(400);
    expect(otherEcosystem.body.message).toContain('Polkadot ecosystem');
    const noCounterpart = await post(body(family, { from: 'Moonbeam', to: 'Polkadot', currency: { symbol: 'GLMR', amount: '1' } })).expect(400);
    expectErrorBody(noCounterpart.body, 400, 'InvalidCurrencyError');
    const unknown = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'NOPE', amount: '1' } })).expect(400);
    expectErrorBody(unknown.body, 400, 'InvalidCurrencyError');
  });

  it('refuses currency forms and amounts an EVM transfer cannot take', async () => {
    const cases: [object, string][] = [
      [{ location: 'Override({"parents":1,"interior":"Here"})', amount: '1' }, 'body.currency.location'],
      [[{ symbol: 'GLMR', amount: '1' }], 'body.currency'],
      [{ symbol: 'GLMR', amount: 'ALL' }, 'body.currency.amount'],
      [{ symbol: 'GLMR', amount: '0' }, 'body.currency.amount'],
      [{ symbol: 'GLMR', id: '1', amount: '1' }, 'body.currency'],
    ];
    for (const [currency, path] of cases) {
      const res = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency })).expect(400);
      expect(res.body.details[0].path, JSON.stringify(res.body)).toBe(path);
    }
    const decimals = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'GLMR', amount: '1.5' }, options: { abstractDecimals: false } })).expect(400);
    expectErrorBody(decimals.body, 400, 'NumberFormatError');
    const tooPrecise = await post(body(family, { from: 'Moonbeam', to: 'Polkadot', currency: { symbol: 'DOT', amount: '0.00000000001' }, options: { abstractDecimals: true } })).expect(400);
    expectErrorBody(tooPrecise.body, 400, 'NumberFormatError');
    const huge = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'GLMR', amount: (2n ** 128n).toString() }, options: { abstractDecimals: false } })).expect(400);
    expectErrorBody(huge.body, 400, 'NumberFormatError');
  });

  it('abstractDecimals: on scales whole units, off takes base units (the /v2 and /v5 defaults differ)', async () => {
    // 2 DOT either way: 2 base units would not cover the fees on the way (a 400 AmountTooLowError).
    const on = await post(body(family, { from: 'Moonbeam', to: 'Polkadot', currency: { symbol: 'DOT', amount: '2' }, options: { abstractDecimals: true } })).expect(200);
    const off = await post(body(family, { from: 'Moonbeam', to: 'Polkadot', currency: { symbol: 'DOT', amount: '20000000000' }, options: { abstractDecimals: false } })).expect(200);
    const byDefault = await post(body(family, { from: 'Moonbeam', to: 'Polkadot', currency: { symbol: 'DOT', amount: family === 'v2' ? '2' : '20000000000' } })).expect(200);
    expect(decodeXTokens(on.body, 1284).args[1]).toBe(20_000_000_000n);
    expect(decodeXTokens(off.body, 1284).args[1]).toBe(20_000_000_000n);
    expect(decodeXTokens(byDefault.body, 1284).args[1]).toBe(20_000_000_000n);
  });

  it('options: apiOverrides for Ethereum is refused; the others are accepted', async () => {
    const res = await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'GLMR', amount: '1' }, options: { apiOverrides: { Ethereum: 'wss://example.org' } } })).expect(400);
    expect(res.body.details[0].path).toBe('body.options.apiOverrides.Ethereum');
    await post(body(family, { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'GLMR', amount: '1' }, options: { xcmFormatCheck: true, development: true, apiOverrides: { Moonbeam: 'wss://example.org' } } })).expect(200);
  });
});

describe('/evm-x-transfer from Moonbeam and Moonriver: the whole registry', () => {
  const { app, services } = testApp();
  afterAll(() => services.close());

  it('builds every destination and asset the registry pairs with Moonbeam and Moonriver, with a fee asset where a chain on the way does not take it for fees, or refuses it (400) naming why', async () => {
    let built = 0;
    const refused: string[] = [];
    const withFee: string[] = [];
    for (const from of ['Moonbeam', 'Moonriver'] as const) {
      const relay = sdk.getRelayChainOf(from);
      const assets = [...sdk.getAssetsObject(from).nativeAssets, ...sdk.getAssetsObject(from).otherAssets];
      const destinations = sdk.CHAINS.filter((c) => c !== from && c !== 'Ethereum' && sdk.getRelayChainOf(c as Exclude<TChain, 'Ethereum'>) === relay);
      for (const to of destinations) {
        for (const asset of assets) {
          const selector = 'assetId' in asset && asset.assetId ? { id: asset.assetId } : { symbol: asset.symbol };
          let onDest: unknown;
          try {
            onDest = sdk.findAssetInfoOnDest(from, to, selector);
          } catch {
            continue; // ambiguous in the registry
          }
          if (!onDest) continue;
          const evm = sdk.isChainEvm(to);
          const family = FAMILIES[built % 2];
          // One whole unit: enough for the fees on the way (one base unit is not: the route check answers AmountTooLowError).
          const sent = { ...selector, amount: (10n ** BigInt(asset.decimals ?? 0)).toString() };
          const res = await request(app)
            .post(`/${family}/evm-x-transfer`)
            .send(body(family, { from, to, recipient: evm ? EVM_RECIPIENT : SS58, currency: sent, options: { abstractDecimals: false } }));
          if (res.status === 400) {
            expectErrorBody(res.body, 400, 'UnsupportedOperationError');
            const why = /registry knows no chain with that para id/.test(res.body.message) ? 'reserve' : /does not take \S+ for fees, and no fee asset/.test(res.body.message) ? 'fees' : res.body.message;
            refused.push(`${from} -> ${to} ${asset.symbol}: ${why}`);
            continue;
          }
          expect(res.status, `${from} -> ${to} ${asset.symbol}: ${JSON.stringify(res.body)}`).toBe(200);
          const call = decodeXTokens(res.body, from === 'Moonbeam' ? 1284 : 1285);
          const destination = call.args[2] as { parents: number; interior: string[] };
          const account = evm ? account20(EVM_RECIPIENT) : account32(ACCOUNT);
          expect(destination).toEqual({ parents: 1, interior: sdk.isRelayChain(to) ? [account] : [paraJunction(sdk.getParaId(to)), account] });
          if (call.functionName === 'transferMultiCurrencies') {
            // A fee asset goes with the asset: its XC-20 address names it (fee item 1).
            expect(call.args[1]).toBe(1);
            const fee = [...sdk.getAssetsObject(from).otherAssets].find((a) => 'assetId' in a && a.assetId && erc20Of(a.assetId as string) === call.args[0][1]!.currency_address);
            withFee.push(`${from} -> ${to} ${asset.symbol} + ${call.args[0][1]!.amount} ${fee?.symbol}`);
          }
          const currency = call.functionName === 'transfer' ? call.args[0] : call.args[0][0].currency_address;
          expect(currency).toBe(erc20Of(asset.symbol === sdk.getNativeAssetSymbol(from) ? undefined : (asset as { assetId: string }).assetId));
          built++;
        }
      }
    }
    expect(built).toBeGreaterThan(300);
    // sdk 11.14.8's registry. A 400: the asset's reserve is a para id no chain of the registry has
    // (EQ, EQD: Equilibrium, gone), or the destination does not take it for fees and no fee asset
    // travels the same way (HDX goes through Hydration, which holds no USDT or DOT in reserve).
    expect(refused.sort()).toEqual(
      [
        'Moonbeam -> Acala xcEQ: reserve',
        'Moonbeam -> Acala xcEQD: reserve',
        'Moonbeam -> Acala xcPARA: reserve',
        'Moonbeam -> Acala xcPDEX: reserve',
        'Moonbeam -> AssetHubPolkadot xcEQ: reserve',
        'Moonbeam -> AssetHubPolkadot xcEQD: reserve',
        'Moonbeam -> AssetHubPolkadot xcHDX: fees',
        'Moonbeam -> Astar xcEQ: reserve',
        'Moonbeam -> Astar xcEQD: reserve',
        'Moonbeam -> Crust xcEQD: reserve',
        'Moonbeam -> Hydration xcSUB: reserve',
        'Moonbeam -> Pendulum xcPDEX: reserve',
        'Moonbeam -> Phala xcEQ: reserve',
        'Moonbeam -> Phala xcEQD: reserve',
        'Moonbeam -> Phala xcPARA: reserve',
        'Moonriver -> Amplitude xcPICA: reserve',
        'Moonriver -> AssetHubKusama xcTEER: reserve',
        'Moonriver -> AssetHubKusama xcTNKR: reserve',
        'Moonriver -> Basilisk xcTEER: reserve',
        'Moonriver -> Basilisk xcTNKR: reserve',
        'Moonriver -> BifrostKusama xcMGX: reserve',
        'Moonriver -> BifrostKusama xcPHA: reserve',
        'Moonriver -> Karura xcHKO: reserve',
        'Moonriver -> Karura xcKMA: reserve',
        'Moonriver -> Karura xcLIT: reserve',
        'Moonriver -> Karura xcPHA: reserve',
        'Moonriver -> Karura xcTEER: reserve',
        'Moonriver -> Karura xcTUR: reserve',
        'Moonriver -> Shiden xcPHA: reserve',
      ].sort(),
    );
    // Where a chain on the way does not take the asset for fees, a fee asset goes with it, chosen by
    // the route check (Ajuna takes DOT only); non-sufficient asset hub assets go with xcUSDT as the
    // registry's own builder sends them. MOVR leaves its reserve and xcUSDT returns to its own: the
    // precompile's pallet-xcm sends the fee apart, first on the asset hub.
    expect(withFee.sort()).toEqual(
      [
        'Moonbeam -> Acala DAI.e + 200000 xcUSDT',
        'Moonbeam -> Ajuna xcUSDC + 1000000000 xcDOT',
        'Moonbeam -> Ajuna xcUSDT + 1000000000 xcDOT',
        'Moonbeam -> AssetHubPolkadot DAI.e + 200000 xcUSDT',
        'Moonbeam -> AssetHubPolkadot xcDED + 200000 xcUSDT',
        'Moonbeam -> AssetHubPolkadot xcPINK + 200000 xcUSDT',
        'Moonbeam -> Centrifuge DAI.e + 200000 xcUSDT',
        'Moonbeam -> Darwinia xcPINK + 200000 xcUSDT',
        'Moonbeam -> Hydration DAI.e + 200000 xcUSDT',
        'Moonriver -> AssetHubKusama MOVR + 200000 xcUSDT',
        'Moonriver -> AssetHubKusama xcRMRK + 200000 xcUSDT',
        'Moonriver -> BifrostKusama xcRMRK + 200000 xcUSDT',
        'Moonriver -> Karura xcRMRK + 200000 xcUSDT',
      ].sort(),
    );
  });

});

describe.each(FAMILIES)('/%s/evm-x-transfer from Ethereum (Snowbridge gateway, local Ethereum node)', (family) => {
  const ethereum = ethereumApp();
  beforeEach(() => {
    ethereum.node.calls.length = 0;
    ethereum.node.chainId = 1;
    ethereum.node.quote = 1_234_567n;
    ethereum.node.failWithStatus = undefined;
  });
  const post = (b: object) => request(ethereum.app).post(`/${family}/evm-x-transfer`).send(b);
  const units = (whole: string, base: string) => (family === 'v2' ? whole : base);

  function decodeGateway(hex: unknown) {
    const tx = parseAnswer(hex);
    expect(tx.chainId).toBe(1);
    expect(tx.to).toBe(GATEWAY.toLowerCase());
    const call = decodeFunctionData({ abi: GATEWAY_ABI, data: tx.data! });
    expect(call.functionName).toBe('sendToken');
    return { value: tx.value ?? 0n, args: call.args };
  }

  it('an ERC-20 to the asset hub: sendToken(token, 1000, Address32, 0, amount), value = the quoted fee', async () => {
    ethereum.node.setAllowance(WETH, 10n ** 18n);
    const res = await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'WETH', amount: units('0.5', '500000000000000000') } })).expect(200);
    const { value, args } = decodeGateway(res.body);
    expect(value).toBe(1_234_567n);
    expect(args).toEqual([WETH, 1000, { kind: 1, data: ACCOUNT }, 0n, 500_000_000_000_000_000n]);
    expect(ethereum.node.calls).toEqual(
      expect.arrayContaining([
        { method: 'eth_chainId' },
        { method: 'quoteSendTokenFee', to: GATEWAY, token: WETH, destinationChain: 1000, destinationFee: 0n },
        { method: 'allowance', to: WETH, owner: SENDER, spender: GATEWAY },
      ]),
    );
  });

  it('ETH (by location): value = fee + amount, and no allowance is read', async () => {
    const eth = { parents: 2, interior: { X1: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }] } };
    const res = await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { location: eth, amount: units('1', '1000000000000000000') } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { value, args } = decodeGateway(res.body);
    expect(args).toEqual(['0x0000000000000000000000000000000000000000', 1000, { kind: 1, data: ACCOUNT }, 0n, 10n ** 18n]);
    expect(value).toBe(10n ** 18n + 1_234_567n);
    expect(ethereum.node.calls.some((c) => c.method === 'allowance')).toBe(false);
  });

  it('onwards to a parachain: its para id and Snowbridge\'s delivery fee; an EVM parachain gets Address20', async () => {
    ethereum.node.setAllowance(WETH, 10n ** 30n);
    const bifrost = await post(body(family, { from: 'Ethereum', to: 'BifrostPolkadot', currency: { symbol: 'WETH', amount: units('1', '1000000000000000000') } })).expect(200);
    const b = decodeGateway(bifrost.body);
    expect(b.args).toEqual([WETH, 2030, { kind: 1, data: ACCOUNT }, 20_000_000n, 10n ** 18n]);
    expect(ethereum.node.calls).toContainEqual(expect.objectContaining({ method: 'quoteSendTokenFee', destinationChain: 2030, destinationFee: 20_000_000n }));

    const myth = getAddress('0xba41ddf06b7ffd89d1267b5a93bfef2424eb2003');
    ethereum.node.setAllowance(myth, 10n ** 30n);
    const mythos = await post(body(family, { from: 'Ethereum', to: 'Mythos', recipient: EVM_RECIPIENT, currency: { id: myth.toLowerCase(), amount: units('2', '2000000000000000000') } }));
    expect(mythos.status, JSON.stringify(mythos.body)).toBe(200);
    expect(decodeGateway(mythos.body).args).toEqual([myth, 3369, { kind: 2, data: EVM_RECIPIENT }, 500_000_000n, 2n * 10n ** 18n]);
  });

  it('an allowance below the amount is a 400 naming the approval to make first', async () => {
    const usdc = getAddress('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
    ethereum.node.setAllowance(usdc, 999_999n);
    const res = await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'USDC', amount: units('1', '1000000') } })).expect(400);
    expectErrorBody(res.body, 400, 'AllowanceRequiredError');
    expect(res.body.message).toContain(`approve(${GATEWAY}, 1000000)`);
    expect(res.body.message).toContain(usdc);
    ethereum.node.setAllowance(usdc, 1_000_000n);
    await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'USDC', amount: units('1', '1000000') } })).expect(200);
  });

  it('a token whose allowance cannot be read is built anyway; a gateway that refuses to quote is a 400', async () => {
    const pepe = { symbol: 'PEPE', amount: units('1', '1000000000000000000') };
    await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: pepe })).expect(200);
    ethereum.node.quote = 'revert';
    const res = await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: pepe })).expect(400);
    expectErrorBody(res.body, 400, 'UnsupportedOperationError');
    expect(res.body.message).toContain('gateway refuses to quote PEPE');
  });

  it('destinations Snowbridge cannot deliver to are a 400 naming the route, before Ethereum is asked', async () => {
    const res = await post(body(family, { from: 'Ethereum', to: 'Hydration', currency: { symbol: 'WETH', amount: '1' } })).expect(400);
    expectErrorBody(res.body, 400, 'UnsupportedOperationError');
    expect(res.body.message).toContain('Ethereum -> Hydration');
    expect(res.body.message).toContain('AssetHubPolkadot');
    const badSender = await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', sender: SENDER.replace('aE28', 'ae28'), currency: { symbol: 'WETH', amount: '1' } })).expect(400);
    expectErrorBody(badSender.body, 400, 'InvalidAddressError');
    expect(ethereum.node.calls).toEqual([]);
  });

  it('an Ethereum node of another chain, one that fails, or one without the gateway is a 503 naming Ethereum', async () => {
    ethereum.node.chainId = 11155111;
    const wrongChain = await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'ETH', amount: '1' } })).expect(503);
    expectErrorBody(wrongChain.body, 503, 'ProviderUnavailableError');
    expect(wrongChain.body.message).toContain('chain id 11155111');
    ethereum.node.chainId = 1;
    ethereum.node.failWithStatus = 502;
    const failing = await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'ETH', amount: '1' } })).expect(503);
    expectErrorBody(failing.body, 503, 'ProviderUnavailableError');
    expect(failing.body.message).toContain('Ethereum');
    expect(failing.headers['retry-after']).toBeDefined();
    ethereum.node.failWithStatus = undefined;
    ethereum.node.quote = 'empty';
    const noGateway = await post(body(family, { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'ETH', amount: '1' } })).expect(503);
    expectErrorBody(noGateway.body, 503, 'ProviderUnavailableError');
    expect(noGateway.body.message).toContain('quoteSendTokenFee answered 0x');
  });
});

describe('/x-transfer from Ethereum', () => {
  it('is a 400 pointing at /evm-x-transfer', async () => {
    const { app, services } = testApp();
    const res = await request(app)
      .post('/v2/x-transfer')
      .send({ from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'WETH', amount: '1' }, recipient: SS58 })
      .expect(400);
    expectErrorBody(res.body, 400, 'UnsupportedOperationError');
    expect(res.body.message).toContain('POST /v2/evm-x-transfer');
    await services.close();
  });
});

describe('/v2/evm-x-transfer from Ethereum: which endpoint', () => {
  const eth = { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'ETH', amount: '1' }, sender: SENDER, recipient: SS58 };

  it('an unreachable ETHEREUM_RPC_URL is a 503 naming Ethereum, without the URL\'s path (it may hold a key)', async () => {
    const url = `${(await refusedUrl()).replace('ws://', 'http://')}/v3/secret-api-key`;
    const { app, services } = testApp({ ETHEREUM_RPC_URL: url });
    const res = await request(app).post('/v2/evm-x-transfer').send(eth).expect(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('Chain Ethereum is unreachable');
    expect(res.body.message).not.toContain('secret-api-key');
    expect(res.headers['retry-after']).toBeDefined();
    await services.close();
  });

  it('an endpoint that accepts the connection and never answers is a 503 once the connect deadline passes', async () => {
    const hole = await startBlackHole();
    const { app, services } = testApp({ ETHEREUM_RPC_URL: hole.url.replace('ws://', 'http://'), CONNECT_TIMEOUT_MS: '300' });
    const res = await request(app).post('/v2/evm-x-transfer').send(eth).expect(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('no answer to eth_chainId within 300 ms');
    await services.close();
    await hole.close();
  });

  it('development mode refuses the registry\'s public endpoint and names ETHEREUM_RPC_URL; it uses a configured one', async () => {
    const unset = testApp();
    const res = await request(unset.app).post('/v2/evm-x-transfer').send({ ...eth, options: { development: true } }).expect(400);
    expectErrorBody(res.body, 400, 'MissingChainApiError');
    expect(res.body.message).toContain('ETHEREUM_RPC_URL');
    await unset.services.close();

    const node = await startEthNode();
    const set = testApp({ ETHEREUM_RPC_URL: node.url });
    await request(set.app).post('/v2/evm-x-transfer').send({ ...eth, options: { development: true } }).expect(200);
    expect(node.calls.length).toBeGreaterThan(0);
    await set.services.close();
    await node.close();
  });
});

// ---- Moonbeam -> Ethereum: the XCM-interface precompile, over test chains with real metadata ----

const XCM_PRECOMPILE_ABI = parseAbi([
  'function transferAssetsUsingTypeAndThenAddress((uint8 parents, bytes[] interior) dest, (address asset, uint256 amount)[] assets, uint8 assetsTransferType, uint8 remoteFeesIdIndex, uint8 feesTransferType, bytes customXcmOnDest)',
]);
const XCM_PRECOMPILE = '0x000000000000000000000000000000000000081a';
const DESTINATION_RESERVE = 2;
/** AssetHub's BridgeHubEthereumBaseFee: twox128(":BridgeHubEthereumBaseFee:"). */
const BRIDGE_FEE_KEY = '0x5fbc5c7ba58845ad1f1a9a7c5bc12fad';
/** sdk 11.14.8's figures: both fees padded by 10%, the bridge fee defaulting while the storage is empty. */
const feeFor = (bridgeFee: bigint) => (bridgeFee * 110n) / 100n + (2_200_000_000n * 110n) / 100n;
const u128le = (n: bigint) => toHex(Uint8Array.from({ length: 16 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn)));

const ETHEREUM = { globalConsensus: { ethereum: { chainId: 1 } } };
const xc20 = (id: string) => getAddress(`0xffffffff${BigInt(id).toString(16).padStart(32, '0')}`);

describe.each(FAMILIES)('/%s/evm-x-transfer Moonbeam -> Ethereum (XCM-interface precompile, test chains)', (family) => {
  let moonbeam: TestChain;
  let assetHub: TestChain;
  let bridgeHub: TestChain;
  let ctx: ReturnType<typeof testApp>;
  const whole = family === 'v2';
  beforeAll(async () => {
    [moonbeam, assetHub, bridgeHub] = await Promise.all([startTestChain('Moonbeam'), startTestChain('AssetHubPolkadot'), startTestChain('BridgeHubPolkadot')]);
    ctx = testApp();
  });
  afterAll(async () => {
    await ctx.services.close();
    await Promise.all([moonbeam, assetHub, bridgeHub].map((c) => c.close()));
  });
  beforeEach(() => {
    assetHub.setStorage(BRIDGE_FEE_KEY, null);
    bridgeHub.setStorage(operatingModeKey(), null);
    moonbeam.setAccountNextIndex(SENDER, undefined);
  });

  const overrides = () => ({ Moonbeam: moonbeam.url, AssetHubPolkadot: assetHub.url, BridgeHubPolkadot: bridgeHub.url });
  const send = (fields: { currency: object; ahAddress?: string | null; recipient?: string; options?: object }) => {
    const b: Record<string, unknown> = body(family, { from: 'Moonbeam', to: 'Ethereum', recipient: fields.recipient ?? EVM_RECIPIENT, currency: fields.currency });
    if (fields.ahAddress !== null) b['ahAddress'] = fields.ahAddress ?? SS58;
    b['options'] = { development: true, apiOverrides: overrides(), ...fields.options };
    return request(ctx.app).post(`/${family}/evm-x-transfer`).send(b);
  };
  const operatingModeKey = () => {
    const { xxhashAsHex } = utilCrypto;
    return `${xxhashAsHex('EthereumOutboundQueue', 128)}${xxhashAsHex('OperatingMode', 128).slice(2)}`;
  };
  /** `send` with every chain of the route at `hole`. */
  const undialledBy =
    (hole: { url: string }) =>
    (fields: Parameters<typeof send>[0]) =>
      send({ ...fields, options: { apiOverrides: { Moonbeam: hole.url, AssetHubPolkadot: hole.url, BridgeHubPolkadot: hole.url }, ...fields.options } });

  /** Parses the answer, checks the envelope, decodes the call and the message for the asset hub. */
  function decodeAnswer(hex: unknown) {
    const tx = parseAnswer(hex);
    expect(tx.chainId).toBe(1284);
    expect(tx.to).toBe(XCM_PRECOMPILE);
    expect(tx.value ?? 0n).toBe(0n);
    const call = decodeFunctionData({ abi: XCM_PRECOMPILE_ABI, data: tx.data! });
    expect(call.functionName).toBe('transferAssetsUsingTypeAndThenAddress');
    const [dest, assets, assetsType, feeIndex, feesType, customXcm] = call.args;
    expect(dest).toEqual({ parents: 1, interior: [paraJunction(1000)] });
    expect([assetsType, feeIndex, feesType]).toEqual([DESTINATION_RESERVE, 0, DESTINATION_RESERVE]);
    // Moonbeam's own codec reads the message back, byte for byte.
    const xcm = moonbeam.registry.createType('XcmVersionedXcm', customXcm);
    expect(xcm.toHex()).toBe(customXcm);
    return { assets, xcm: xcm.toJSON() as { v4: unknown[] } };
  }

  /** The id a wallet on sdk-pjs 11.14.8 puts in SetTopic: blake2-256 over what upstream hashes. */
  const expectedId = (nonceHex: string, token: string, recipient: string, amount: bigint) =>
    utilCrypto.blake2AsHex(concatBytes([stringToBytes('2004'), hexToBytes(SENDER), stringToBytes(nonceHex), hexToBytes(token as Hex), stringToBytes(recipient), stringToBytes(amount.toString())]), 256);

  const appendixTo = (account: string) => ({ setAppendix: [{ depositAsset: { assets: { wild: { all: null } }, beneficiary: { parents: 0, interior: { x1: [{ accountId32: { network: null, id: account } }] } } } }] });
  const onEthereum = (fees: object, topic: string) => [
    { buyExecution: { fees: { id: fees, fun: { fungible: 1 } }, weightLimit: { unlimited: null } } },
    { depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary: { parents: 0, interior: { x1: [{ accountKey20: { network: null, key: EVM_RECIPIENT } }] } } } },
    { setTopic: topic },
  ];

  it('WETH by symbol: WETH.e\'s XC-20 and the exact amount, xcDOT with the seeded bridge fee, InitiateReserveWithdraw to Ethereum', async () => {
    const wethE = sdk.findAssetInfoOrThrow('Moonbeam', { symbol: 'WETH.e' }, null) as { assetId: string };
    const xcDot = sdk.findAssetInfoOrThrow('Moonbeam', { location: { parents: 1, interior: { Here: null } } }, null) as { assetId: string };
    assetHub.setStorage(BRIDGE_FEE_KEY, u128le(1_234_567_890_123n));
    moonbeam.setAccountNextIndex(SENDER, 7);
    const res = await send({ currency: { symbol: 'WETH', amount: whole ? '0.25' : '250000000000000000' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { assets, xcm } = decodeAnswer(res.body);
    expect(assets).toEqual([
      { asset: xc20(xcDot.assetId), amount: feeFor(1_234_567_890_123n) },
      { asset: xc20(wethE.assetId), amount: 250_000_000_000_000_000n },
    ]);
    expect(xc20(xcDot.assetId).toLowerCase()).toBe('0xffffffff1fcacbd218edc0eba20fc2308c778080');
    expect(moonbeam.nextIndexAsked.map((a) => a.toLowerCase())).toContain(SENDER.toLowerCase());
    const topic = expectedId('0x00000007', WETH.toLowerCase(), EVM_RECIPIENT, 250_000_000_000_000_000n);
    expect(xcm).toEqual({
      v4: [
        appendixTo(ACCOUNT),
        {
          initiateReserveWithdraw: {
            assets: { wild: { allOf: { id: { parents: 2, interior: { x2: [ETHEREUM, { accountKey20: { network: null, key: WETH.toLowerCase() } }] } }, fun: 'Fungible' } } },
            reserve: { parents: 2, interior: { x1: [ETHEREUM] } },
            xcm: onEthereum({ parents: 0, interior: { x1: [{ accountKey20: { network: null, key: WETH.toLowerCase() } }] } }, topic),
          },
        },
        { setTopic: topic },
      ],
    });
  });

  it('the default bridge fee while the asset hub holds none; ETH.e by id leaves the token location at Ethereum itself', async () => {
    const ethE = sdk.findAssetInfoOrThrow('Moonbeam', { symbol: 'ETH.e' }, null) as { assetId: string };
    const res = await send({ currency: { id: ethE.assetId, amount: whole ? '1' : '1000000000000000000' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { assets, xcm } = decodeAnswer(res.body);
    expect(assets[0]!.amount).toBe(feeFor(2_750_872_500_000n));
    expect(assets[1]).toEqual({ asset: xc20(ethE.assetId), amount: 10n ** 18n });
    const topic = expectedId('0x00000000', '0x0000000000000000000000000000000000000000', EVM_RECIPIENT, 10n ** 18n);
    expect(xcm.v4[1]).toEqual({
      initiateReserveWithdraw: {
        assets: { wild: { allOf: { id: { parents: 2, interior: { x1: [ETHEREUM] } }, fun: 'Fungible' } } },
        reserve: { parents: 2, interior: { x1: [ETHEREUM] } },
        xcm: onEthereum({ parents: 0, interior: { here: null } }, topic),
      },
    });
    expect(xcm.v4[2]).toEqual({ setTopic: topic });
  });

  it('DOT by location: DepositReserveAsset from its reserve, fees in DOT seen from Ethereum; both asset entries are xcDOT', async () => {
    const dotOnEthereum = sdk.findAssetInfoOrThrow('Ethereum', { symbol: 'DOT' }, null) as { assetId: string };
    assetHub.setStorage(BRIDGE_FEE_KEY, u128le(5_000_000_000n));
    moonbeam.setAccountNextIndex(SENDER, 300);
    const res = await send({ currency: { location: { parents: 1, interior: { Here: null } }, amount: whole ? '12.5' : '125000000000' }, recipient: getAddress(EVM_RECIPIENT) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { assets, xcm } = decodeAnswer(res.body);
    const xcDot = xc20(XCDOT_ID);
    expect(assets).toEqual([
      { asset: xcDot, amount: feeFor(5_000_000_000n) },
      { asset: xcDot, amount: 125_000_000_000n },
    ]);
    // The recipient is hashed as the caller wrote it (here checksummed), as upstream does.
    const topic = expectedId('0x0000012c', dotOnEthereum.assetId, getAddress(EVM_RECIPIENT), 125_000_000_000n);
    expect(xcm.v4).toEqual([
      appendixTo(ACCOUNT),
      {
        depositReserveAsset: {
          assets: { wild: { allOf: { id: { parents: 1, interior: { here: null } }, fun: 'Fungible' } } },
          dest: { parents: 2, interior: { x1: [ETHEREUM] } },
          xcm: onEthereum({ parents: 1, interior: { x1: [{ globalConsensus: { polkadot: null } }] } }, topic),
        },
      },
      { setTopic: topic },
    ]);
  });

  it('matches what the registry\'s own builder puts in /x-transfer for the same transfer: message, topic and fee', async () => {
    assetHub.setStorage(BRIDGE_FEE_KEY, u128le(987_654_321_000n));
    moonbeam.setAccountNextIndex(SENDER, 42);
    const amount = whole ? '3' : '3000000000000000000';
    const ours = await send({ currency: { symbol: 'WETH', amount } });
    expect(ours.status, JSON.stringify(ours.body)).toBe(200);
    const { assets, xcm } = decodeAnswer(ours.body);
    const n = accountFields(family);
    const sdkBuilt = await request(ctx.app)
      .post(`/${family}/x-transfer`)
      .send({ from: 'Moonbeam', to: 'Ethereum', currency: { symbol: 'WETH.e', amount }, [n.sender]: SENDER, [n.recipient]: EVM_RECIPIENT, ahAddress: SS58, options: { development: true, apiOverrides: overrides() } });
    expect(sdkBuilt.status, JSON.stringify(sdkBuilt.body)).toBe(200);
    const call = await decodeCall(moonbeam, sdkBuilt.body as string);
    const args = call.args as { custom_xcm_on_dest: { v5: unknown[] }; assets: { v5: { fun: { fungible: number | string } }[] } };
    // The same instructions (the SDK writes them as XCM V5 on this path, the precompile takes V4).
    expect(xcm.v4).toEqual(args.custom_xcm_on_dest.v5);
    expect(assets.map((a) => a.amount)).toEqual(args.assets.v5.map((a) => BigInt(a.fun.fungible)));
  });

  it('a halted bridge is a 503 FeatureTemporarilyDisabledError, as /x-transfer reports BridgeHalted', async () => {
    bridgeHub.setStorage(operatingModeKey(), bridgeHub.registry.createType('SnowbridgeCoreOperatingModeBasicOperatingMode', 'Halted').toHex());
    const res = await send({ currency: { symbol: 'WETH', amount: '1' } }).expect(503);
    expectErrorBody(res.body, 503, 'FeatureTemporarilyDisabledError');
    expect(res.body.message).toContain('BridgeHubPolkadot');
    expect(res.body.message).toContain('Halted');
    bridgeHub.setStorage(operatingModeKey(), bridgeHub.registry.createType('SnowbridgeCoreOperatingModeBasicOperatingMode', 'Normal').toHex());
    await send({ currency: { symbol: 'WETH', amount: '1' } }).expect(200);
  });

  it('ahAddress is required here (400 naming it) and refused elsewhere; both are decided before any chain is dialled', async () => {
    // Every chain of the route is a socket that never answers: a request that dialled would hang there.
    const hole = await startBlackHole();
    const send = undialledBy(hole);
    const missing = await send({ currency: { symbol: 'WETH', amount: '1' }, ahAddress: null }).expect(400);
    expectErrorBody(missing.body, 400, 'MissingParameterError');
    expect(missing.body.details[0]).toMatchObject({ path: 'body.ahAddress', message: expect.stringContaining('Moonbeam -> Ethereum') });
    const evm = await send({ currency: { symbol: 'WETH', amount: '1' }, ahAddress: EVM_RECIPIENT }).expect(400);
    expectErrorBody(evm.body, 400, 'InvalidAddressError');
    expect(evm.body.details[0].path).toBe('body.ahAddress');
    const elsewhere = await request(ctx.app)
      .post(`/${family}/evm-x-transfer`)
      .send({ ...body(family, { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'GLMR', amount: '1' } }), ahAddress: SS58, options: { development: true, apiOverrides: { Moonbeam: hole.url, Hydration: hole.url } } })
      .expect(400);
    expectErrorBody(elsewhere.body, 400, 'ValidationError');
    expect(elsewhere.body.details[0]).toMatchObject({ path: 'body.ahAddress', message: expect.stringContaining('Moonbeam -> Ethereum only') });
    expect(hole.connectionsOpened).toBe(0);
    await hole.close();
  });

  it('assets the bridge does not carry from Moonbeam, and amounts, are 400s before any chain is dialled', async () => {
    // Every chain of the route is a socket that never answers: a request that dialled would hang there.
    const hole = await startBlackHole();
    const send = undialledBy(hole);
    const usdt = sdk.findAssetInfoOrThrow('Moonbeam', { symbol: 'xcUSDT' }, null) as { assetId: string };
    const polkadotNative = await send({ currency: { id: usdt.assetId, amount: '1' } }).expect(400);
    expectErrorBody(polkadotNative.body, 400, 'UnsupportedOperationError');
    expect(polkadotNative.body.message).toContain('xcUSDT');
    const native = await send({ currency: { symbol: 'GLMR', amount: '1' } }).expect(400);
    expectErrorBody(native.body, 400, 'InvalidCurrencyError');
    // Wormhole's WETH is a local ERC-20 on Moonbeam, not Snowbridge's WETH.e.
    const wormhole = await send({ currency: { id: '0xab3f0245b83feb11d15aaffefd7ad465a59817ed', amount: '1' } }).expect(400);
    expectErrorBody(wormhole.body, 400, 'UnsupportedOperationError');
    const tooPrecise = await send({ currency: { symbol: 'WETH', amount: '0.0000000000000000001' }, options: { abstractDecimals: true } }).expect(400);
    expectErrorBody(tooPrecise.body, 400, 'NumberFormatError');
    const substrateRecipient = await send({ currency: { symbol: 'WETH', amount: '1' }, recipient: SS58 }).expect(400);
    expectErrorBody(substrateRecipient.body, 400, 'InvalidAddressError');
    const development = await send({ currency: { symbol: 'WETH', amount: '1' }, options: { apiOverrides: { Moonbeam: hole.url, AssetHubPolkadot: hole.url } } }).expect(400);
    expectErrorBody(development.body, 400, 'MissingChainApiError');
    expect(development.body.message).toContain('BridgeHubPolkadot');
    expect(hole.connectionsOpened).toBe(0);
    await hole.close();
  });

  it('one pooled connection per chain serves every request, and closing the service closes it', async () => {
    // Chains of its own: what other tests' services do on the shared ones cannot count here.
    const chains = await Promise.all([startTestChain('Moonbeam'), startTestChain('AssetHubPolkadot'), startTestChain('BridgeHubPolkadot')]);
    const [mb, ah, bh] = chains;
    const own = testApp();
    for (let i = 0; i < 2; i++) {
      const b = { ...body(family, { from: 'Moonbeam', to: 'Ethereum', recipient: EVM_RECIPIENT, currency: { symbol: 'WETH', amount: '1' } }), ahAddress: SS58 };
      const apiOverrides = { Moonbeam: mb.url, AssetHubPolkadot: ah.url, BridgeHubPolkadot: bh.url };
      await request(own.app).post(`/${family}/evm-x-transfer`).send({ ...b, options: { development: true, apiOverrides } }).expect(200);
    }
    expect(chains.map((c) => c.connectionsOpened)).toEqual([1, 1, 1]);
    await own.services.close();
    await until(() => chains.every((c) => c.openConnections === 0), "the service's connections to close");
    await Promise.all(chains.map((c) => c.close()));
  });

  it('a bridge fee that is not a u128 is a 502 naming the asset hub', async () => {
    assetHub.setStorage(BRIDGE_FEE_KEY, '0x010203');
    const res = await send({ currency: { symbol: 'WETH', amount: '1' } }).expect(502);
    expectErrorBody(res.body, 502, 'ChainResponseError');
    expect(res.body.message).toContain('AssetHubPolkadot');
  });

  it('an unreachable BridgeHub is a 503 naming it', async () => {
    const down = await refusedUrl();
    const res = await send({ currency: { symbol: 'WETH', amount: '1' }, options: { apiOverrides: { ...overrides(), BridgeHubPolkadot: down } } }).expect(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('BridgeHubPolkadot');
    expect(res.headers['retry-after']).toBe('5');
  });
});
