// The ONE translation layer between what @paraspell/sdk-pjs 11.14.8 returns for the pre-flight
// queries (dry run, XCM fee, origin XCM fee, transfer info) and the response shapes of our HTTP
// contract (openapi.yaml: DryRunResult, XcmFeeResult, OriginXcmFeeResult, TransferInfoResult).
//
// What 11.14.8 actually returns (read from sdk-core/dist/index.cjs and sdk-pjs/dist/index.cjs):
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
// * Transfer info (`TTransferInfo`): bigint amounts, deprecated `currencySymbol` strings,
//   duplicate `assetHub` / `bridgeHub` objects, and `UnableToComputeError` INSTANCES as values of
//   destination `sufficient` / `receivedAmount` / `balanceAfter`. BridgeHub hops carry only
//   `{currencySymbol, xcmFee}` (no `asset`, no `existentialDeposit`).
//
// The contract shapes: `success` + nested `dryRunError {reason, subReason?, chain, chainKind,
// instructionIndex?, instruction?}`, only `hops[]`, full Asset objects, amounts as decimal strings.

import type {
  TAssetInfo,
  TDryRunChainResult,
  TDryRunResult,
  TFeeType,
  TGetXcmFeeResult,
  TLocation,
  TTransferInfo,
  TWeight,
  TXcmFeeDetail,
  TChain,
} from '@paraspell/sdk-pjs';
import { ApiError } from '../errors';
import { sdk } from '../sdk';

// ---------------------------------------------------------------------------------------------
// Contract types
// ---------------------------------------------------------------------------------------------

/** Asset object of the contract. `existentialDeposit` and amounts are decimal strings (base units). */
export interface ContractAsset {
  symbol: string;
  decimals: number;
  existentialDeposit: string;
  /**
   * `{parents, interior}`. Absent only for registry assets that have no location at all
   * (164 of the 1019 assets in the 11.14.8 registry, e.g. several Acala tokens).
   */
  location?: TLocation;
  assetId?: string;
  isNative?: boolean;
  isFeeAsset?: boolean;
  alias?: string;
  /** Only on destination fee assets: the fee amount charged in this asset. */
  amount?: string;
}

/** Which leg of the route failed. */
export type ChainKind = 'origin' | 'destination' | 'hop';

/** Dry-run error as nested in a leg (`origin`, `destination`, a hop result): no chain. */
export interface LegDryRunError {
  reason: string;
  subReason?: string;
  instructionIndex?: number;
  instruction?: unknown;
}

/** Top-level dry-run error: where (chain name) and which leg (`chainKind`) failed. */
export interface DryRunError extends LegDryRunError {
  chain: string;
  chainKind: ChainKind;
}

export interface ContractWeight {
  refTime: string;
  proofSize: string;
}

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

/** A value the SDK could not compute (11.x returns an `UnableToComputeError` instance). */
export interface UnableToCompute {
  error: 'UnableToComputeError';
  message: string;
}
export type Computed<T> = T | UnableToCompute;

export interface TransferInfoHopResult {
  asset?: ContractAsset;
  existentialDeposit?: string;
  xcmFee: { fee: string; asset?: ContractAsset };
}

/** Response of `/transfer-info`. */
export interface TransferInfoResult {
  chain: { origin: string; destination: string; ecosystem: string };
  origin: {
    selectedCurrency: {
      sufficient: boolean;
      balance: string;
      balanceAfter: string;
      asset: ContractAsset;
      existentialDeposit: string;
    };
    xcmFee: {
      sufficient: boolean;
      fee: string;
      balance: string;
      balanceAfter: string;
      asset: ContractAsset;
    };
  };
  destination?: {
    receivedCurrency: {
      sufficient: Computed<boolean>;
      receivedAmount: Computed<string>;
      balance: string;
      balanceAfter: Computed<string>;
      asset: ContractAsset;
      existentialDeposit: string;
    };
    xcmFee: {
      fee: string;
      /** Recipient's balance of the fee asset (11.x returns it although its .d.ts omits it). */
      balance?: string;
      balanceAfter: Computed<string>;
      asset: ContractAsset;
      /** The destination could not be dry-run (the XCM passes a hop without dry-run support): `fee` is the SDK's placeholder. */
      dryRunError?: LegDryRunError;
    };
  };
  hops: { chain: string; result: TransferInfoHopResult }[];
}

