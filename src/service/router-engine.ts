// The xcm-router engine, loaded on first use only. The router and what it pulls in (polkadot-api,
// the exchanges' SDKs) cost ~0.5 s and ~35 MB RSS to load; a process that never serves a router
// request must not pay that. Loaded through `require` like the SDK (src/sdk.ts), so both share one
// copy of @paraspell/sdk-core and @polkadot/*.
import { createRequire } from 'node:module';
import type {
  TExchangeInput,
  TGetBestAmountOutResult,
  TRouterAsset,
  TRouterBuilderOptions,
  TRouterDryRunResult,
  TRouterPlan,
  TRouterXcmFeeResult,
} from '@paraspell/xcm-router';
import type { TCurrencyInput } from '@paraspell/sdk-pjs';
import { routeEngineClientsThroughScopes } from '../chains/engine-clients';
import { sdk } from '../sdk';
import type { RouterRequest } from '../schemas/router';
import { routerRegistry } from './router/registry';

type XcmRouter = typeof import('@paraspell/xcm-router');

/** What one router call needs: the request and the router's builder options. */
export interface EngineCall {
  request: RouterRequest;
  builderOptions: TRouterBuilderOptions;
}

/**
 * The router operations this service uses, typed with the router's own result types. It is the
 * seam tests replace: nothing here can run offline (every call needs live chains).
 */
export interface RouterEngine {
  /** xcm-router's EXCHANGE_CHAINS (from its registry: the engine stays unloaded). */
  exchanges(): readonly string[];
  /** Its pairs, from the same registry. */
  pairs(exchange: TExchangeInput): [TRouterAsset, TRouterAsset][];
  buildTransactions(call: EngineCall): Promise<TRouterPlan>;
  dryRun(call: EngineCall): Promise<TRouterDryRunResult>;
  getXcmFees(call: EngineCall): Promise<TRouterXcmFeeResult>;
  getTransferableAmount(call: EngineCall): Promise<bigint>;
  getMinTransferableAmount(call: EngineCall): Promise<bigint>;
  getBestAmountOut(call: EngineCall): Promise<TGetBestAmountOutResult>;
}

const load = createRequire(__filename);
let loaded: XcmRouter | undefined;

/** Loads @paraspell/xcm-router once, its chain clients routed through request scopes. */
export function loadRouter(): XcmRouter {
  if (loaded) return loaded;
  const router = load('@paraspell/xcm-router') as XcmRouter;
  // The router's polkadot-api clients are created by us (with our socket class); see EngineScope.
  routeEngineClientsThroughScopes(sdk, load('@paraspell/sdk') as { Builder(options: object): unknown });
  loaded = router;
  return loaded;
}

/** Whether the router has been loaded in this process (for tests and start-up checks). */
export const isRouterLoaded = (): boolean => loaded !== undefined;

/** The router's exchange input: one exchange is a string (its tuple type needs at least two). */
export function toExchangeInput(exchange: RouterRequest['exchange']): TExchangeInput {
  if (exchange === undefined) return undefined;
  if (exchange.length === 1) return exchange[0];
  // Validated names of EXCHANGE_CHAINS, at least two of them here.
  return exchange as unknown as TExchangeInput;
}

/** The fields every router operation takes: route, exchange, currencies and amount. */
function routeBuilder({ request: r, builderOptions }: EngineCall) {
  return loadRouter()
    .RouterBuilder(builderOptions)
    .from(r.from)
    .exchange(toExchangeInput(r.exchange))
    .to(r.to)
    .currencyFrom(r.currencyFrom as TCurrencyInput)
    .currencyTo(r.currencyTo as TCurrencyInput)
    .amount(r.amount);
}

/** The builder with every field of the request applied, in the order the router's types expect. */
function builder(call: EngineCall) {
  const r = call.request;
  const b = routeBuilder(call).slippagePct(r.slippagePct).recipientAddress(r.recipientAddress).evmSenderAddress(r.evmSenderAddress);
  // Operations whose contract row leaves the sender optional measure the recipient's account.
  const sender = r.senderAddress ?? r.recipientAddress ?? '';
  return b.senderAddress(sender);
}

/** The real engine: each chain operation is one RouterBuilder chain. */
export const realEngine: RouterEngine = {
  exchanges: () => routerRegistry().EXCHANGE_CHAINS,
  pairs: (exchange) => routerRegistry().getExchangePairs(exchange),
  buildTransactions: (call) => builder(call).buildTransactions(),
  dryRun: (call) => builder(call).dryRun(),
  getXcmFees: (call) => builder(call).getXcmFees(),
  getTransferableAmount: (call) => builder(call).getTransferableAmount(),
  getMinTransferableAmount: (call) => builder(call).getMinTransferableAmount(),
  getBestAmountOut: (call) => routeBuilder(call).getBestAmountOut(),
};
