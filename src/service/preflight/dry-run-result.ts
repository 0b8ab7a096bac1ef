// The dry-run result of the contract (`/dry-run`, `/dry-run-preview`), from sdk-pjs SDK_VERSION's:
//
// * Dry run (`TDryRunResult`): flat `failureReason` / `failureSubReason` / `failureChain` at the
//   top; `origin`, `destination?`, `assetHub?`, `bridgeHub?`, `hops[]`. Every non-destination hop
//   the message passes through is pushed into `hops` (traverseXcmHops), so `assetHub` / `bridgeHub`
//   are DUPLICATES of entries of `hops` (the top-level `bridgeHub` copy additionally gets its
//   `asset` relabelled to BridgeHub's native asset; the Ethereum bridge fee is also written back
//   into the hop). Per-chain results carry `success`, `failureReason`, `failureSubReason?`, a
//   deprecated `currency` symbol string and an `asset` (TAssetInfo) object. Weight is bigint.
//   11.x never reports an instruction index or instruction: we pass them on only if a later SDK
//   supplies `failureIndex` / `failureInstruction`.
import type { TDryRunChainResult, TDryRunResult } from '@paraspell/sdk-pjs';
import { toContractAsset, type AssetResolver, type ContractAsset } from './contract-asset';
import { chainKindOf, firstFailure, foldHubs, legError, str, toWeight, type ContractWeight, type DryRunError, type LegDryRunError, type TranslateOptions } from './route-legs';

export interface DryRunLegSuccess {
  success: true;
  fee: string;
  asset: ContractAsset;
  /** Present whenever the chain reported an actual weight (11.x leaves it out otherwise). */
  weight?: ContractWeight;
  /** `[destinationLocation, messages[]]` as the chain's DryRunApi returned it, or `[]`. */
  forwardedXcms: unknown[];
  /** Para id the forwarded message goes to (0 = relay chain); absent when nothing is forwarded. */
  destParaId?: number;
}

export interface DryRunLegFailure {
  success: false;
  dryRunError: LegDryRunError;
  asset: ContractAsset;
}

export type DryRunLeg = DryRunLegSuccess | DryRunLegFailure;

export interface DryRunHop {
  chain: string;
  result: DryRunLeg;
}

/** Response of `/dry-run` and `/dry-run-preview`. */
export interface DryRunResult {
  success: boolean;
  /** Present iff `success` is false. */
  dryRunError?: DryRunError;
  origin: DryRunLeg;
  /** Only when the origin did not fail and the message reached the destination. */
  destination?: DryRunLeg;
  /** Intermediate chains in route order (asset hub and bridge hub included); `[]` if none. */
  hops: DryRunHop[];
}

function toDryRunLeg(r: TDryRunChainResult, chain: string, resolve?: AssetResolver): DryRunLeg {
  const asset = toContractAsset(r.asset, chain, resolve);
  if (r.success) {
    const leg: DryRunLegSuccess = {
      success: true,
      fee: str(r.fee),
      asset,
      forwardedXcms: Array.isArray(r.forwardedXcms) ? (r.forwardedXcms as unknown[]) : [],
    };
    const weight = toWeight(r.weight);
    if (weight) leg.weight = weight;
    if (r.destParaId !== undefined) leg.destParaId = r.destParaId;
    return leg;
  }
  return {
    success: false,
    dryRunError: legError(r.failureReason, r.failureSubReason, r, 'failureIndex', 'failureInstruction'),
    asset,
  };
}

/**
 * `TDryRunResult` (11.x) -> contract dry-run result.
 *
 * `dryRunError.chainKind`: the first failed leg in route order - `origin` when the origin's own
 * dry run failed, `hop` when an intermediate chain (asset hub, bridge hub or any other hop in
 * `hops`) failed, `destination` when the final chain failed. `chain` is that chain's name.
 * If no leg is marked failed but the SDK still set `failureReason`, its `failureChain` is mapped.
 */
export function toDryRunResult(r: TDryRunResult, opts: TranslateOptions): DryRunResult {
  const { resolveAsset } = opts;
  const origin = toDryRunLeg(r.origin, opts.origin, resolveAsset);
  const rawHops = foldHubs(r.hops, { assetHub: r.assetHub, bridgeHub: r.bridgeHub }, opts.origin);
  const hops: DryRunHop[] = rawHops.map((h) => ({ chain: h.chain, result: toDryRunLeg(h.result, h.chain, resolveAsset) }));
  const destination = origin.success && r.destination ? toDryRunLeg(r.destination, opts.destination, resolveAsset) : undefined;

  let dryRunError = firstFailure([
    { chain: opts.origin, kind: 'origin', error: origin.success ? undefined : origin.dryRunError },
    ...hops.map((h) => ({ chain: h.chain, kind: 'hop' as const, error: h.result.success ? undefined : h.result.dryRunError })),
    { chain: opts.destination, kind: 'destination', error: destination && !destination.success ? destination.dryRunError : undefined },
  ]);
  if (!dryRunError && r.failureReason) {
    dryRunError = {
      ...legError(r.failureReason, r.failureSubReason, r, 'failureIndex', 'failureInstruction'),
      ...chainKindOf(r.failureChain ?? 'origin', opts, hops.map((h) => h.chain)),
    };
  }

  const out: DryRunResult = { success: !dryRunError, origin, hops };
  if (dryRunError) out.dryRunError = dryRunError;
  if (destination) out.destination = destination;
  return out;
}
