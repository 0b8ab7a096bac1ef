// Every check that needs no chain, in one place and one order, run by every chain-backed
// operation (transfer, batch, pre-flight, router, swap) before it borrows a connection. The SDK
// makes most of these checks itself, but some only after it has dialled the origin (or not at
// all: a parachain -> the other ecosystem's relay waits for the connection); a caller must get
// the same 400 from every operation, and never a 503 for input that could not have worked.
//
// Order: chains (known and compatible) -> route (the registry has a way) -> currency (resolves on
// the origin and, where the registry knows, on the destination) -> addresses -> amount -> options.
import type { TAssetInfo, TChain, TCurrencyCore, TLocation, TSubstrateChain } from '@paraspell/sdk-pjs';
import { formatUnits } from 'viem';
import type { Config } from '../../config';
import { ApiError, badRequest } from '../../errors';
import { customAssetLists, sdk } from '../../sdk';
import { scaleAmount } from '../../schemas/amount-scale';
import { addressMismatch } from '../../schemas/address';
import { exchangeBaseChain, isManual, type RouterCurrency, type RouterRequest } from '../../schemas/router';
import type { TransferCurrency, TransferOptions, TransferRequest } from '../../schemas/transfer';
import { AddressGuard } from '../../chains/address-guard';
import { checkOverrideUrls, fromSdkError } from '../sdk-calls';
import { checkTransactRequest, type TransactCandidate } from './transact-checks';
import {
  AMBIGUOUS,
  ambiguousError,
  candidatesFor,
  describeCandidate,
  isDuplicateAssetError,
  issuedOn,
  matchesOf,
  registryAssets,
  registryChoice,
  registryLookup,
  resolveOnChain,
  shown,
  type Lookup,
  type SelectorField,
} from './asset-choice';
import { checkSwapCurrencies, type SwapPaths } from './swap-currencies';

/** sdk-core's MIN_AMOUNT: it silently sends 2 base units for anything smaller (a runtime panics below). */
export const MIN_AMOUNT = 2n;

const refuse = (kind: string, path: string, message: string): ApiError => badRequest(kind, `${path.replace(/^body\./, '')} ${message}`, [{ path, message }]);

/** Runs an offline SDK check, turning what it throws into our error (a bug of ours stays one). */
function sdkCheck<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw fromSdkError(error);
  }
}

const isLocation = (to: TChain | TLocation): to is TLocation => typeof to === 'object';
const isOverride = (selector: object): boolean =>
  'location' in selector && typeof selector.location === 'object' && selector.location !== null && 'type' in selector.location;

// ---- chains -------------------------------------------------------------------------------

/** The relay chain a chain belongs to (Ethereum belongs to none). */
function ecosystemOf(chain: TChain): string {
  return chain === 'Ethereum' ? 'Ethereum' : sdk.getRelayChainOf(chain as TSubstrateChain);
}

const incompatible = (from: string, to: string, why: string): ApiError =>
  new ApiError(400, 'UnsupportedOperationError', `from and to are not compatible: ${from} -> ${to}: ${why}`, [
    { path: 'body.to', message: `cannot be reached from ${from}: ${why}` },
  ]);

/** The SDK's validateDestination, plus what it lets through and only refuses after dialling. */
export function checkChains(from: TChain, to: TChain | TLocation): void {
  if (from === 'Ethereum') {
    throw badRequest('UnsupportedOperationError', 'Transfers from Ethereum are EVM transactions: POST /evm-x-transfer builds them', [
      { path: 'body.from', message: 'must be a Substrate chain here' },
    ]);
  }
  if (isLocation(to) || from === to) return;
  if (sdk.isRelayChain(from) && sdk.isRelayChain(to)) {
    throw incompatible(from, to, 'relay chains do not transfer to each other directly; use the asset hub bridge (AssetHubPolkadot <-> AssetHubKusama)');
  }
  if (to === 'Ethereum') {
    if (sdk.isRelayChain(from)) throw incompatible(from, to, 'a relay chain does not transfer to Ethereum; send from AssetHubPolkadot');
    const allowed = ['AssetHubPolkadot', 'Hydration', 'BifrostPolkadot', 'Moonbeam', 'Mythos'];
    if (!allowed.includes(from)) throw incompatible(from, to, `transfers to Ethereum start on ${allowed.join(', ')}`);
    return;
  }
  if (sdk.isSubstrateBridge(from, to)) return;
  const [a, b] = [ecosystemOf(from), ecosystemOf(to)];
  if (a !== b) throw incompatible(from, to, `${from} belongs to ${a} and ${to} to ${b}; only the asset hubs bridge the two`);
}

