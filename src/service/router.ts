import type { TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import type { TRouterAsset, TRouterDryRunResult, TRouterPlan, TRouterXcmFeeResult, TTransaction } from '@paraspell/xcm-router';
import type { Config } from '../config';
import { withDeadline } from '../chains/deadline';
import { EngineScope } from '../chains/engine-clients';
import { ConnectionPool } from '../chains/pool';
import { ApiError, badRequest } from '../errors';
import { sdk } from '../sdk';
import {
  exchangeBaseChain,
  isManual,
  OVERRIDE_IGNORING_EXCHANGES,
  type ExchangeName,
  type RouterRequest,
} from '../schemas/router';
import { checkOverrideHosts, fromChainFailure, fromSdkError } from './sdk-calls';
import { checkSwapBeforeDial, type SwapPaths } from './offline-checks';
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
} from './preflight';
import { realEngine, toExchangeInput, type EngineCall, type RouterEngine } from './router-engine';

// ---- contract shapes --------------------------------------------------------------------

/**
 * What the client does with an item, in submission order:
 * - `TO_EXCHANGE`: transfer from the origin to the exchange chain (router type TRANSFER);
 * - `SWAP`: the swap on the exchange chain, or a one-click swap executed from the origin
 *   (AssetHub*Dex and HydrationDex when origin or destination differs from the exchange chain);
 * - `SWAP_AND_TRANSFER`: the swap and the transfer on to the destination, batched on the exchange chain;
 * - `TO_DESTINATION`: transfer from the exchange chain to the destination on its own (a router
 *   TRANSFER that follows the swap; xcm-router 11.14.8 does not emit one, it batches it instead).
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

/** The router's dry run -> the contract's dry-run result (through the pre-flight translation). */
export function toRouterDryRun(r: TRouterDryRunResult, req: RouterRequest): RouterDryRunResult {
  const names = legNames(req, r.hops);
  const t = toDryRunResult(r, { ...names, resolveAsset: registryAssetResolver });
  const out: RouterDryRunResult = {
    ...t,
    origin: markExchange(t.origin, r.origin),
    hops: t.hops.map((h, i) => markExchange(h, r.hops[i]?.chain === h.chain ? r.hops[i] : undefined)),
  };
  if (t.destination) out.destination = markExchange(t.destination, r.destination);
  return out;
}

/** The router's fees -> the contract's XCM fee result (through the pre-flight translation). */
export function toRouterXcmFees(r: TRouterXcmFeeResult, req: RouterRequest): RouterXcmFeeResult {
  const names = legNames(req, r.hops);
  const t = toXcmFeeResult(r, { ...names, resolveAsset: registryAssetResolver });
  const out: RouterXcmFeeResult = {
    ...t,
    origin: markExchange(t.origin, r.origin),
    hops: t.hops.map((h, i) => markExchange(h, r.hops[i]?.chain === h.chain ? r.hops[i] : undefined)),
  };
  if (t.destination) out.destination = markExchange(t.destination, r.destination);
  return out;
}

// ---- guards -----------------------------------------------------------------------------

const unsupported = (message: string): ApiError => badRequest('UnsupportedOperationError', message);

/**
 * Development mode promises that only the caller's endpoints are dialled. xcm-router 11.14.8 keeps
 * that promise only for one manually chosen exchange other than AcalaDex/KaruraDex: automatic and
 * whitelisted selection build every candidate exchange's clients without overrides, and the
 * Acala/Karura clients always dial the registry (and, unreachable, reject a promise nobody awaits).
 * Such requests are refused up front, and a missing override fails before anything is dialled.
 */
function checkDevelopment(req: RouterRequest): void {
  if (!req.options.development) return;
  if (!isManual(req.exchange)) {
    throw unsupported(
      'options.development needs one manually chosen exchange: with automatic or whitelisted selection the router (xcm-router 11.14.8) connects to every candidate exchange through its public endpoints, ignoring apiOverrides',
    );
  }
  const exchange: ExchangeName = req.exchange[0];
  if (OVERRIDE_IGNORING_EXCHANGES.includes(exchange)) {
    throw unsupported(`options.development cannot be used with ${exchange}: its client (xcm-router 11.14.8) always connects to the public endpoints of ${exchangeBaseChain(exchange)}, ignoring apiOverrides`);
  }
  const needed = [...new Set<TChain>([req.from, exchangeBaseChain(exchange), req.to].filter((c): c is TChain => c !== undefined))];
  const missing = needed.filter((c) => !req.options.apiOverrides[c]?.length);
  if (missing.length > 0) {
    throw badRequest('MissingChainApiError', `options.development is on and options.apiOverrides has no endpoint for ${missing.join(', ')}, which this request needs`);
  }
}

