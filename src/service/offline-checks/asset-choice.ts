// A currency selector that names more than one asset: the 400 AmbiguousAssetError, naming the
// field and listing the assets the selector could mean, each with a selector (`currency`) that
// names it alone in the operation at hand: the transfer family and the lookups take the
// Native/ForeignAbstract specifiers, the router does not. What is ambiguous is decided by the
// lookup the engine itself makes (the SDK's registry lookup, or the router's, mirrored in
// router-assets.ts), offline; each selector offered is put through that same lookup first.
import type { TAssetInfo, TChain, TCurrencyCore, TLocation, TRelaychain } from '@paraspell/sdk-pjs';
import { ApiError, type ErrorDetail } from '../../errors';
import { sdk } from '../../sdk';
import { fromSdkError } from '../sdk-calls';

/** What a lookup answers when the selector names several assets. */
export const AMBIGUOUS = Symbol('ambiguous');
export type Lookup<A> = A | null | undefined | typeof AMBIGUOUS;

/** What a registry (the SDK's, or an exchange's list) holds about an asset. */
export interface RegistryAsset {
  symbol: string;
  decimals?: number | null;
  location?: TLocation;
  assetId?: string;
  alias?: string;
  isNative?: boolean;
}

export type CandidateSelector =
  | { symbol: string }
  | { symbol: { type: 'Native' | 'ForeignAbstract'; value: string } }
  | { id: string }
  | { location: TLocation };

/** One asset a selector could mean (openapi.yaml: AssetCandidate). */
export interface AssetCandidate {
  /** A selector this operation accepts that names this asset alone. */
  currency: CandidateSelector;
  symbol: string;
  decimals?: number;
  location?: TLocation;
  assetId?: string;
  alias?: string;
  isNative: boolean;
  /** The chain that issues the asset, where its location says. */
  issuedOn?: string;
}

/** The field a selector came in, as the caller wrote it. */
export interface SelectorField {
  path: string;
  /** The field also carries `amount`, which a candidate's `currency` leaves out. */
  hasAmount?: boolean;
}

/** How one operation looks assets up and which selectors it takes. */
export interface AssetChoice<A extends RegistryAsset> {
  /** The chain (or exchange) whose assets these are, for messages. */
  where: string;
  /** The chain the assets' locations are relative to. */
  chain: TChain;
  /** The selectors this operation takes for an asset, in order of preference. */
  selectors(asset: A): CandidateSelector[];
  /** What the operation would select with `selector`. */
  lookup(selector: CandidateSelector): Lookup<A>;
  /** Show the registry's alias (not where the operation cannot select by it). */
  aliases: boolean;
}

/** The SDK's duplicate-asset errors (11.x names them without the `Error` suffix). */
export const isDuplicateAssetError = (error: unknown): boolean =>
  error instanceof Error && ['DuplicateAsset', 'DuplicateAssetError', 'DuplicateAssetId', 'DuplicateAssetIdError'].includes(error.name);

/** A selector as JSON text for a message: bigint ids keep their `n`, long values are cut short. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
  return text.length <= 200 ? text : `${text.slice(0, 200)}...`;
}

// ---- the SDK's registry -------------------------------------------------------------------

/** A chain's registry assets, native ones flagged. */
export function registryAssets(chain: TChain): (TAssetInfo & { isNative?: boolean })[] {
  const { nativeAssets, otherAssets } = sdk.getAssetsObject(chain);
  return [...nativeAssets.map((a) => ({ ...a, isNative: true }) as TAssetInfo & { isNative: boolean }), ...otherAssets];
}

/** The SDK's lookup (findAssetInfo): an asset, null, or AMBIGUOUS. Other SDK refusals become our errors. */
export function registryLookup(chain: TChain, selector: TCurrencyCore, destination: TChain | null): Lookup<TAssetInfo> {
  try {
    return sdk.findAssetInfo(chain, selector, destination);
  } catch (error) {
    if (isDuplicateAssetError(error)) return AMBIGUOUS;
    throw fromSdkError(error);
  }
}