// ---- currency -----------------------------------------------------------------------------

type Selector = TCurrencyCore | { location: { type: 'Override'; value: TLocation } };
interface Sent {
  selector: Selector;
  amount: string;
  path: string;
  /** The registry asset on the origin; undefined for an Override location or a duplicate symbol the SDK resolves itself. */
  asset?: TAssetInfo;
}

function sentAssets(currency: TransferCurrency): Sent[] {
  const list = Array.isArray(currency) ? currency : [currency];
  return list.map(({ amount, ...selector }, i) => ({
    selector: selector as Selector,
    amount,
    path: Array.isArray(currency) ? `body.currency.${i}` : 'body.currency',
  }));
}

function unknownOnOrigin(from: TChain, selector: Selector, path: string): ApiError {
  if ('location' in selector) {
    return refuse(
      'InvalidCurrencyError',
      `${path}.location`,
      sdk.isRelayChain(from)
        ? `is no asset of ${from}'s registry; a relay chain sends only its registered assets (Override locations are not accepted from a relay chain). Select the asset by symbol, e.g. {"symbol": "${sdk.getNativeAssetSymbol(from)}"}`
        : `is no asset of ${from}'s registry. To send an asset the registry does not know, wrap its location: {"location": "Override(<location JSON>)"}; POST /assets/${from}/asset-info shows a registry asset's location`,
    );
  }
  return refuse('InvalidCurrencyError', path, `${JSON.stringify(selector)} is not an asset of ${from} (GET /assets/${from} lists them)`);
}

// What checkCurrency found for a single asset sent to a chain depends only on (origin, destination,
// selector, fee asset) and the registry, fixed for the life of the process but for a request's
// custom assets: a selector that passed is judged once. Bounded, oldest out; refusals not kept.
const CURRENCY_CHECKS_HELD = 4_096;
/** Keys longer than this (a selector with a long location) are judged each time: the memo stays a few MB at most. */
const LONGEST_CURRENCY_KEY = 512;
const currencyChecks = new Map<string, TAssetInfo | undefined>();

/** checkCurrency, its outcome kept for a single asset sent to a chain with no custom assets in play. */
function checkCurrencyOnce(req: TransferRequest): Sent[] {
  const { from, to, currency, feeAsset } = req;
  if (Array.isArray(currency) || isLocation(to) || customAssetLists(from) || customAssetLists(to)) return checkCurrency(req);
  const { amount, ...selector } = currency;
  const key = `${from}|${to}|${JSON.stringify(selector)}|${JSON.stringify(feeAsset ?? null)}`;
  if (currencyChecks.has(key)) return [{ selector: selector as Selector, amount, path: 'body.currency', asset: currencyChecks.get(key) }];
  const sent = checkCurrency(req);
  if (key.length > LONGEST_CURRENCY_KEY) return sent;
  if (currencyChecks.size >= CURRENCY_CHECKS_HELD) currencyChecks.delete(currencyChecks.keys().next().value as string);
  currencyChecks.set(key, sent[0].asset);
  return sent;
}

/** The SDK's resolveAsset + validateAssetSupport (bridge and Ethereum rules included), before dialling. */
function checkCurrency(req: TransferRequest): Sent[] {
  const { from, to, currency, feeAsset } = req;
  const dest = isLocation(to) ? null : to;
  const sent = sentAssets(currency);
  if (Array.isArray(currency) && currency.length === 1) {
    throw refuse('InvalidCurrencyError', 'body.currency', 'lists one asset: send it as a single currency object, or list two or more');
  }
  const relay = sdk.isRelayChain(from);
  for (const s of sent) {
    if (isOverride(s.selector)) {
      if (relay) throw unknownOnOrigin(from, s.selector, s.path);
      continue;
    }
    const selector = s.selector as TCurrencyCore;
    const field = { path: s.path, hasAmount: true };
    // The SDK resolves the assets of a multi-asset transfer from a parachain on its own path (on
    // the origin, without a destination): only a selector that names several assets is refused here.
    if (Array.isArray(currency) && !relay) {
      resolveOnChain(from, selector, null, field);
      continue;
    }
    // A candidate offered instead must be one the destination tells apart as well.
    const accepts = dest === null ? undefined : (a: TAssetInfo) => destinationLookup(from, dest, a) !== AMBIGUOUS;
    const asset = resolveOnChain(from, selector, dest, field, accepts);
    if (!asset) throw unknownOnOrigin(from, selector, s.path);
    s.asset = asset;
    if (dest !== null) {
      checkDestinationAsset(from, dest, selector, asset, field);
      checkDestinationSupport(from, dest, selector, asset, s.path);
    }
  }
  if (feeAsset !== undefined) {
    const found = resolveOnChain(from, feeAsset, dest, { path: 'body.feeAsset' });
    if (!found) throw refuse('InvalidCurrencyError', 'body.feeAsset', `${JSON.stringify(feeAsset)} is not an asset of ${from}`);
  }
  return sent;
}

