// The router's answers in the contract's shapes: its plan as items to sign in order, its dry run
// and fees through the pre-flight translators, with the exchange chain marked.
import type { TSubstrateChain } from '@paraspell/sdk-pjs';
import type { TRouterAsset, TRouterDryRunResult, TRouterPlan, TRouterXcmFeeResult, TTransaction } from '@paraspell/xcm-router';
import { sdk } from '../../sdk';
import { exchangeBaseChain, isManual, type RouterRequest } from '../../schemas/router';
import {
  registryAssetResolver,
  toDryRunResult,
  toXcmFeeResult,
  type DryRunHop,
  type DryRunLeg,
  type DryRunResult,
  type XcmFeeHop,
  type XcmFeeLeg,
  type XcmFeeResult,
} from '../preflight';

// ---- contract shapes --------------------------------------------------------------------

/**
 * What the client does with an item, in submission order:
 * - `TO_EXCHANGE`: transfer from the origin to the exchange chain (router type TRANSFER);
 * - `SWAP`: the swap on the exchange chain, or a one-click swap executed from the origin
 *   (AssetHub*Dex and HydrationDex when origin or destination differs from the exchange chain);
 * - `SWAP_AND_TRANSFER`: the swap and the transfer on to the destination, batched on the exchange chain;
 * - `TO_DESTINATION`: transfer from the exchange chain to the destination on its own (a router
 *   TRANSFER that follows the swap; xcm-router SDK_VERSION does not emit one, it batches it instead).
 */
export type RouterStatusType = 'TO_EXCHANGE' | 'SWAP' | 'SWAP_AND_TRANSFER' | 'TO_DESTINATION';
export const ROUTER_STATUS_TYPES: readonly RouterStatusType[] = ['TO_EXCHANGE', 'SWAP', 'SWAP_AND_TRANSFER', 'TO_DESTINATION'];

/** Router transaction item of the contract, plus `chain`, `destinationChain` and `amountOut`. */
export interface RouterItem {
  /** Hex of the call data to sign and submit on `chain`. */
  tx: string;
  /** Endpoints of `chain`: the request's apiOverrides for it, else the registry's. */
  wsProviders: string[];
  statusType: RouterStatusType;
  /** The chain on which to submit `tx`. */
  chain: string;
  /** Where the assets go (absent when they stay on `chain`). */
  destinationChain?: string;
  /** Swap items only: expected amount out, base units of currencyTo, decimal string. */
  amountOut?: string;
}

type WithExchange<T> = T & { isExchange?: boolean };

/** Contract dry-run result; `isExchange` marks the leg or hop that is the exchange chain. */
export interface RouterDryRunResult extends Omit<DryRunResult, 'origin' | 'destination' | 'hops'> {
  origin: WithExchange<DryRunLeg>;
  destination?: WithExchange<DryRunLeg>;
  hops: WithExchange<DryRunHop>[];
}

/** Contract XCM fee result; `isExchange` as for dry runs. */
export interface RouterXcmFeeResult extends Omit<XcmFeeResult, 'origin' | 'destination' | 'hops'> {
  origin: WithExchange<XcmFeeResult['origin']>;
  destination?: WithExchange<XcmFeeLeg>;
  hops: WithExchange<XcmFeeHop>[];
}

export interface BestAmountOut {
  exchange: string;
  /** Base units of currencyTo, decimal string. */
  amountOut: string;
}

export type RouterPair = [TRouterAsset, TRouterAsset];

// ---- translation at the SDK boundary ----------------------------------------------------

/** Endpoints to show for a chain: the caller's override if any, else the registry's. */
function providersOf(chain: TSubstrateChain, req: RouterRequest): string[] {
  const override = req.options.apiOverrides[chain];
  if (override && override.length > 0) return [...override];
  return sdk.getChainProviders(chain);
}

/** A TRANSFER before any swap goes to the exchange; one after a swap leaves it. */
function statusTypeOf(item: TTransaction, swapSeen: boolean): RouterStatusType {
  if (item.type === 'TRANSFER') return swapSeen ? 'TO_DESTINATION' : 'TO_EXCHANGE';
  return item.type;
}

/** The router's plan (papi transactions, bigints) -> contract items. */
export async function toRouterItems(plan: TRouterPlan, req: RouterRequest): Promise<RouterItem[]> {
  let swapSeen = false;
  const items: RouterItem[] = [];
  for (const item of plan) {
    const statusType = statusTypeOf(item, swapSeen);
    if (item.type !== 'TRANSFER') swapSeen = true;
    const data = await item.tx.getEncodedData();
    const out: RouterItem = { tx: data.asHex(), wsProviders: providersOf(item.chain, req), statusType, chain: item.chain };
    if (item.destinationChain !== undefined) out.destinationChain = item.destinationChain;
    if (item.type !== 'TRANSFER') out.amountOut = item.amountOut.toString(10);
    items.push(out);
  }
  return items;
}

const manualBase = (req: RouterRequest): TSubstrateChain | undefined => (isManual(req.exchange) ? exchangeBaseChain(req.exchange[0]) : undefined);

/**
 * Names of the chains the result's `origin` and `destination` stand for: without `from` the swap
 * starts on the exchange chain, without `to` it ends there. With automatic selection and no `to`,
 * the chosen exchange is not in the result; the hop marked isExchange names it if there is one.
 */
function legNames(req: RouterRequest, hops: { chain: string; isExchange?: boolean }[]): { origin: string; destination: string } {
  const exchange = manualBase(req) ?? hops.find((h) => h.isExchange)?.chain ?? 'exchange';
  return { origin: req.from ?? exchange, destination: req.to ?? exchange };
}

function markExchange<L extends object>(leg: L, raw: { isExchange?: boolean } | undefined): WithExchange<L> {
  return raw?.isExchange ? { ...leg, isExchange: true } : leg;
}

type ExchangeMarks = { isExchange?: boolean } | undefined;

/** `t`'s legs marked where the router's `r` says they swap; a hop only where `r`'s hop is the same chain. */
function markExchanges<O extends object, H extends { chain: string }, D extends object>(
  t: { origin: O; hops: H[]; destination?: D },
  r: { origin?: ExchangeMarks; hops: { chain: string; isExchange?: boolean }[]; destination?: ExchangeMarks },
): { origin: WithExchange<O>; hops: WithExchange<H>[]; destination?: WithExchange<D> } {
  const marked = {
    origin: markExchange(t.origin, r.origin),
    hops: t.hops.map((h, i) => markExchange(h, r.hops[i]?.chain === h.chain ? r.hops[i] : undefined)),
  };
  return t.destination ? { ...marked, destination: markExchange(t.destination, r.destination) } : marked;
}

/** The router's dry run -> the contract's dry-run result (through the pre-flight translation). */
export function toRouterDryRun(r: TRouterDryRunResult, req: RouterRequest): RouterDryRunResult {
  const t = toDryRunResult(r, { ...legNames(req, r.hops), resolveAsset: registryAssetResolver });
  return { ...t, ...markExchanges(t, r) };
}

/** The router's fees -> the contract's XCM fee result (through the pre-flight translation). */
export function toRouterXcmFees(r: TRouterXcmFeeResult, req: RouterRequest): RouterXcmFeeResult {
  const t = toXcmFeeResult(r, { ...legNames(req, r.hops), resolveAsset: registryAssetResolver });
  return { ...t, ...markExchanges(t, r) };
}
