// Facts of the real runtimes we ran (chopsticks, test/real), where the registry cannot tell them.
// What executing a message costs at least on the chains whose runtimes we measured: the weight and
// the fee (in the relay token) of the smallest message that deposits (ReceiveTeleportedAsset,
// ClearOrigin, BuyExecution, DepositAsset), asked of each runtime's XcmPaymentApi
// (query_xcm_weight, query_weight_to_asset_fee) on Paseo 1.9.3, Asset Hub Paseo 1.5.1 and People
// Paseo 2.0.6 (2026-12). Any message costs at least this much, so a BuyExecution that pays less is
// refused (TooExpensive) and a weight limit below it fails the barrier. Polkadot's chains run the
// same fellowship runtime code (Paseo mirrors its constants). Elsewhere prices are not known here.
import type { TChain } from '@paraspell/sdk-pjs';

export interface Weight {
  refTime: bigint;
  proofSize: bigint;
}

export interface Price {
  /** The fee of the smallest depositing message, in the relay token's planck. */
  fee: bigint;
  weight: Weight;
}

const RELAY: Price = { fee: 23_377_365n, weight: { refTime: 294_660_000n, proofSize: 7_186n } };
const ASSET_HUB: Price = { fee: 17_965_000n, weight: { refTime: 162_669_000n, proofSize: 3_593n } };
const PEOPLE: Price = { fee: 1_369_305n, weight: { refTime: 296_200_000n, proofSize: 3_593n } };

const PRICES: Partial<Record<TChain, Price>> = {
  Paseo: RELAY,
  AssetHubPaseo: ASSET_HUB,
  PeoplePaseo: PEOPLE,
  Polkadot: RELAY,
  AssetHubPolkadot: ASSET_HUB,
  PeoplePolkadot: PEOPLE,
};

/**
 * Relay chains whose runtime trusts no other chain as the reserve of its token (Paseo 1.9.3
 * refuses a DestinationReserve transfer of PAS to its Asset Hub: InvalidAssetUnsupportedReserve),
 * though the registry names the Asset Hub a reserve too (Polkadot's after its Asset Hub migration).
 */
export const RELAYS_KEEPING_THEIR_RESERVE: ReadonlySet<TChain> = new Set<TChain>(['Paseo']);

/** The least a message costs on `chain`, or undefined where it was not measured. */
export const leastPrice = (chain: TChain): Price | undefined => PRICES[chain];

/** A `Limited` weight limit as a Weight; null for Unlimited or what is not a limit. */
export function limitOf(value: unknown): Weight | null {
  if (typeof value !== 'object' || value === null) return null;
  const limited = (value as Record<string, unknown>).Limited ?? (value as Record<string, unknown>).limited;
  if (typeof limited !== 'object' || limited === null) return null;
  const w = limited as Record<string, unknown>;
  try {
    return { refTime: BigInt(String(w.refTime ?? w.ref_time ?? 0).replace(/,/g, '')), proofSize: BigInt(String(w.proofSize ?? w.proof_size ?? 0).replace(/,/g, '')) };
  } catch {
    return null;
  }
}
