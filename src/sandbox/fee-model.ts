// One fee model per chain, what both the runtime APIs (TransactionPaymentApi, XcmPaymentApi, the
// dry runs) and inclusion charge, so a quote is what is paid: an extrinsic pays a base fee and a
// price per byte in the native asset; executing an XCM program costs its weight (a fixed weight per
// instruction) at the price of the asset it pays with (assets.ts: only those a chain takes);
// delivering a message to another chain costs a base fee and a price per instruction, in the
// sending chain's native asset.
import { assetsOf, nativeOf, type ChainAsset } from './assets';
import type { SandboxChainName } from './chain-data';
import { ChainError } from './ledger';
import { PLACES } from './topology';

export interface Weight {
  refTime: bigint;
  proofSize: bigint;
}

/** Every instruction weighs the same here; a program weighs the sum of its own (not nested) instructions. */
export const INSTRUCTION_WEIGHT: Weight = { refTime: 1_000_000_000n, proofSize: 10_000n };
/** What an extrinsic's dispatch weighs (its call, whatever it is). */
export const CALL_WEIGHT: Weight = { refTime: 200_000_000n, proofSize: 4_000n };
const SECOND = 1_000_000_000_000n;

export const programWeight = (instructions: number): Weight => ({ refTime: INSTRUCTION_WEIGHT.refTime * BigInt(instructions), proofSize: INSTRUCTION_WEIGHT.proofSize * BigInt(instructions) });

/** What `weight` costs in `asset`, rounded up; throws TooExpensive for an asset the chain does not take. */
export function weightFee(chain: SandboxChainName, weight: Weight, asset: ChainAsset): bigint {
  if (asset.perSecond === undefined || !assetsOf(chain).includes(asset)) throw new ChainError('XcmError', 'TooExpensive', `${chain} takes no fees in ${asset.symbol}`);
  return (weight.refTime * asset.perSecond + SECOND - 1n) / SECOND;
}

/** The transaction fee of an extrinsic of `length` bytes, in the native asset. */
export function transactionFee(chain: SandboxChainName, length: number): bigint {
  const native = nativeOf(chain);
  return weightFee(chain, CALL_WEIGHT, native) * 10n + BigInt(length) * (weightFee(chain, { refTime: 1_000_000n, proofSize: 0n }, native) || 1n);
}

/** The fee for delivering a message of `instructions` instructions to another chain, in the sender's native asset. */
export function deliveryFee(chain: SandboxChainName, instructions: number): bigint {
  const native = nativeOf(chain);
  return weightFee(chain, programWeight(5), native) + weightFee(chain, INSTRUCTION_WEIGHT, native) * BigInt(instructions);
}

/**
 * The bridge fee an asset hub's router (pallet-xcm-bridge-hub-router) charges for a message to the
 * other network, in its native token: it pays the bridge hub's execution of the wrapped message
 * (bridge.ts) from the asset hub's sovereign account there, and the sender pays it at the origin.
 */
export const bridgeFee = (chain: SandboxChainName): bigint => weightFee(chain, programWeight(50), nativeOf(chain));

/**
 * The fee for delivering a message of `instructions` instructions from `chain` to `to`: across the
 * bridge, delivery to the bridge hub of the router's wrapping (five instructions around the
 * message) and the bridge fee.
 */
export function deliveryFeeTo(chain: SandboxChainName, to: SandboxChainName, instructions: number): bigint {
  if (PLACES[chain].network === PLACES[to].network) return deliveryFee(chain, instructions);
  return deliveryFee(chain, instructions + 5) + bridgeFee(chain);
}
