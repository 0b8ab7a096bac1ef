// The XCM fee results of the contract (`/xcm-fee`, `/origin-xcm-fee`), from sdk-pjs SDK_VERSION's:
//
// * XCM fee (`TGetXcmFeeResult`): top-level `failureReason?` / `failureChain?`; `origin`,
//   `destination` (always present in 11.x), `assetHub?` / `bridgeHub?` (duplicates of hops again),
//   `hops[]`. Per-chain details carry string `dryRunError` / `dryRunSubError`, `currency`,
//   `asset`, bigint `fee`, `feeType`, `sufficient?`, origin `weight?`. With `disableFallback`
//   a failed hop or destination is ONLY `{dryRunError, dryRunSubError}` (no asset, no fee,
//   although the .d.ts says `asset` is always there) - see getDestXcmFee.
// * Fees of type `paymentInfo` are, by the nature of TransactionPaymentApi, amounts in the
//   NATIVE asset of that chain, yet 11.x labels them with the transferred asset (origin-only
//   paymentInfo: `currency` = native symbol but `asset` = the transferred/fee asset; hop and
//   destination paymentInfo: `asset` = transferred asset). The contract itself says "payment info
//   returns fees only in the native asset", so by default we relabel `paymentInfo` fees with the
//   chain's native asset (needs an AssetResolver; option `paymentInfoInNative: false` keeps the
//   SDK's label).
import type { TFeeType, TGetXcmFeeResult, TXcmFeeDetail } from '@paraspell/sdk-pjs';
import { resolveRef, toContractAsset, type ContractAsset } from './contract-asset';
import { chainKindOf, firstFailure, foldHubs, legError, str, toWeight, type ContractWeight, type DryRunError, type LegDryRunError, type TranslateOptions } from './route-legs';

export type FeeType = TFeeType;

/**
 * Fee of one leg. `fee` / `feeType` are absent only when the dry run failed and the fallback to
 * payment info was disabled (`disableFallback`); `asset` is absent only for a hop or destination
 * in that same case (11.x returns nothing but the error there).
 */
export interface XcmFeeLeg {
  fee?: string;
  feeType?: FeeType;
  sufficient?: boolean;
  asset?: ContractAsset;
  /** The dry run failed on this leg (with fallback, `fee` then comes from payment info). */
  dryRunError?: LegDryRunError;
}

export interface OriginXcmFee extends XcmFeeLeg {
  weight?: ContractWeight;
}

export interface XcmFeeHop {
  chain: string;
  result: XcmFeeLeg;
}

/** Response of `/origin-xcm-fee`. */
export interface OriginXcmFeeResult {
  success: boolean;
  dryRunError?: DryRunError;
  origin: OriginXcmFee;
}

/** Response of `/xcm-fee`. */
export interface XcmFeeResult extends OriginXcmFeeResult {
  /** Absent when the origin failed (no origin fee at all, i.e. `disableFallback` and a failed origin dry run). */
  destination?: XcmFeeLeg;
  hops: XcmFeeHop[];
}

/** One fee detail as 11.x really produces it (the .d.ts claims `asset`/`currency` always exist; they don't). */
type SdkFeeDetail = Partial<TXcmFeeDetail> & { dryRunError?: string; dryRunSubError?: string };

/** `getOriginXcmFee` (builder `getOriginXcmFee()`) result in SDK_VERSION. */
export type SdkOriginXcmFee = TXcmFeeDetail & { forwardedXcms?: unknown; destParaId?: number };

function feeAsset(d: SdkFeeDetail, chain: string, opts: TranslateOptions): ContractAsset | undefined {
  const { resolveAsset } = opts;
  if (d.feeType === 'paymentInfo' && opts.paymentInfoInNative !== false) {
    const native = resolveRef(chain, { native: true }, resolveAsset);
    if (native) return native;
  }
  if (d.asset) return toContractAsset(d.asset, chain, resolveAsset);
  if (typeof d.currency === 'string') return resolveRef(chain, d.currency, resolveAsset);
  return undefined;
}

