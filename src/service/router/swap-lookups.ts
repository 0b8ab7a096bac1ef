// Swap lookups: what the router can swap, read from its own registry (registry.ts) without
// loading the router engine. Offline and static for a given router release, so the HTTP layer
// caches the answers. The pairs are `RouterService.pairs`, shared with `POST /router/pairs`.
import type { TAssetInfo, TChain } from '@paraspell/sdk-pjs';
import type { TRouterAsset } from '@paraspell/xcm-router';
import type { ExchangeName } from '../../schemas/router';
import { toExchangeInput } from '../router-engine';
import { routerRegistry } from './registry';

/** The exchanges, as the router names them (its EXCHANGE_CHAINS). */
export const exchangeChains = (): readonly string[] => routerRegistry().EXCHANGE_CHAINS;

/**
 * Assets a swap can start from, as the router answers it: with `from` only, every asset of
 * `from`; with an exchange, its assets (those `from` also holds when `from` is not the exchange's
 * chain); with neither, none.
 */
export const supportedAssetsFrom = (exchange: ExchangeName[] | undefined, from: TChain | undefined): TAssetInfo[] =>
  routerRegistry().getSupportedAssetsFrom(from, toExchangeInput(exchange));

/** Assets a swap can end in: the exchanges' assets (all exchanges' without one), those `to` also holds when given. */
export const supportedAssetsTo = (exchange: ExchangeName[] | undefined, to: TChain | undefined): TRouterAsset[] =>
  routerRegistry().getSupportedAssetsTo(toExchangeInput(exchange), to);