// The registry is fixed for the life of the process (a request's custom assets aside), so each
// (origin, destination, asset) is looked up once: the SDK compares the asset's location with every
// asset of the destination (a fifth of the offline checks of a teleport). Bounded, oldest out.
const DESTINATION_LOOKUPS_HELD = 4_096;
const destinationLookups = new Map<string, Lookup<TAssetInfo>>();

/** The asset `to` receives for `asset` of `from`, as the SDK finds it there (by location, else by symbol). */
function destinationLookup(from: TChain, to: TChain, asset: TAssetInfo): Lookup<TAssetInfo> {
  if (customAssetLists(from) || customAssetLists(to)) return lookUpOnDestination(from, to, asset);
  const id = 'assetId' in asset ? asset.assetId : undefined;
  const key = `${from}|${to}|${asset.symbol}|${id}|${JSON.stringify(asset.location ?? null)}`;
  if (destinationLookups.has(key)) return destinationLookups.get(key);
  const found = lookUpOnDestination(from, to, asset);
  if (destinationLookups.size >= DESTINATION_LOOKUPS_HELD) destinationLookups.delete(destinationLookups.keys().next().value as string);
  destinationLookups.set(key, found);
  return found;
}

function lookUpOnDestination(from: TChain, to: TChain, asset: TAssetInfo): Lookup<TAssetInfo> {
  try {
    return sdk.findAssetInfoOnDest(from, to, { symbol: asset.symbol }, asset);
  } catch (error) {
    // Only the ambiguity is judged here; whether `to` has the asset at all is checkDestinationSupport's.
    return isDuplicateAssetError(error) ? AMBIGUOUS : null;
  }
}

/**
 * The engine finds the destination's asset by the origin asset's location, else by its symbol:
 * an asset `to` does not hold at that location, whose symbol `to` gives several assets, would
 * become one of them, nobody can say which. The way out is an asset of `from` that `to` tells apart.
 */
function checkDestinationAsset(from: TChain, to: TChain, selector: TCurrencyCore, asset: TAssetInfo, field: SelectorField): void {
  if (destinationLookup(from, to, asset) !== AMBIGUOUS) return;
  const there = matchesOf(registryAssets(to), { symbol: asset.symbol }).length;
  const choice = registryChoice(from, to, undefined, (a) => destinationLookup(from, to, a) !== AMBIGUOUS);
  const candidates = candidatesFor(choice, matchesOf(registryAssets(from), { symbol: asset.symbol }));
  const what = describeCandidate({ ...asset, isNative: false, issuedOn: issuedOn(asset, from) });
  throw ambiguousError(
    field,
    `${shown(selector)} is ${what} of ${from}, which ${to} does not hold at its location, and ${to} has ${there} assets called ${asset.symbol}: which one it would become cannot be told. The assets of ${from} called ${asset.symbol} that ${to} tells apart`,
    candidates,
  );
}