function toFeeLeg(d: SdkFeeDetail, chain: string, opts: TranslateOptions): XcmFeeLeg {
  const leg: XcmFeeLeg = {};
  if (d.fee !== undefined) leg.fee = str(d.fee);
  if (d.feeType !== undefined) leg.feeType = d.feeType;
  if (typeof d.sufficient === 'boolean') leg.sufficient = d.sufficient;
  const asset = feeAsset(d, chain, opts);
  if (asset) leg.asset = asset;
  if (d.dryRunError) leg.dryRunError = legError(d.dryRunError, d.dryRunSubError, d, 'dryRunErrorIndex', 'dryRunErrorInstruction');
  return leg;
}

function toOriginFee(d: SdkFeeDetail, opts: TranslateOptions): OriginXcmFee {
  const leg: OriginXcmFee = toFeeLeg(d, opts.origin, opts);
  const w = toWeight(d.weight);
  if (w) leg.weight = w;
  return leg;
}

const originFailed = (o: XcmFeeLeg): boolean => o.fee === undefined && o.dryRunError !== undefined;

/**
 * 11.x fee result -> contract XCM fee result.
 *
 * - `originOnly: true` (`/origin-xcm-fee`): accepts the origin detail of `getOriginXcmFee()` (or a
 *   full result, of which only `origin` is used); the result has neither `destination` nor `hops`.
 * - Full (`/xcm-fee`): `hops` always (asset hub / bridge hub folded in); `destination` unless the
 *   origin failed outright (no origin fee: dry run failed with `disableFallback`).
 * - `success` is false when any leg reports a dry-run error, also when a fallback to payment info
 *   still produced a fee; `dryRunError` is then the first failed leg in route order.
 */
export function toXcmFeeResult(r: TGetXcmFeeResult, opts: TranslateOptions & { originOnly?: false }): XcmFeeResult;
export function toXcmFeeResult(r: SdkOriginXcmFee | TGetXcmFeeResult, opts: TranslateOptions & { originOnly: true }): OriginXcmFeeResult;
export function toXcmFeeResult(
  r: SdkOriginXcmFee | TGetXcmFeeResult,
  opts: TranslateOptions & { originOnly?: boolean },
): XcmFeeResult | OriginXcmFeeResult {
  const full = 'hops' in r && 'destination' in r ? (r as TGetXcmFeeResult) : undefined;
  const originDetail: SdkFeeDetail = full ? full.origin : (r as SdkOriginXcmFee);
  const origin = toOriginFee(originDetail, opts);

  if (opts.originOnly || !full) {
    const dryRunError = origin.dryRunError ? { ...origin.dryRunError, chain: opts.origin, chainKind: 'origin' as const } : undefined;
    const out: OriginXcmFeeResult = { success: !dryRunError, origin };
    if (dryRunError) out.dryRunError = dryRunError;
    return out;
  }

  const rawHops = foldHubs<SdkFeeDetail>(full.hops, { assetHub: full.assetHub, bridgeHub: full.bridgeHub }, opts.origin);
  const hops: XcmFeeHop[] = rawHops.map((h) => ({ chain: h.chain, result: toFeeLeg(h.result, h.chain, opts) }));
  const destination = originFailed(origin) ? undefined : toFeeLeg(full.destination, opts.destination, opts);
  if (destination?.asset && destination.fee !== undefined) destination.asset = { ...destination.asset, amount: destination.fee };

  let dryRunError = firstFailure([
    { chain: opts.origin, kind: 'origin', error: origin.dryRunError },
    ...hops.map((h) => ({ chain: h.chain, kind: 'hop' as const, error: h.result.dryRunError })),
    { chain: opts.destination, kind: 'destination', error: destination?.dryRunError },
  ]);
  if (!dryRunError && full.failureReason) {
    dryRunError = { reason: full.failureReason, ...chainKindOf(full.failureChain ?? 'origin', opts, hops.map((h) => h.chain)) };
  }
  const out: XcmFeeResult = { success: !dryRunError, origin, hops };
  if (dryRunError) out.dryRunError = dryRunError;
  if (destination) out.destination = destination;
  return out;
}