/** Selectors the transfer family and the lookups take: Native, ForeignAbstract alias, id, symbol, location. */
export function specifierSelectors(asset: RegistryAsset): CandidateSelector[] {
  const out: CandidateSelector[] = [];
  if (asset.isNative) out.push({ symbol: { type: 'Native', value: asset.symbol } });
  if (asset.alias !== undefined) out.push({ symbol: { type: 'ForeignAbstract', value: asset.alias } });
  if (asset.assetId !== undefined) out.push({ id: asset.assetId });
  out.push({ symbol: asset.symbol });
  if (asset.location) out.push({ location: asset.location });
  return out;
}

/** Selectors the router takes: id (with one chosen exchange), a plain symbol, location. */
export function plainSelectors(asset: RegistryAsset, ids: boolean): CandidateSelector[] {
  const out: CandidateSelector[] = [];
  if (ids && asset.assetId !== undefined) out.push({ id: asset.assetId });
  out.push({ symbol: asset.symbol });
  if (asset.location) out.push({ location: asset.location });
  return out;
}

/**
 * The SDK registry of `chain` as one operation uses it: the router's selectors when `router` is
 * given, else the transfer family's. `accepts` narrows what counts as a working selector further
 * (e.g. the destination must tell the asset apart too).
 */
export function registryChoice(
  chain: TChain,
  destination: TChain | null,
  router: { ids: boolean } | undefined,
  accepts: (asset: TAssetInfo) => boolean = () => true,
): AssetChoice<TAssetInfo> {
  return {
    where: chain,
    chain,
    selectors: router ? (asset) => plainSelectors(asset, router.ids) : specifierSelectors,
    aliases: router === undefined,
    lookup: (selector) => {
      const found = registryLookup(chain, selector as TCurrencyCore, destination);
      return found && found !== AMBIGUOUS && !accepts(found) ? AMBIGUOUS : found;
    },
  };
}

/**
 * The asset `selector` names on `chain` as the SDK looks it up (null: none); a selector that names
 * several is the 400 AmbiguousAssetError, with a candidate for each asset that a selector names
 * alone (and that `accepts` takes).
 */
export function resolveOnChain(
  chain: TChain,
  selector: TCurrencyCore,
  destination: TChain | null,
  field: SelectorField,
  accepts?: (asset: TAssetInfo) => boolean,
): TAssetInfo | null {
  const found = registryLookup(chain, selector, destination);
  if (found !== AMBIGUOUS) return found ?? null;
  const choice = registryChoice(chain, destination, undefined, accepts);
  throw ambiguousAsset(field, selector, choice, matchesOf(registryAssets(chain), selector));
}

// ---- what a selector could mean -----------------------------------------------------------

const symbolOf = (selector: object): unknown => ('symbol' in selector ? selector.symbol : undefined);

/** Assets whose symbol is `symbol` ignoring case (else its `xc` variant), exact spelling first. */
function bySymbol<A extends RegistryAsset>(assets: A[], symbol: string): A[] {
  const lower = symbol.toLowerCase();
  let found = assets.filter((a) => a.symbol.toLowerCase() === lower);
  if (found.length === 0) {
    const variant = lower.startsWith('xc') ? lower.slice(2) : `xc${lower}`;
    found = assets.filter((a) => a.symbol.toLowerCase() === variant);
  }
  return [...found.filter((a) => a.symbol === symbol), ...found.filter((a) => a.symbol !== symbol)];
}

/**
 * Every asset a person writing `selector` could mean: the ones the engine found several of, and
 * those whose symbol differs only in case (on the asset hub `USDT` is two foreign assets, while
 * Tether's own is `USDt`, id 1984).
 */