function checkDestinationSupport(from: TChain, to: TChain, selector: TCurrencyCore, asset: TAssetInfo, path: string): void {
  const bridge = sdk.isSubstrateBridge(from, to);
  if (!bridge && !sdk.isRelayChain(to) && !('id' in selector) && !sdk.hasSupportForAsset(to, asset.symbol)) {
    throw refuse('InvalidCurrencyError', path, `${asset.symbol} is not an asset of the destination ${to} (POST /assets/${from}/supported-destinations lists where it can go)`);
  }
  if (bridge) {
    const native = sdkCheck(() => sdk.findNativeAssetInfoOrThrow(from));
    const eco = sdk.getRelayChainOf(to as TSubstrateChain).toLowerCase();
    const bridged = asset.location?.parents === 2 && JSON.stringify(asset.location.interior).toLowerCase().includes(`{"globalconsensus":{"${eco}":null}}`);
    if (!sdk.isAssetEqual(asset, native) && !bridged) {
      throw refuse('InvalidCurrencyError', path, `${asset.symbol} cannot cross the bridge to ${to}: it carries ${from}'s native asset and assets bridged from ${to}'s ecosystem`);
    }
  }
  if (to === 'Ethereum' && from !== 'Mythos') {
    const text = JSON.stringify(asset.location ?? {});
    const ethereum = asset.location?.parents === 2 && text.includes('"Ethereum":{"chainId":1}');
    const allowed = ethereum || text === JSON.stringify({ parents: 1, interior: { Here: null } }) || text === JSON.stringify({ parents: 2, interior: { X1: [{ GlobalConsensus: { Kusama: null } }] } });
    if (!allowed) throw refuse('InvalidCurrencyError', path, `${asset.symbol} cannot be sent to Ethereum (only Ethereum assets, DOT and KSM cross Snowbridge)`);
  }
}

// ---- addresses ----------------------------------------------------------------------------

/**
 * The SDK's validateAddress for the recipient on `to` and the sender on `from`. (The body schemas
 * check the recipient too, naming the family's field; this keeps the rule for every caller.)
 */
function checkAddresses(req: TransferRequest): void {
  // The SDK's message for the asset hub returns what the bridge does not spend to the sender there;
  // from an EVM chain that account is not the sender's, so the caller names it (else the SDK
  // refuses, after dialling three chains).
  if (req.to === 'Ethereum' && sdk.isChainEvm(req.from) && req.ahAddress === undefined) {
    throw refuse(
      'MissingParameterError',
      'body.ahAddress',
      `is required from ${req.from} to Ethereum: the sender's asset hub account (SS58), where what the asset hub does not spend goes (POST /x-transfer takes it)`,
    );
  }
  if (typeof req.recipient === 'string' && !isLocation(req.to)) {
    const mismatch = addressMismatch(req.recipient, req.to, sdk.isChainEvm(req.to));
    if (mismatch) throw badRequest('InvalidAddressError', `The recipient address ${mismatch}`);
  }
  if (req.sender === undefined) return;
  const mismatch = addressMismatch(req.sender, req.from, sdk.isChainEvm(req.from));
  if (mismatch) throw badRequest('InvalidAddressError', `The sender address ${mismatch}`);
}

// ---- amount -------------------------------------------------------------------------------

/**
 * An amount in base units, refused where the engine would change it: more fraction digits than
 * the asset has decimals (it would truncate), or less than the engine's minimum (it would send 2).
 */
export function checkAmount(amount: string, asset: TAssetInfo | undefined, abstractDecimals: boolean, path: string, minimum: bigint | undefined): void {
  if (amount === 'ALL') return;
  const [whole, fraction = ''] = amount.split('.');
  if (!/^\d+$/.test(whole) || !/^\d*$/.test(fraction)) return; // the schema reports malformed amounts
  if (fraction.length > 0 && !abstractDecimals) return; // ditto: decimals need abstractDecimals
  if (asset === undefined) {
    // An asset outside the registry (Override): its decimals are unknown, base units are not.
    if (!abstractDecimals && minimum !== undefined && BigInt(whole) < minimum) throw refuse('AmountTooLowError', path, `is below the smallest amount the engine sends: ${minimum} base units`);
    return;
  }
  if (fraction.length > asset.decimals) {
    throw refuse('NumberFormatError', path, `has ${fraction.length} fraction digits, but ${asset.symbol} has ${asset.decimals} decimals`);
  }
  const base = abstractDecimals ? scaleAmount(amount, asset.decimals) : BigInt(whole);
  if (minimum !== undefined && base < minimum) {
    const shown = abstractDecimals ? `${formatUnits(minimum, asset.decimals)} ${asset.symbol} (${minimum} base units)` : `${minimum} base units of ${asset.symbol}`;
    throw refuse('AmountTooLowError', path, `is below the smallest amount the engine sends: ${shown}`);
  }
}

// ---- options ------------------------------------------------------------------------------

