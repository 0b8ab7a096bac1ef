// Patch: payment info signs its fake signature with a mortal era born at genesis instead of asking
// the chain for a recent block.
//
// Corrects: sdk-pjs 11.14.8's calculateTransactionFee calls polkadot.js's `tx.paymentInfo(address)`
// without an era, so polkadot.js's signing info asks the chain for its head and its finalized
// head (`chain_getHeader`, `chain_getFinalizedHead`) before every payment-info query, to sign a
// signature that is fake anyway: two of an /xcm-fee answer's eleven RPC calls per chain, and eight
// of the 22 a dry-run-priced /x-transfer (Hydration -> Polkadot DOT) asked. TransactionPaymentApi's
// query_info checks neither the signature nor the era: it prices the call's weight and the
// extrinsic's length. Any mortal era encodes in the same two bytes, so the extrinsic priced here
// is as long as the one polkadot.js signed with a recent block, the fee the same; the nonce (its
// compact length counts too) is still read as before.
//
// Still needed? Read sdk-pjs's PolkadotJsApi.calculateTransactionFee: if it passes an era (or
// polkadot.js's paymentInfo stops reading headers for a fake signature), the patch can go. Remove
// it and run the guard tests.
//
// Guarded by: test/http/preflight-payment-info.test.ts.
import type { Codec, Registry } from '@polkadot/types/types';
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface PaymentInfoTx {
  readonly registry: Registry;
  paymentInfo(address: string, options: { era: Codec; blockHash: Codec }): Promise<{ partialFee: { toBigInt(): bigint } }>;
}

interface SdkFeeApi {
  readonly api?: { readonly genesisHash: Codec };
  calculateTransactionFee(tx: PaymentInfoTx, address: string): Promise<bigint>;
}

/** A mortal era of block 0 (64 blocks: the length of every mortal era is 2 bytes), one per registry. */
const eras = new WeakMap<Registry, Codec>();
export function genesisEra(registry: Registry): Codec {
  let era = eras.get(registry);
  if (!era) eras.set(registry, (era = registry.createType('ExtrinsicEra', { current: 0, period: 64 })));
  return era;
}

export function priceWithAGenesisEra(): void {
  const proto = apiPrototypeOf<SdkFeeApi>(sdk);
  const calculateTransactionFee = proto.calculateTransactionFee;
  proto.calculateTransactionFee = async function (this: SdkFeeApi, tx, address) {
    if (!this.api || typeof tx?.paymentInfo !== 'function') return calculateTransactionFee.call(this, tx, address);
    const { partialFee } = await tx.paymentInfo(address, { era: genesisEra(tx.registry), blockHash: this.api.genesisHash });
    return partialFee.toBigInt();
  };
}
