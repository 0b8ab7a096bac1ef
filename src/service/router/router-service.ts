// Cross-chain swaps through xcm-router: the request's checks, development mode, one EngineScope per
// request (the router's own chain clients pooled or closed), the deadline, and error translation.
import type { TChain } from '@paraspell/sdk-pjs';
import type { Config } from '../../config';
import { withDeadline } from '../../chains/deadline';
import { EngineScope } from '../../chains/engine-scope';
import { ConnectionPool } from '../../chains/pool';
import { ApiError, badRequest } from '../../errors';
import { SDK_VERSION } from '../../sdk';
import { exchangeBaseChain, isManual, OVERRIDE_IGNORING_EXCHANGES, type ExchangeName, type RouterRequest } from '../../schemas/router';
import { ambiguityInWords, checkOverrideHosts, endpointResolver, fromChainFailure, fromSdkError } from '../sdk-calls';
import type { RouteCheck, RouteExpectation } from '../route-check';
import type { ApiPromise } from '../../sdk';
import { checkSwapBeforeDial, type SwapPaths } from '../offline-checks';
import { toExchangeInput, type EngineCall, type RouterEngine } from './engine';
import { toRouterDryRun, toRouterItems, toRouterXcmFees, type BestAmountOut, type RouterDryRunResult, type RouterItem, type RouterPair, type RouterXcmFeeResult } from './router-shapes';

// ---- guards -----------------------------------------------------------------------------

const unsupported = (message: string): ApiError => badRequest('UnsupportedOperationError', message);

/**
 * Development mode promises that only the caller's endpoints are dialled. xcm-router SDK_VERSION keeps
 * that promise only for one manually chosen exchange other than AcalaDex/KaruraDex: automatic and
 * whitelisted selection build every candidate exchange's clients without overrides, and the
 * Acala/Karura clients always dial the registry (and, unreachable, reject a promise nobody awaits).
 * Such requests are refused up front, and a missing override fails before anything is dialled.
 */
function checkDevelopment(req: RouterRequest): void {
  if (!req.options.development) return;
  if (!isManual(req.exchange)) {
    throw unsupported(
      `options.development needs one manually chosen exchange: with automatic or whitelisted selection the router (xcm-router ${SDK_VERSION}) connects to every candidate exchange through its public endpoints, ignoring apiOverrides`,
    );
  }
  const exchange: ExchangeName = req.exchange[0];
  if (OVERRIDE_IGNORING_EXCHANGES.includes(exchange)) {
    throw unsupported(`options.development cannot be used with ${exchange}: its client (xcm-router ${SDK_VERSION}) always connects to the public endpoints of ${exchangeBaseChain(exchange)}, ignoring apiOverrides`);
  }
  const needed = [...new Set<TChain>([req.from, exchangeBaseChain(exchange), req.to].filter((c): c is TChain => c !== undefined))];
  const missing = needed.filter((c) => !req.options.apiOverrides[c]?.length);
  if (missing.length > 0) {
    throw badRequest('MissingChainApiError', `options.development is on and options.apiOverrides has no endpoint for ${missing.join(', ')}, which this request needs`);
  }
}

/** xcm-router SDK_VERSION reports a currency it cannot find as an InvalidParameterError; it is a currency error. */
const ROUTER_CURRENCY_NOT_FOUND = /^Currency (from|to) .* not found/;
/** ... and a symbol several assets of an exchange share (automatic selection) as one too. */
const ROUTER_AMBIGUOUS = /^Multiple assets found for symbol /;
/** What the router takes to tell assets apart (no currency specifiers). */
const ROUTER_SELECTORS = 'its location, or its id with one chosen exchange (GET /swap/supported-assets-to lists each exchange\'s assets)';

/**
 * The router's refusals, as currency errors where they are. The offline checks catch ambiguous
 * currencies first (with candidates); these are for what still slips through.
 */
function fromRouterError(error: unknown): unknown {
  const mapped = fromSdkError(error);
  if (!(mapped instanceof ApiError)) return mapped;
  if (mapped.kind === 'ValidationError' && ROUTER_CURRENCY_NOT_FOUND.test(mapped.message)) return new ApiError(400, 'InvalidCurrencyError', mapped.message);
  if (mapped.kind === 'AmbiguousAssetError' || (mapped.kind === 'ValidationError' && ROUTER_AMBIGUOUS.test(mapped.message))) {
    return new ApiError(400, 'AmbiguousAssetError', ambiguityInWords(error instanceof Error ? error.message : mapped.message, ROUTER_SELECTORS));
  }
  return mapped;
}

/**
 * Where the route check expects an item to end: its destination chain (the chain itself when the
 * assets stay there), and the request's recipient on the item that carries them to the request's
 * `to` (a one-click swap, executed from the origin, carries them there). Transfers to the exchange go to the sender's account there, which the router chooses; a
 * swap that leaves its output on its own chain deposits nothing the check can read.
 */
function expectationOf(item: RouterItem, req: RouterRequest): RouteExpectation {
  // A one-click swap executed from the origin (no destinationChain) carries the assets to `to`.
  const oneClick = item.statusType === 'SWAP' && item.destinationChain === undefined && item.chain === req.from && req.to !== undefined && req.to !== item.chain;
  const ends = oneClick ? req.to : item.destinationChain;
  const chain = (ends ?? item.chain) as TChain;
  const final = ends !== undefined && ends === req.to && item.statusType !== 'TO_EXCHANGE' && req.recipientAddress !== undefined;
  return final ? { chain, recipient: req.recipientAddress! } : { chain };
}

/** The request as a route check's refusal logs it. */
const logged = (req: RouterRequest, item: RouterItem) => ({
  from: req.from,
  to: req.to,
  exchange: req.exchange,
  currencyFrom: req.currencyFrom,
  currencyTo: req.currencyTo,
  recipient: req.recipientAddress,
  item: { chain: item.chain, statusType: item.statusType, destinationChain: item.destinationChain },
});

// ---- the service ------------------------------------------------------------------------

/** Cross-chain swaps through xcm-router: request checks, deadlines, error and result translation. */
export class RouterService {
  constructor(
    private readonly config: Config,
    private readonly engine: RouterEngine,
    /** Where the router's polkadot.js clients are borrowed from (the service's pool). */
    private readonly pool: ConnectionPool,
    /** Checks each item's call data before it is answered. */
    private readonly routes: RouteCheck,
  ) {}

  /** `work` may borrow a chain's client from the pool (the request's endpoints, under its deadline). */
  private async run<T>(req: RouterRequest, what: string, work: (call: EngineCall, borrow: (chain: string) => Promise<ApiPromise>) => Promise<T>, fields?: SwapPaths): Promise<T> {
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
    const endpoints = endpointResolver(req.options, this.config.CHAIN_ENDPOINTS);
    const scope = new EngineScope(this.pool, this.config.CONNECT_TIMEOUT_MS, endpoints);
    const borrow = (chain: string) => scope.borrow(chain, endpoints(chain));
    try {
      return await withDeadline((signal) => scope.run(() => work(call, borrow), signal), this.config.REQUEST_TIMEOUT_MS, `${what} ${route}`);
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
    return this.run(
      req,
      'Building the swap',
      async (call, borrow) => {
        const items = await toRouterItems(await this.engine.buildTransactions(call), req);
        // Each item is decoded with the metadata of the chain it is submitted on, then walked.
        for (const item of items) {
          const api = await borrow(item.chain);
          this.routes.check(api.registry, item.chain as TChain, item.tx, [expectationOf(item, req)], logged(req, item));
        }
        return items;
      },
      fields,
    );
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
