// The router operations this service uses, as a seam tests replace (RouterEngine), and the real
// engine over xcm-router, which loads on first use (src/sdk/router.ts).
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
import { loadRouter, routerRegistry } from '../../sdk';
import type { RouterRequest } from '../../schemas/router';

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