// ---------------------------------------------------------------------------------------------
// Asset resolution
// ---------------------------------------------------------------------------------------------

/** What the translator asks a resolver for: a symbol, an SDK asset to complete, or the native asset. */
export type AssetRef = string | TAssetInfo | { native: true };

/**
 * Looks an asset up on a chain. Return undefined when unknown/ambiguous; never throw.
 * `registryAssetResolver` below implements it with the SDK's offline registry.
 */
export type AssetResolver = (chain: string, ref: AssetRef) => ContractAsset | undefined;

export interface TranslateOptions {
  /** Origin chain name (the SDK result does not carry it). */
  origin: string;
  /** Destination chain name. */
  destination: string;
  /** Completes assets (missing location/ED), turns symbols into assets, finds native assets. */
  resolveAsset?: AssetResolver;
  /** Relabel `paymentInfo` fees with the chain's native asset (default true; needs resolveAsset). */
  paymentInfoInNative?: boolean;
}

const isNativeRef = (ref: AssetRef): ref is { native: true } =>
  typeof ref === 'object' && ref !== null && 'native' in ref && !('symbol' in ref);

/** TAssetInfo (or an already-translated asset) -> contract asset, completed by the resolver when needed. */
export function toContractAsset(asset: TAssetInfo | ContractAsset, chain: string, resolve?: AssetResolver): ContractAsset {
  const out: ContractAsset = {
    symbol: asset.symbol,
    decimals: asset.decimals,
    existentialDeposit: asset.existentialDeposit ?? '',
  };
  if (asset.location) out.location = asset.location;
  if ('assetId' in asset && asset.assetId !== undefined) out.assetId = String(asset.assetId);
  if ('isNative' in asset && asset.isNative !== undefined) out.isNative = asset.isNative;
  if (asset.isFeeAsset !== undefined) out.isFeeAsset = asset.isFeeAsset;
  if (asset.alias !== undefined) out.alias = asset.alias;
  if ('amount' in asset && typeof asset.amount === 'string') out.amount = asset.amount;

  if ((out.existentialDeposit === '' || !out.location) && resolve) {
    const found = resolve(chain, asset as TAssetInfo);
    if (found) {
      if (out.existentialDeposit === '') out.existentialDeposit = found.existentialDeposit;
      if (!out.location && found.location) out.location = found.location;
    }
  }
  if (out.existentialDeposit === '') {
    // Every asset of the 11.14.8 registry has an ED; reaching this means a hand-made asset.
    throw new ApiError(500, 'AssetInfoIncompleteError', `No existential deposit known for ${asset.symbol} on ${chain}`);
  }
  return out;
}

function resolveRef(chain: string, ref: AssetRef, resolve?: AssetResolver): ContractAsset | undefined {
  if (!resolve) return undefined;
  try {
    return resolve(chain, ref);
  } catch {
    return undefined;
  }
}

const CHAIN_SET = new Set<string>(sdk.CHAINS);

/**
 * Default resolver over the SDK's offline registry (findAssetInfo / findNativeAssetInfo).
 * Symbols that are ambiguous on the chain resolve to the native asset if it has that symbol, else undefined.
 */
export const registryAssetResolver: AssetResolver = (chain, ref) => {
  if (!CHAIN_SET.has(chain)) return undefined;
  const c = chain as TChain;
  const attempt = (f: () => TAssetInfo | null): TAssetInfo | null => {
    try {
      return f();
    } catch {
      return null;
    }
  };
  let found: TAssetInfo | null = null;
  if (isNativeRef(ref)) {
    found = attempt(() => sdk.findNativeAssetInfo(c));
  } else if (typeof ref === 'string') {
    found =
      attempt(() => sdk.findAssetInfo(c, { symbol: ref }, null)) ??
      attempt(() => sdk.findAssetInfo(c, { symbol: { type: 'Native', value: ref } }, null));
  } else {
    const loc = ref.location;
    const id = 'assetId' in ref ? ref.assetId : undefined;
    found =
      (loc ? attempt(() => sdk.findAssetInfo(c, { location: loc }, null)) : null) ??
      (id !== undefined ? attempt(() => sdk.findAssetInfo(c, { id }, null)) : null) ??
      attempt(() => sdk.findAssetInfo(c, { symbol: ref.symbol }, null));
  }
  if (!found || found.existentialDeposit === undefined) return undefined;
  return toContractAsset(found, chain);
};

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