function checkOptions(options: Pick<TransferOptions, 'apiOverrides' | 'development'>, allowPrivate: boolean, needs: TChain[]): void {
  checkOverrideUrls(options.apiOverrides, new AddressGuard(allowPrivate));
  if (!options.development) return;
  const missing = [...new Set(needs)].filter((c) => c !== 'Ethereum' && !options.apiOverrides[c]?.length);
  if (missing.length > 0) {
    throw badRequest('MissingChainApiError', `options.development is on and options.apiOverrides has no endpoint for ${missing.join(', ')}, which this request needs`, [
      { path: 'body.options.apiOverrides', message: `needs an endpoint for ${missing.join(', ')}` },
    ]);
  }
}

// ---- the two entry points -----------------------------------------------------------------

/**
 * Everything about a transfer-shaped request (x-transfer, each batch item, every pre-flight
 * query, transact) that can be refused without a chain. Throws the ApiError a caller gets.
 */
export function checkBeforeDial(req: TransferRequest & Pick<TransactCandidate, 'transact'>, config: Pick<Config, 'ALLOW_PRIVATE_OVERRIDES'>): void {
  // A transact's own rules come first: they say what to send instead of a shape it cannot take.
  checkTransactRequest(req);
  checkChains(req.from, req.to);
  const sent = checkCurrencyOnce(req);
  checkAddresses(req);
  // The engine's minimum is the SDK builder's; a transact is built by us and prices its own fees.
  const minimum = !Array.isArray(req.currency) && req.transact === undefined ? MIN_AMOUNT : undefined;
  for (const s of sent) {
    if (s.asset || isOverride(s.selector)) checkAmount(s.amount, s.asset, req.options.abstractDecimals, `${s.path}.amount`, minimum);
  }
  checkOptions(req.options, config.ALLOW_PRIVATE_OVERRIDES, [req.from]);
}

/**
 * The registry asset `currency` names on `chain`; undefined when the registry cannot tell (a
 * symbol several assets share: checkSwapCurrencies judges that as the router will).
 */
function routerAsset(chain: TChain, currency: RouterCurrency, path: string): TAssetInfo | undefined {
  const asset = registryLookup(chain, currency as TCurrencyCore, null);
  if (asset === AMBIGUOUS) return undefined;
  if (!asset) throw refuse('InvalidCurrencyError', path, `${JSON.stringify(currency)} is not an asset of ${chain} (POST /router/pairs lists what each exchange swaps)`);
  return asset;
}

/** The same checks for a swap (router operations, /x-transfers, pre-flight with swapOptions). */
export function checkSwapBeforeDial(req: RouterRequest, config: Pick<Config, 'ALLOW_PRIVATE_OVERRIDES'>, paths: SwapPaths = ROUTER_PATHS): void {
  const exchange = isManual(req.exchange) ? exchangeBaseChain(req.exchange[0]) : undefined;
  // The router does not bridge ecosystems: origin, exchange and destination share one relay.
  const legs = [req.from, exchange, req.to].filter((c): c is TChain => c !== undefined && c !== 'Ethereum');
  for (let i = 1; i < legs.length; i++) {
    if (legs[i - 1] !== legs[i] && ecosystemOf(legs[i - 1]) !== ecosystemOf(legs[i])) {
      throw incompatible(legs[0], req.to ?? legs[legs.length - 1], `${legs[i - 1]} belongs to ${ecosystemOf(legs[i - 1])} and ${legs[i]} to ${ecosystemOf(legs[i])}; a swap stays in one ecosystem`);
    }
  }
  checkSwapCurrencies(req, paths);
  const origin = req.from ?? exchange;
  const fromAsset = origin ? routerAsset(origin, req.currencyFrom, paths.currencyFrom) : undefined;
  const receiving = exchange ?? (req.to !== 'Ethereum' ? req.to : undefined);
  if (receiving) routerAsset(receiving, req.currencyTo, paths.currencyTo);
  if (fromAsset) checkAmount(req.amount, fromAsset, req.options.abstractDecimals, paths.amount, MIN_AMOUNT);
  checkOptions(req.options, config.ALLOW_PRIVATE_OVERRIDES, []);
}


const ROUTER_PATHS: SwapPaths = { currencyFrom: 'body.currencyFrom', currencyTo: 'body.currencyTo', amount: 'body.amount' };
export const SWAP_TRANSFER_PATHS: SwapPaths = { currencyFrom: 'body.currency', currencyTo: 'body.swapOptions.currencyTo', amount: 'body.currency.amount' };
