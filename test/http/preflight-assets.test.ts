// Pre-flight of a pallet-assets asset (USDt on Asset Hub), the asset dapps send most, through the
// real SDK over local test chains. sdk-pjs 11.14.8 reads these balances with toJSON() (a number,
// hex above 2^52); src/sdk/patches/account-balances.ts hands them on as bigints.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { FAMILIES, accountFields, testApp } from '../helpers/app';
import { USDT_AH, USDT_HYDRATION } from '../fixtures/sdk-results';
import { chainsForFile } from '../support/chains-for-file';
import { answerDryRunCall, answerDryRunXcm, answerQueryInfo, answerXcmPayment, callSuccess, parachain, reserveMessage, xcmComplete } from '../support/runtime-answers';
import { seedAsset, seedNative, seedTokens } from '../support/seed';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SENDER = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

const USDT = 1_000_000n; // 1 USDt (6 decimals)
const amountOf = (family: string, usdt: bigint) => (family === 'v5' ? (usdt * USDT).toString() : usdt.toString());
const SENDER_USDT = 100n * USDT;
const RECIPIENT_USDT = 5n * USDT; // on Hydration (Tokens id 10)
const HYDRATION_FEE = 20_000n; // XcmPaymentApi on Hydration, in USDT
const ORIGIN_FEE = 15_000_000n + 3_000_000n; // query_info + FeesPaid on Asset Hub, in DOT
const USDT_ED = BigInt(USDT_AH.existentialDeposit ?? '0');
/** USDt's location as Hydration sees it (Asset Hub is its reserve). */
const USDT_FROM_AH = { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] } };

