// The one translation layer between what @paraspell/sdk-pjs SDK_VERSION returns for the pre-flight
// queries (dry run, XCM fee, origin XCM fee, transfer info) and the response shapes of our HTTP
// contract (openapi.yaml: DryRunResult, XcmFeeResult, OriginXcmFeeResult, TransferInfoResult): one
// file per result (dry-run-result.ts, xcm-fee-result.ts, transfer-info-result.ts, each with what
// SDK_VERSION really returns, read from sdk-core/dist/index.cjs and sdk-pjs/dist/index.cjs), their
// assets (contract-asset.ts) and, here, what the results share: the legs of a route (origin, hops,
// destination), the first leg that failed, and the SDK's duplicate `assetHub` / `bridgeHub` objects
// folded into `hops`.
//
// The contract shapes: `success` + nested `dryRunError {reason, subReason?, chain, chainKind,
// instructionIndex?, instruction?}`, only `hops[]`, full Asset objects, amounts as decimal strings.
import type { TWeight } from '@paraspell/sdk-pjs';
import { sdk } from '../../sdk';
import { CHAIN_SET, type AssetResolver } from './contract-asset';

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

export const str = (v: bigint | number): string => (typeof v === 'bigint' ? v.toString(10) : BigInt(v).toString(10));

export function toWeight(w: TWeight | undefined): ContractWeight | undefined {
  if (!w) return undefined;
  return { refTime: str(w.refTime), proofSize: str(w.proofSize) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Builds a leg error; also carries instruction index/instruction if a newer SDK supplies them. */
export function legError(reason: string, subReason: string | undefined, raw: unknown, idxKey: string, insKey: string): LegDryRunError {
  const e: LegDryRunError = { reason };
  if (subReason !== undefined && subReason !== '') e.subReason = subReason;
  if (isRecord(raw)) {
    const idx = raw[idxKey];
    if (typeof idx === 'number') e.instructionIndex = idx;
    if (raw[insKey] !== undefined) e.instruction = raw[insKey];
  }
  return e;
}

export type HubKey = 'assetHub' | 'bridgeHub';
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
 * Folds the SDK's separate `assetHub` / `bridgeHub` objects into `hops`. In SDK_VERSION they are
 * always already in `hops` (same chain), so normally they are just dropped; only if no hop on that
 * hub exists (defensive) is the object appended as a hop.
 */
export function foldHubs<R>(hops: { chain: string; result: R }[], hubs: Partial<Record<HubKey, R>>, origin: string): { chain: string; result: R }[] {
  const out = [...hops];
  for (const hub of ['assetHub', 'bridgeHub'] as const) {
    const r = hubs[hub];
    if (r === undefined) continue;
    if (out.some((h) => h.chain.startsWith(HUB_PREFIX[hub]))) continue;
    out.push({ chain: hubChainName(hub, origin), result: r });
  }
  return out;
}

export function chainKindOf(chain: string, opts: { origin: string; destination: string }, hopChains: string[]): { chain: string; chainKind: ChainKind } {
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
export function firstFailure(
  legs: { chain: string; kind: ChainKind; error: LegDryRunError | undefined }[],
): DryRunError | undefined {
  for (const l of legs) if (l.error) return { ...l.error, chain: l.chain, chainKind: l.kind };
  return undefined;
}
