// Patch: payment info prices an extrinsic put together from the call's bytes and a fake signature
// made once per (runtime, account, nonce), instead of polkadot.js encoding the transaction,
// decoding it into a new one, signing that and encoding it again.
//
// Corrects: the CPU of @polkadot/api 16.5.6's `paymentInfo` (what sdk-pjs 11.14.8's
// calculateTransactionFee calls, with the era of payment-info-era.ts): `api.tx(this.toU8a())`
// decodes the whole call again (an XCM program: 0.3-0.4 ms), `signFake` builds the signing payload
// from the call's hex, and the signed extrinsic is encoded once more; a fifth of an /xcm-fee
// answer's CPU went there (two fees an answer). A V4 signed extrinsic is
// compact(length) ++ 0x84 ++ signature ++ call, and its signature part (signer, fake signature,
// era, nonce, tip, the other signed extensions' extras) is made from the signing options, never
// from the call: it is made by polkadot.js's own `GenericExtrinsicSignatureV4.signFake` with the
// options `paymentInfo` would pass, kept per runtime (the registry's metadata) by account and
// nonce, and the call's own bytes follow it. The nonce is read as polkadot.js's signing info
// reads it (`derive.balances.account`), at every fee; the fee is asked with the same runtime call.
// Anything else (a V5 extrinsic type, a signed transaction, no `paymentInfo`) takes the path before.
//
// Still needed? Read @polkadot/api's submittable createClass.js `paymentInfo`: if it prices
// `this` without the `api.tx(this.toU8a())` round trip (or signFake gets cheap), the patch can go.
// Remove it and run the guard tests.
//
// Guarded by: test/http/preflight-payment-info.test.ts "the extrinsic priced is, byte for byte,
// the one polkadot.js's paymentInfo signs, for each nonce".
import type { Codec, Registry } from '@polkadot/types/types';
import { LRUCache } from 'lru-cache';
import { apiPrototypeOf } from '../api-prototype';
import { polkadotUtil, sdk } from '../load';
import { genesisEra } from './payment-info-era';

interface SignatureV4 extends Codec {
  signFake(method: Codec, address: string, options: object): SignatureV4;
}

interface PricedTx {
  readonly registry: Registry;
  readonly isSigned: boolean;
  /** The extrinsic format version (4 or 5), without the signed bit. */
  readonly type: number;
  readonly method: Codec;
  paymentInfo?: unknown;
}

interface FeeApi {
  readonly genesisHash: Codec;
  readonly runtimeVersion: Codec;
  /** The extrinsic format version the connection builds (what polkadot.js's submittables read as `extrinsicType`). */
  readonly extrinsicVersion: number;
  readonly registry: Registry & { readonly signedExtensions: string[] };
  readonly derive: { balances: { account(address: string): Promise<{ accountNonce: Codec }> } };
  readonly call: { transactionPaymentApi: { queryInfo(extrinsic: Uint8Array, length: number): Promise<{ partialFee: { toBigInt(): bigint } }> } };
}

interface SdkFeeApi {
  readonly api?: FeeApi;
  calculateTransactionFee(tx: PricedTx, address: string): Promise<bigint>;
}

/** A signed V4 extrinsic's version byte: format 4 with the signed bit. */
const SIGNED_V4 = 0x84;
/** Signatures kept per runtime: one or two accounts a request, a nonce each. */
const SIGNATURES_PER_RUNTIME = 1_000;

/** By the registry's metadata: polkadot.js gives a connection's registry a runtime upgrade's metadata (and its signed extensions). */
const signatures = new WeakMap<object, LRUCache<string, Uint8Array>>();

/** The encoded signature part for `address` at `nonce`, as polkadot.js's paymentInfo signs it. */
function fakeSignature(api: FeeApi, tx: PricedTx, address: string, nonce: Codec): Uint8Array {
  const { registry } = tx;
  let known = signatures.get(registry.metadata);
  if (!known) signatures.set(registry.metadata, (known = new LRUCache({ max: SIGNATURES_PER_RUNTIME })));
  const key = `${address} ${nonce.toString()}`;
  let signature = known.get(key);
  if (!signature) {
    // paymentInfo's sign options (createClass.js makeSignOptions) with the era and block of payment-info-era.ts.
    const era = genesisEra(registry);
    const options = { blockHash: api.genesisHash, genesisHash: api.genesisHash, era, nonce, runtimeVersion: api.runtimeVersion, signedExtensions: api.registry.signedExtensions, version: api.extrinsicVersion };
    const empty = registry.createTypeUnsafe<SignatureV4>('ExtrinsicSignatureV4', []);
    signature = empty.signFake(tx.method, address, options).toU8a();
    known.set(key, signature);
  }
  return signature;
}

/** compact(length) ++ 0x84 ++ signature ++ call: what `api.tx(tx.toU8a()).signFake(...).toU8a()` gives. */
function fakeSigned(signature: Uint8Array, call: Uint8Array): Uint8Array {
  const body = new Uint8Array(1 + signature.length + call.length);
  body[0] = SIGNED_V4;
  body.set(signature, 1);
  body.set(call, 1 + signature.length);
  return polkadotUtil.compactAddLength(body);
}

export function priceFakeSignedBytes(): void {
  const proto = apiPrototypeOf<SdkFeeApi>(sdk);
  const calculateTransactionFee = proto.calculateTransactionFee;
  proto.calculateTransactionFee = async function (this: SdkFeeApi, tx, address) {
    const api = this.api;
    if (!api || typeof tx?.paymentInfo !== 'function' || tx.isSigned || tx.type !== 4 || api.extrinsicVersion !== 4) return calculateTransactionFee.call(this, tx, address);
    const { accountNonce } = await api.derive.balances.account(address);
    const extrinsic = fakeSigned(fakeSignature(api, tx, address, accountNonce), tx.method.toU8a());
    const { partialFee } = await api.call.transactionPaymentApi.queryInfo(extrinsic, extrinsic.length);
    return partialFee.toBigInt();
  };
}