describe.each(FAMILIES)('/%s pre-flight of USDt (pallet-assets) from AssetHubPolkadot to Hydration', (family) => {
  const local = testApp();
  const { chains } = chainsForFile(['AssetHubPolkadot', 'Hydration'], local.services, {});
  /** The calls the SDK asked Asset Hub to dry-run, as `section.method` trees. */
  let dryRunCalls: unknown[];

  beforeEach(() => {
    dryRunCalls = [];
    seedNative(chains.AssetHubPolkadot, SENDER, 5n * 10n ** 10n);
    seedAsset(chains.AssetHubPolkadot, 1984, SENDER, SENDER_USDT);
    seedTokens(chains.Hydration, ADDRESS, 10, RECIPIENT_USDT); // USDT is Tokens id 10 on Hydration (USDT_HYDRATION.assetId)
    answerQueryInfo(chains.AssetHubPolkadot, 15_000_000n);
    answerQueryInfo(chains.Hydration, 15_000_000n);
    answerXcmPayment(chains.Hydration, { fee: HYDRATION_FEE });
    const ten = 10n * USDT;
    answerDryRunCall(
      chains.AssetHubPolkadot,
      (r) => callSuccess(r, { sender: SENDER, amount: ten, deliveryFee: 3_000_000n, forwarded: { destination: parachain(2034), message: reserveMessage(r, ten, ADDRESS, USDT_FROM_AH) } }),
      dryRunCalls,
    );
    answerDryRunXcm(chains.Hydration, (r) => xcmComplete(r, { beneficiary: ADDRESS, received: ten - HYDRATION_FEE }));
  });

  const body = (usdt: bigint, extra: Record<string, unknown> = {}) => ({
    from: 'AssetHubPolkadot',
    to: 'Hydration',
    currency: { id: 1984, amount: amountOf(family, usdt) },
    [accountFields(family).recipient]: ADDRESS,
    [accountFields(family).sender]: SENDER,
    options: { development: true, apiOverrides: { AssetHubPolkadot: chains.AssetHubPolkadot.url, Hydration: chains.Hydration.url }, ...extra },
  });
  const p = (endpoint: string, b: unknown) => request(local.app).post(`/${family}/${endpoint}`).send(b as object);

  /** A dry-run call as `section.method` names, nested calls in order (decoded with Asset Hub's metadata). */
  const names = (call: unknown): unknown => {
    const { callIndex, args } = call as { callIndex: string; args: Record<string, unknown> };
    const { section, method } = chains.AssetHubPolkadot.registry.findMetaCall(Buffer.from(callIndex.slice(2), 'hex'));
    const inner = (args.calls as unknown[] | undefined) ?? (args.call ? [args.call] : []);
    return inner.length ? { [`${section}.${method}`]: inner.map(names) } : `${section}.${method}`;
  };

  it('transfer-info and the amount rules: the USDt balances read from Assets.Account on both sides', async () => {
    const ten = 10n * USDT;
    const info = await p('transfer-info', body(10n)).expect(200);
    expect(info.body.origin.selectedCurrency).toEqual({
      sufficient: true,
      balance: SENDER_USDT.toString(),
      balanceAfter: (SENDER_USDT - ten).toString(),
      asset: USDT_AH,
      existentialDeposit: USDT_ED.toString(),
    });
    expect(info.body.destination.receivedCurrency).toMatchObject({
      sufficient: true,
      receivedAmount: (ten - HYDRATION_FEE).toString(),
      balance: RECIPIENT_USDT.toString(),
      balanceAfter: (RECIPIENT_USDT + ten - HYDRATION_FEE).toString(),
      asset: USDT_HYDRATION,
    });
    expect((await p('receivable-amount', body(10n)).expect(200)).body).toBe((ten - HYDRATION_FEE).toString());
    // Rule 1: the origin fee is paid in DOT, so it does not count against USDt.
    expect((await p('transferable-amount', body(10n)).expect(200)).body).toBe((SENDER_USDT - USDT_ED).toString());
    // Rule 3: the destination fee (in USDT) + 1; the recipient holds USDT, no ED; the DOT origin fee does not count.
    expect((await p('min-transferable-amount', body(10n)).expect(200)).body).toBe((HYDRATION_FEE + 1n).toString());
    expect(ORIGIN_FEE).toBe(18_000_000n);
    expect((await p('xcm-fee', body(10n)).expect(200)).body.origin.fee).toBe(ORIGIN_FEE.toString());
    expect((await p('verify-ed-on-destination', body(10n)).expect(200)).body).toBe(true);
  });

  it('balance: above 2^52 base units it is still a decimal string', async () => {
    const big = 2n ** 53n + 1n; // toJSON() turns such a u128 into hex
    seedAsset(chains.AssetHubPolkadot, 1984, ADDRESS, big);
    const account = family === 'v5' ? 'address' : 'recipient';
    const res = await request(local.app)
      .post(`/${family}/balance/AssetHubPolkadot`)
      .send({ [account]: ADDRESS, currency: { id: 1984 }, options: { development: true, apiOverrides: { AssetHubPolkadot: chains.AssetHubPolkadot.url } } })
      .expect(200);
    expect(res.body).toBe(big.toString());
  });

  it('dry-run-preview: mintFeeAssets reaches the SDK; an amount above the balance is minted first', async () => {
    await p('dry-run-preview', body(10n, { mintFeeAssets: false })).expect(200);
    await p('dry-run-preview', body(10n, { mintFeeAssets: true })).expect(200);
    // 200 USDt while holding 100: the preview mints what is missing.
    const preview = await p('dry-run-preview', body(200n)).expect(200);
    expect(preview.body).toMatchObject({ success: true, origin: { success: true, fee: ORIGIN_FEE.toString() }, destination: { success: true } });
    expect(dryRunCalls.map(names)).toEqual([
      { 'utility.batchAll': [{ 'utility.dispatchAs': ['polkadotXcm.limitedReserveTransferAssets'] }] },
      { 'utility.batchAll': ['balances.forceSetBalance', { 'utility.dispatchAs': ['polkadotXcm.limitedReserveTransferAssets'] }] },
      { 'utility.batchAll': ['assets.forceAssetStatus', { 'utility.dispatchAs': ['assets.mint'] }, { 'utility.dispatchAs': ['polkadotXcm.limitedReserveTransferAssets'] }] },
    ]);
  });
});