const str = (v: bigint | number): string => (typeof v === 'bigint' ? v.toString(10) : BigInt(v).toString(10));

function toWeight(w: TWeight | undefined): ContractWeight | undefined {
  if (!w) return undefined;
  return { refTime: str(w.refTime), proofSize: str(w.proofSize) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Builds a leg error; also carries instruction index/instruction if a newer SDK supplies them. */
function legError(reason: string, subReason: string | undefined, raw: unknown, idxKey: string, insKey: string): LegDryRunError {
  const e: LegDryRunError = { reason };
  if (subReason !== undefined && subReason !== '') e.subReason = subReason;
  if (isRecord(raw)) {
    const idx = raw[idxKey];
    if (typeof idx === 'number') e.instructionIndex = idx;
    if (raw[insKey] !== undefined) e.instruction = raw[insKey];
  }
  return e;
}

type HubKey = 'assetHub' | 'bridgeHub';
const HUB_PREFIX: Record<HubKey, string> = { assetHub: 'AssetHub', bridgeHub: 'BridgeHub' };

function hubChainName(hub: HubKey, origin: string): string {
  let relay = '';
  try {
    if (CHAIN_SET.has(origin) && origin !== 'Ethereum') relay = sdk.getRelayChainOf(origin as Parameters<typeof sdk.getRelayChainOf>[0]);
  } catch {
    relay = '';
  }
  return `${HUB_PREFIX[hub]}${relay}`;
}

/**
 * Folds the SDK's separate `assetHub` / `bridgeHub` objects into `hops`. In 11.14.8 they are
 * always already in `hops` (same chain), so normally they are just dropped; only if no hop on that
 * hub exists (defensive) is the object appended as a hop.
 */
function foldHubs<R>(hops: { chain: string; result: R }[], hubs: Partial<Record<HubKey, R>>, origin: string): { chain: string; result: R }[] {
  const out = [...hops];
  for (const hub of ['assetHub', 'bridgeHub'] as const) {
    const r = hubs[hub];
    if (r === undefined) continue;
    if (out.some((h) => h.chain.startsWith(HUB_PREFIX[hub]))) continue;
    out.push({ chain: hubChainName(hub, origin), result: r });
  }
  return out;
}

function chainKindOf(chain: string, opts: { origin: string; destination: string }, hopChains: string[]): { chain: string; chainKind: ChainKind } {
  if (chain === 'origin') return { chain: opts.origin, chainKind: 'origin' };
  if (chain === 'destination') return { chain: opts.destination, chainKind: 'destination' };
  if (chain === 'assetHub' || chain === 'bridgeHub') {
    const hop = hopChains.find((c) => c.startsWith(HUB_PREFIX[chain]));
    return { chain: hop ?? hubChainName(chain, opts.origin), chainKind: 'hop' };
  }
  if (hopChains.includes(chain)) return { chain, chainKind: 'hop' };
  if (chain === opts.origin) return { chain, chainKind: 'origin' };
  if (chain === opts.destination) return { chain, chainKind: 'destination' };
  return { chain, chainKind: 'hop' };
}

/** Route order: origin, then hops in order, then destination. The first failed leg is THE failure. */
function firstFailure(
  legs: { chain: string; kind: ChainKind; error: LegDryRunError | undefined }[],
): DryRunError | undefined {
  for (const l of legs) if (l.error) return { ...l.error, chain: l.chain, chainKind: l.kind };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Dry run
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// XCM fee
// ---------------------------------------------------------------------------------------------

/** One fee detail as 11.x really produces it (the .d.ts claims `asset`/`currency` always exist; they don't). */
type SdkFeeDetail = Partial<TXcmFeeDetail> & { dryRunError?: string; dryRunSubError?: string };

/** `getOriginXcmFee` (builder `getOriginXcmFee()`) result in 11.14.8. */
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

// ---------------------------------------------------------------------------------------------
// Transfer info
// ---------------------------------------------------------------------------------------------

function computed<T>(v: T | Error, map: (x: T) => T extends bigint ? string : T): Computed<T extends bigint ? string : T> {
  if (v instanceof Error) return { error: 'UnableToComputeError', message: v.message };
  return map(v);
}
const bigStr = <T>(x: T): T extends bigint ? string : T => (typeof x === 'bigint' ? x.toString(10) : x) as T extends bigint ? string : T;

type SdkHopTransferInfoResult = {
  asset?: TAssetInfo;
  currencySymbol?: string;
  existentialDeposit?: bigint;
  xcmFee: { fee: bigint; asset?: TAssetInfo; currencySymbol?: string };
};

function toTransferHop(chain: string, r: SdkHopTransferInfoResult, resolve?: AssetResolver): TransferInfoHopResult {
  const out: TransferInfoHopResult = { xcmFee: { fee: str(r.xcmFee.fee) } };
  const asset = r.asset
    ? toContractAsset(r.asset, chain, resolve)
    : r.currencySymbol !== undefined
      ? resolveRef(chain, r.currencySymbol, resolve)
      : undefined;
  if (asset) out.asset = asset;
  if (r.existentialDeposit !== undefined) out.existentialDeposit = str(r.existentialDeposit);
  const feeA = r.xcmFee.asset
    ? toContractAsset(r.xcmFee.asset, chain, resolve)
    : r.xcmFee.currencySymbol !== undefined
      ? resolveRef(chain, r.xcmFee.currencySymbol, resolve)
      : undefined;
  if (feeA) out.xcmFee.asset = feeA;
  return out;
}

/**
 * `TTransferInfo` (11.x) -> contract transfer info: `chain`, `origin`, `destination` (when the SDK
 * produced one; 11.x always does, its fee query falls back to payment info), `hops` (always; the
 * `assetHub` / `bridgeHub` duplicates folded in). All bigints become decimal strings;
 * `UnableToComputeError` values become `{error: 'UnableToComputeError', message}`; deprecated
 * `currencySymbol` strings are dropped (BridgeHub hops, which have no `asset`, get one from the
 * resolver through that symbol).
 */
export function toTransferInfoResult(r: TTransferInfo, opts: { resolveAsset?: AssetResolver } = {}): TransferInfoResult {
  const resolve = opts.resolveAsset;
  const originChain = r.chain.origin;
  const destChain = r.chain.destination;
  const sel = r.origin.selectedCurrency;
  const ofee = r.origin.xcmFee;

  const hubs: Partial<Record<HubKey, SdkHopTransferInfoResult>> = {};
  if (r.assetHub) hubs.assetHub = r.assetHub;
  if (r.bridgeHub) hubs.bridgeHub = r.bridgeHub;
  const rawHops = foldHubs<SdkHopTransferInfoResult>(r.hops ?? [], hubs, originChain);

  const out: TransferInfoResult = {
    chain: { origin: originChain, destination: destChain, ecosystem: r.chain.ecosystem },
    origin: {
      selectedCurrency: {
        sufficient: sel.sufficient,
        balance: str(sel.balance),
        balanceAfter: str(sel.balanceAfter),
        asset: toContractAsset(sel.asset, originChain, resolve),
        existentialDeposit: str(sel.existentialDeposit),
      },
      xcmFee: {
        sufficient: ofee.sufficient,
        fee: str(ofee.fee),
        balance: str(ofee.balance),
        balanceAfter: str(ofee.balanceAfter),
        asset: toContractAsset(ofee.asset, originChain, resolve),
      },
    },
    hops: rawHops.map((h) => ({ chain: h.chain, result: toTransferHop(h.chain, h.result, resolve) })),
  };

  const d = r.destination as TTransferInfo['destination'] | undefined;
  if (d) {
    const rc = d.receivedCurrency;
    const destBalance = (d.xcmFee as { balance?: unknown }).balance;
    out.destination = {
      receivedCurrency: {
        sufficient: computed(rc.sufficient, bigStr),
        receivedAmount: computed(rc.receivedAmount, bigStr),
        balance: str(rc.balance),
        balanceAfter: computed(rc.balanceAfter, bigStr),
        asset: toContractAsset(rc.asset, destChain, resolve),
        existentialDeposit: str(rc.existentialDeposit),
      },
      xcmFee: {
        fee: str(d.xcmFee.fee),
        balanceAfter: computed(d.xcmFee.balanceAfter, bigStr),
        asset: toContractAsset(d.xcmFee.asset, destChain, resolve),
      },
    };
    if (typeof destBalance === 'bigint') out.destination.xcmFee.balance = str(destBalance);
  }
  return out;
}