export function matchesOf<A extends RegistryAsset>(assets: A[], selector: object): A[] {
  if ('id' in selector) return assets.filter((a) => a.assetId === String(selector.id));
  const symbol = symbolOf(selector);
  if (typeof symbol === 'string') return bySymbol(assets, symbol);
  const { type, value } = (symbol ?? {}) as { type?: unknown; value?: unknown };
  if (typeof value !== 'string') return [];
  if (type === 'Native') return bySymbol(assets.filter((a) => a.isNative), value);
  if (type === 'Foreign') return bySymbol(assets.filter((a) => !a.isNative), value);
  const alias = value.toLowerCase();
  return assets.filter((a) => a.alias?.toLowerCase() === alias);
}

// ---- candidates ---------------------------------------------------------------------------

const ECOSYSTEMS: Record<string, TRelaychain> = { polkadot: 'Polkadot', kusama: 'Kusama', westend: 'Westend', paseo: 'Paseo' };

function junctionsOf(location: TLocation): Record<string, unknown>[] {
  const interior = location.interior as unknown;
  if (typeof interior !== 'object' || interior === null) return [];
  const inner = Object.values(interior)[0];
  if (Array.isArray(inner)) return inner as Record<string, unknown>[];
  return typeof inner === 'object' && inner !== null ? [inner as Record<string, unknown>] : [];
}

const paraChain = (junction: Record<string, unknown> | undefined, ecosystem: TRelaychain): TChain | undefined => {
  const para = junction?.Parachain;
  if (para === undefined) return undefined;
  return sdk.getTChain(Number(para), ecosystem) ?? undefined;
};

/** The chain that issues an asset of `chain`'s registry, as its location says (registry locations are seen from a parachain). */
export function issuedOn(asset: RegistryAsset, chain: TChain): string | undefined {
  if (!asset.location) return asset.isNative ? chain : undefined;
  const junctions = junctionsOf(asset.location);
  const parents = Number(asset.location.parents);
  if (parents === 0) return chain;
  if (parents === 1) {
    if (chain === 'Ethereum') return undefined;
    const relay = sdk.getRelayChainOf(chain);
    return junctions.length === 0 ? relay : paraChain(junctions[0], relay);
  }
  const network = junctions[0]?.GlobalConsensus;
  if (parents !== 2 || typeof network !== 'object' || network === null) return undefined;
  if ('Ethereum' in network) return 'Ethereum';
  const ecosystem = ECOSYSTEMS[Object.keys(network)[0]?.toLowerCase() ?? ''];
  if (!ecosystem) return undefined;
  return junctions.length === 1 ? ecosystem : paraChain(junctions[1], ecosystem);
}

const sameAsset = (a: RegistryAsset, b: RegistryAsset): boolean =>
  a.symbol === b.symbol && a.assetId === b.assetId && JSON.stringify(a.location) === JSON.stringify(b.location);

/** The first selector of the operation's that names `asset` alone, if any. */
function selectorFor<A extends RegistryAsset>(choice: AssetChoice<A>, asset: A): CandidateSelector | undefined {
  return choice.selectors(asset).find((selector) => {
    try {
      const found = choice.lookup(selector);
      return found !== null && found !== undefined && found !== AMBIGUOUS && sameAsset(found, asset);
    } catch {
      return false; // a selector the engine refuses is no way out
    }
  });
}

/** A candidate for each asset that some selector of the operation names alone. */
export function candidatesFor<A extends RegistryAsset>(choice: AssetChoice<A>, assets: A[]): AssetCandidate[] {
  const out: AssetCandidate[] = [];
  for (const asset of assets) {
    const currency = selectorFor(choice, asset);
    if (!currency) continue;
    const candidate: AssetCandidate = { currency, symbol: asset.symbol, isNative: asset.isNative === true };
    if (typeof asset.decimals === 'number') candidate.decimals = asset.decimals;
    if (asset.location) candidate.location = asset.location;
    if (asset.assetId !== undefined) candidate.assetId = asset.assetId;
    if (choice.aliases && asset.alias !== undefined) candidate.alias = asset.alias;
    const issuer = issuedOn(asset, choice.chain);
    if (issuer) candidate.issuedOn = issuer;
    out.push(candidate);
  }
  return out;
}

