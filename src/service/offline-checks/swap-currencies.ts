// A swap's currencies judged as the router will judge them (router-assets.ts mirrors its lookups):
// a selector that names several assets is refused with candidates the router takes.
import type { TAssetInfo, TCurrencyCore, TSubstrateChain } from '@paraspell/sdk-pjs';
import { sdk } from '../../sdk';
import { EXCHANGE_NAMES, exchangeBaseChain, isManual, type ExchangeName, type RouterCurrency, type RouterRequest } from '../../schemas/router';
import {
  AMBIGUOUS,
  ambiguousAsset,
  ambiguousError,
  candidatesFor,
  matchesOf,
  plainSelectors,
  registryAssets,
  registryChoice,
  registryLookup,
  shown,
  type AssetChoice,
  type CandidateSelector,
  type SelectorField,
} from './asset-choice';
import { exchangeAssetOf, exchangeAssets, exchangeLookup, type ExchangeAsset } from './router-assets';

/** Where the router's fields sit in the caller's body. */
export interface SwapPaths {
  currencyFrom: string;
  currencyTo: string;
  amount: string;
}

/**
 * A swap's currencies as the router resolves them: currencyFrom on the origin's registry (unless
 * the swap starts on the chosen exchange's chain), and in the list of each exchange it would try
 * where it starts there; currencyTo in the list of every exchange it would try. A selector that
 * names several assets is refused with candidates the router takes: no specifiers, ids only with
 * one chosen exchange (the schema refuses them otherwise), else a plain symbol or the location.
 */
export function checkSwapCurrencies(req: RouterRequest, paths: SwapPaths): void {
  const manual = isManual(req.exchange);
  const exchanges: readonly ExchangeName[] = req.exchange ?? EXCHANGE_NAMES;
  const fromField = { path: paths.currencyFrom, hasAmount: paths.amount === `${paths.currencyFrom}.amount` };
  const toField = { path: paths.currencyTo };
  let originAsset: TAssetInfo | null = null;
  if (req.from !== undefined && !(manual && req.from === exchangeBaseChain(exchanges[0]))) {
    const destination = manual ? exchangeBaseChain(exchanges[0]) : null;
    const found = registryLookup(req.from, req.currencyFrom as TCurrencyCore, destination);
    if (found === AMBIGUOUS) {
      const choice = registryChoice(req.from, destination, { ids: manual });
      throw ambiguousAsset(fromField, req.currencyFrom, choice, matchesOf(registryAssets(req.from), req.currencyFrom));
    }
    originAsset = found ?? null;
  }
  // The exchanges the router tries: those that have the asset it starts from.
  const tried = exchanges.filter((exchange) => {
    if (req.from === undefined || req.from === exchangeBaseChain(exchange)) {
      onExchanges([exchange], req.currencyFrom, { strict: false, ids: manual, field: fromField, tried: [exchange] });
      return manual || exchangeLookup(exchange, req.currencyFrom, false) !== null;
    }
    return manual || (originAsset !== null && exchangeAssetOf(exchange, originAsset) !== undefined);
  });
  // Offered only where the swap can go on: an exchange of the origin's ecosystem, an asset the receiving chain holds.
  const receiving = manual ? exchangeBaseChain(exchanges[0]) : req.to !== 'Ethereum' ? req.to : undefined;
  onExchanges(tried, req.currencyTo, {
    strict: !manual,
    ids: manual,
    field: toField,
    tried,
    useful: (exchange) => req.from === undefined || sdk.getRelayChainOf(req.from) === sdk.getRelayChainOf(exchangeBaseChain(exchange) as TSubstrateChain),
    accepts: (selector) => receiving === undefined || 'id' in selector || registryLookup(receiving, selector as TCurrencyCore, null) !== null,
  });
}

interface ExchangeQuery {
  /** Automatic selection: the router refuses any symbol several assets of an exchange share. */
  strict: boolean;
  /** Ids are taken (one chosen exchange). */
  ids: boolean;
  field: SelectorField;
  /** Every exchange the router looks the currency up in: a candidate must be told apart in each. */
  tried: readonly ExchangeName[];
  /** Exchanges whose assets are worth offering (all by default). */
  useful?: (exchange: ExchangeName) => boolean;
  /** Selectors worth offering (all by default). */
  accepts?: (selector: CandidateSelector) => boolean;
}

/** Refuses `currency` where it names several assets of any of `exchanges`, with the candidates of all of them. */
function onExchanges(exchanges: readonly ExchangeName[], currency: RouterCurrency, q: ExchangeQuery): void {
  const ambiguous = exchanges.filter((e) => exchangeLookup(e, currency, q.strict) === AMBIGUOUS);
  if (ambiguous.length === 0) return;
  const seen = new Set<string>();
  const useful = ambiguous.filter(q.useful ?? (() => true));
  const candidates = (useful.length > 0 ? useful : ambiguous).flatMap((exchange) => {
    const chain = exchangeBaseChain(exchange);
    const native = sdk.findNativeAssetInfo(chain)?.location;
    const choice: AssetChoice<ExchangeAsset> = {
      where: exchange,
      chain,
      aliases: false,
      selectors: (asset) => plainSelectors(asset, q.ids),
      lookup: (selector) => {
        const other = selector as RouterCurrency;
        if (q.tried.some((e) => e !== exchange && exchangeLookup(e, other, q.strict) === AMBIGUOUS)) return AMBIGUOUS;
        return exchangeLookup(exchange, other, q.strict);
      },
    };
    const assets = matchesOf(exchangeAssets(exchange), currency).map((a) => ({ ...a, isNative: native !== undefined && sdk.deepEqual(a.location, native) }));
    // An asset several exchanges pool is one candidate.
    return candidatesFor(choice, assets).filter((c) => {
      const key = shown(c.currency);
      return !seen.has(key) && seen.add(key) && (q.accepts?.(c.currency) ?? true);
    });
  });
  const where = ambiguous.length === 1 ? ambiguous[0] : `the exchanges the router tries (${ambiguous.join(', ')})`;
  throw ambiguousError(q.field, `${shown(currency)} could mean any of ${Math.max(candidates.length, 2)} assets of ${where}`, candidates);
}