/** xcm-router 11.14.8 reports a currency it cannot find as an InvalidParameterError; it is a currency error. */
const ROUTER_CURRENCY_NOT_FOUND = /^Currency (from|to) .* not found/;

function fromRouterError(error: unknown): unknown {
  const mapped = fromSdkError(error);
  if (mapped instanceof ApiError && mapped.kind === 'ValidationError' && ROUTER_CURRENCY_NOT_FOUND.test(mapped.message)) {
    return new ApiError(400, 'InvalidCurrencyError', mapped.message);
  }
  return mapped;
}

// ---- the service ------------------------------------------------------------------------

/** Cross-chain swaps through xcm-router: request checks, deadlines, error and result translation. */
export class RouterService {
  constructor(
    private readonly config: Config,
    private readonly engine: RouterEngine = realEngine,
    /** Where the router's polkadot.js clients are borrowed from (the service's pool). */
    private readonly pool: ConnectionPool = new ConnectionPool({
      connectTimeoutMs: config.CONNECT_TIMEOUT_MS,
      idleTimeoutMs: config.IDLE_TIMEOUT_MS,
      maxChains: config.MAX_CHAINS,
    }),
  ) {}

  private async run<T>(req: RouterRequest, what: string, work: (call: EngineCall) => Promise<T>, fields?: SwapPaths): Promise<T> {
    checkSwapBeforeDial(req, this.config, fields);
    await checkOverrideHosts(req.options.apiOverrides, this.pool.guard);
    checkDevelopment(req);
    const call: EngineCall = {
      request: req,
      builderOptions: {
        apiOverrides: req.options.apiOverrides,
        development: req.options.development,
        abstractDecimals: req.options.abstractDecimals,
      },
    };
    const route = `${req.from ?? 'exchange'} -> ${req.to ?? 'exchange'}`;
    // Every chain client the router opens for this request is pooled or closed when it ends;
    // a client that cannot connect fails the request at the connect deadline.
    const scope = new EngineScope(this.pool, this.config.CONNECT_TIMEOUT_MS);
    try {
      return await withDeadline((signal) => scope.run(() => work(call), signal), this.config.REQUEST_TIMEOUT_MS, `${what} ${route}`);
    } catch (error) {
      throw fromChainFailure(error, scope.leases) ?? fromRouterError(error);
    } finally {
      scope.end();
    }
  }

  // `fields` says where the caller's body holds the router's fields (a router body by default;
  // /x-transfers and pre-flight bodies with swapOptions name them currency and swapOptions.*).

  /** The transactions to sign and submit, in order (`/router`, `/router-hash`, `/x-transfers`). */
  build(req: RouterRequest, fields?: SwapPaths): Promise<RouterItem[]> {
    return this.run(req, 'Building the swap', async (call) => toRouterItems(await this.engine.buildTransactions(call), req), fields);
  }

  async dryRun(req: RouterRequest, fields?: SwapPaths): Promise<RouterDryRunResult> {
    return toRouterDryRun(await this.run(req, 'Dry-running the swap', (call) => this.engine.dryRun(call), fields), req);
  }

  async xcmFees(req: RouterRequest, fields?: SwapPaths): Promise<RouterXcmFeeResult> {
    return toRouterXcmFees(await this.run(req, 'Pricing the swap', (call) => this.engine.getXcmFees(call), fields), req);
  }

  async transferableAmount(req: RouterRequest, fields?: SwapPaths): Promise<string> {
    return (await this.run(req, 'Transferable amount for the swap', (call) => this.engine.getTransferableAmount(call), fields)).toString(10);
  }

  async minTransferableAmount(req: RouterRequest, fields?: SwapPaths): Promise<string> {
    return (await this.run(req, 'Minimal amount for the swap', (call) => this.engine.getMinTransferableAmount(call), fields)).toString(10);
  }

  async bestAmountOut(req: RouterRequest, fields?: SwapPaths): Promise<BestAmountOut> {
    const r = await this.run(req, 'Best amount out for the swap', (call) => this.engine.getBestAmountOut(call), fields);
    return { exchange: r.exchange, amountOut: r.amountOut.toString(10) };
  }

  /** Asset pairs (offline, from the router's bundled data): all exchanges, a whitelist or one. */
  pairs(exchange: ExchangeName[] | undefined): RouterPair[] {
    return this.engine.pairs(toExchangeInput(exchange));
  }
}