/** `USDT (alias USDT1, id 202406, issued on AssetHubPolkadot)`. */
export function describeCandidate(c: Pick<AssetCandidate, 'symbol' | 'alias' | 'assetId' | 'isNative' | 'issuedOn'>): string {
  const facts = [
    c.isNative ? 'native' : undefined,
    c.alias !== undefined ? `alias ${c.alias}` : undefined,
    c.assetId !== undefined ? `id ${c.assetId}` : undefined,
    c.issuedOn !== undefined ? `issued on ${c.issuedOn}` : undefined,
  ].filter((f) => f !== undefined);
  return facts.length > 0 ? `${c.symbol} (${facts.join(', ')})` : c.symbol;
}

const SHOWN_IN_MESSAGE = 6;

function listed(candidates: AssetCandidate[]): string {
  const names = candidates.slice(0, SHOWN_IN_MESSAGE).map(describeCandidate);
  const more = candidates.length - names.length;
  return more > 0 ? `${names.join('; ')}; and ${more} more` : names.join('; ');
}

/** What to do with the candidates, in words. */
function instruction(field: SelectorField, candidates: AssetCandidate[]): string {
  const name = field.path.replace(/^body\./, '');
  if (candidates.length === 0) return 'None of them can be selected alone by this operation';
  const amount = field.hasAmount ? ', keeping amount' : '';
  return `Send one of them instead: each candidate's currency selects it alone (put it in ${name}${amount})`;
}

/**
 * The SDK's own first sentence for this ambiguity (@paraspell/assets' DuplicateAssetError and
 * DuplicateAssetIdError), so that a client matching ParaSpell's words still recognises ours; empty
 * for a selector the SDK has none for.
 */
function upstreamWords(selector: unknown, assets: readonly RegistryAsset[]): string {
  if (typeof selector !== 'object' || selector === null) return '';
  const { symbol, id } = selector as { symbol?: unknown; id?: unknown };
  const name = typeof symbol === 'object' && symbol !== null ? (symbol as { value?: unknown }).value : symbol;
  if (typeof name === 'string') return `Multiple ${assets.some((a) => a.isNative) ? 'matches' : 'foreign assets'} found for symbol ${name}. `;
  return typeof id === 'string' || typeof id === 'number' ? `Multiple assets found with the same ID: ${id}. ` : '';
}

/** The 400 for a selector that names several assets (`lead`: a sentence put before ours). */
export function ambiguousError(field: SelectorField, text: string, candidates: AssetCandidate[], lead = ''): ApiError {
  const name = field.path.replace(/^body\./, '');
  const detail: ErrorDetail = { path: field.path, message: text };
  const message = `${lead}${name} ${text}: ${listed(candidates)}. ${instruction(field, candidates)}`;
  return new ApiError(400, 'AmbiguousAssetError', message, [detail], undefined, { candidates });
}

/** The 400 for `selector`, which names each of `assets` on `choice.where`. */
export function ambiguousAsset<A extends RegistryAsset>(field: SelectorField, selector: unknown, choice: AssetChoice<A>, assets: A[]): ApiError {
  const candidates = candidatesFor(choice, assets);
  const left = assets.filter((a) => !candidates.some((c) => sameAsset(c, a)));
  const text = `${shown(selector)} could mean any of ${Math.max(assets.length, 2)} assets of ${choice.where}`;
  const lead = upstreamWords(selector, assets);
  if (left.length === 0) return ambiguousError(field, text, candidates, lead);
  const named = left.map((a) => describeCandidate({ ...a, isNative: a.isNative === true, issuedOn: issuedOn(a, choice.chain) })).join('; ');
  return ambiguousError(field, `${text}. This operation cannot select ${named} alone; the others are`, candidates, lead);
}
