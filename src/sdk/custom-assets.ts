// The custom assets of the request in progress (`options.customAssets`): for that request, the
// chains it names list them in their registry (./patches/custom-assets.ts makes the SDK's registry
// read them). The registry data itself is never changed, so other requests, running at the same
// time, see the registry as it is.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TAssetInfo, TChain, TLocation, TSubstrateChain } from '@paraspell/sdk-pjs';
import { absolute, keyOfLocation, parseLocation, toSdkJson, universalOf, variantOf, type Junction } from '../xcm/location';
import { sdk } from './load';

/** One asset a request adds to a chain, in the registry's form. */
export interface CustomAsset {
  symbol: string;
  decimals: number;
  location: TLocation;
  assetId?: string;
  existentialDeposit?: string;
  isFeeAsset?: boolean;
  /** Replace the registry asset at the same location instead of refusing the asset. */
  forceOverride?: boolean;
}

/** A chain's asset lists as the registry holds them (`getAssetsObject`). */
export interface ChainAssetLists {
  nativeAssets: TAssetInfo[];
  otherAssets: TAssetInfo[];
}

const scopes = new AsyncLocalStorage<ReadonlyMap<TChain, ChainAssetLists>>();

/** The lists the request in progress gives `chain`, if it gives it custom assets. */
export const customAssetLists = (chain: TChain): ChainAssetLists | undefined => scopes.getStore()?.get(chain);

/** Runs `work` outside the custom assets of any request (what a shared connection is created in). */
export const outsideCustomAssets = <T>(work: () => T): T => scopes.exit(work);

const NUMBERED = /^(parachain|palletinstance|generalindex)$/i;

/** `{GeneralIndex: "1984"}` as `{GeneralIndex: 1984}`, as the registry writes a number that fits JSON. */
function numbered(junction: unknown): unknown {
  const entries = typeof junction === 'object' && junction !== null ? Object.entries(junction) : [];
  if (entries.length !== 1) return junction;
  const [[name, value]] = entries;
  const fits = typeof value === 'string' && /^\d+$/.test(value) && Number.isSafeInteger(Number(value));
  return NUMBERED.test(name) && fits ? { [name]: Number(value) } : junction;
}

/**
 * XCM v4+ junction arrays, `{Here: null}` and numbers where they fit: the form the registry writes
 * its locations in (key case aside, which the SDK's comparisons ignore).
 */
function canonicalLocation(location: TLocation): TLocation {
  const interior = location.interior as unknown;
  const parents = Number(location.parents);
  if (interior === 'Here' || (typeof interior === 'object' && interior !== null && 'Here' in interior)) return { parents, interior: { Here: null } } as TLocation;
  const entries = Object.entries(interior as Record<string, unknown>);
  // Not a location XCM knows (the SDK refuses it when it uses it): left as given.
  if (entries.length !== 1) return { parents, interior } as TLocation;
  const [[key, value]] = entries;
  const junctions = /^x1$/i.test(key) && !Array.isArray(value) ? [value] : value;
  return { parents, interior: { [key]: Array.isArray(junctions) ? junctions.map(numbered) : junctions } } as TLocation;
}

/**
 * A location as the registry writes it for an asset of `chain`: the registry sees a parachain's
 * own assets from the relay (`parents: 1`, its `Parachain` first), so a location given from the
 * parachain itself (`parents: 0`) is rewritten to that form.
 */
function registryLocation(chain: TChain, location: TLocation): TLocation {
  const canonical = canonicalLocation(location);
  if (canonical.parents !== 0 || chain === 'Ethereum' || sdk.isRelayChain(chain)) return canonical;
  const junctions: unknown = 'Here' in (canonical.interior as object) ? [] : Object.values(canonical.interior as object)[0];
  if (!Array.isArray(junctions) || junctions.length >= 8) return canonical;
  const prefixed = [{ Parachain: sdk.getParaId(chain) }, ...(junctions as unknown[])];
  return { parents: 1, interior: { [`X${prefixed.length}`]: prefixed } } as TLocation;
}

/** `chain`'s asset lists as the registry holds them, whatever the request in progress adds. */
function registryLists(chain: TChain): ChainAssetLists {
  return scopes.exit(() => {
    const registry = sdk.getAssetsObject(chain);
    return { nativeAssets: registry.nativeAssets, otherAssets: registry.otherAssets };
  });
}

type Place = { list: keyof ChainAssetLists; index: number };

/** A chain's registry lists and where each location sits in them (in list order), by `keyOfLocation`. */
interface RegistryIndex {
  lists: ChainAssetLists;
  at: ReadonlyMap<string, readonly Place[]>;
}

// Built once per chain, when a request first names it: the registry does not change while the
// process runs, and a request then finds its assets' locations in it without scanning the lists
// (8 chains of 32 custom assets took 56 ms of CPU per request when compared pair by pair).
const indexes = new Map<TChain, RegistryIndex>();

function registryIndex(chain: TChain): RegistryIndex {
  const known = indexes.get(chain);
  if (known) return known;
  const lists = registryLists(chain);
  const at = new Map<string, Place[]>();
  for (const list of ['nativeAssets', 'otherAssets'] as const) {
    lists[list].forEach((asset, index) => {
      const key = asset.location ? keyOfLocation(asset.location) : null;
      if (key !== null) at.set(key, [...(at.get(key) ?? []), { list, index }]);
    });
  }
  const built = { lists, at };
  indexes.set(chain, built);
  return built;
}

/** A request's custom asset of a chain, placed in that chain's registry. */
export interface PlacedAsset {
  /** The asset, its location in the registry's form. */
  asset: CustomAsset;
  /** That location's `keyOfLocation`. */
  key: string;
  /** The registry asset already at that location, if any. */
  clash?: TAssetInfo;
  /** The position of an earlier custom asset of the chain at the same location, if any. */
  twin?: number;
}

/** `assets` of `chain` with their locations in the registry's form, and what each meets there. */
export function placeCustomAssets(chain: TChain, assets: readonly CustomAsset[]): PlacedAsset[] {
  const index = registryIndex(chain);
  const seen = new Map<string, number>();
  return assets.map((given, i) => {
    const location = registryLocation(chain, given.location);
    const key = keyOfLocation(location) ?? JSON.stringify(location);
    const [first] = index.at.get(key) ?? [];
    const twin = seen.get(key);
    if (twin === undefined) seen.set(key, i);
    return { asset: { ...given, location }, key, clash: first && index.lists[first.list][first.index], twin };
  });
}

/**
 * `chain`'s asset lists with `assets` added: a registry asset at the location of a custom asset
 * is replaced in place (its list, its position); any other custom asset joins the other assets.
 * A list no custom asset replaces anything in is the registry's own.
 */
function merged(chain: TChain, assets: readonly PlacedAsset[]): ChainAssetLists {
  // Without an existential deposit none is counted: the registry's "0", which every reader (the
  // SDK's checks, pre-flight's answers) takes as none; left absent, they refuse the asset.
  const asInfo = ({ forceOverride: _override, existentialDeposit = '0', ...asset }: CustomAsset, isNative: boolean): TAssetInfo =>
    ({ ...asset, existentialDeposit, ...(isNative ? { isNative: true } : {}) }) as TAssetInfo;
  const index = registryIndex(chain);
  const out: ChainAssetLists = { ...index.lists };
  const added: TAssetInfo[] = [];
  for (const { asset: custom, key } of assets) {
    const places = index.at.get(key) ?? [];
    if (places.length === 0) added.push(asInfo(custom, false));
    for (const { list, index: i } of places) {
      if (out[list] === index.lists[list]) out[list] = [...out[list]];
      out[list][i] = asInfo(custom, list === 'nativeAssets');
    }
  }
  return { nativeAssets: out.nativeAssets, otherAssets: added.length === 0 ? out.otherAssets : [...out.otherAssets, ...added] };
}

// Parachains by network and para id (`Polkadot/1000`), as the SDK's getTChain finds them, built once.
let parachains: Map<string, TChain> | undefined;
function parachainOf(network: string, paraId: number): TChain | undefined {
  if (parachains === undefined) {
    parachains = new Map();
    for (const chain of sdk.PARACHAINS as readonly TChain[]) {
      const key = `${sdk.getRelayChainOf(chain as TSubstrateChain)}/${sdk.getParaId(chain)}`;
      if (!parachains.has(key)) parachains.set(key, chain);
    }
  }
  return parachains.get(`${network}/${paraId}`);
}

// Where each chain sits in the universe (the SDK builds every chain's object to tell), once each.
const places = new Map<TChain, Junction[]>();
function placeOf(chain: TChain): Junction[] {
  let place = places.get(chain);
  if (place === undefined) {
    place = universalOf(sdk.getRelayChainOf(chain as TSubstrateChain), sdk.isRelayChain(chain) ? undefined : sdk.getParaId(chain));
    places.set(chain, place);
  }
  return place;
}

/**
 * The chain holding the asset at `location` (written by `chain`, in the registry's form) and the
 * location in that chain's registry form, when the location names a parachain (Asset Hub's
 * `[Parachain(1000), PalletInstance(50), GeneralIndex(n)]`); null otherwise.
 */
function homeOf(chain: TChain, location: TLocation): { chain: TChain; location: TLocation } | null {
  const parsed = parseLocation(location);
  if (parsed === null || chain === 'Ethereum') return null;
  const path = absolute(placeOf(chain), parsed);
  const [consensus, para] = path ?? [];
  const network = consensus?.type === 'GlobalConsensus' ? variantOf(consensus.value)?.[0] : undefined;
  if (network === undefined || para?.type !== 'Parachain' || !/^\d+$/.test(String(para.value))) return null;
  const home = parachainOf(network, Number(para.value));
  // The registry writes a parachain's assets as the relay's children see them (`parents: 1`).
  return home === undefined ? null : { chain: home, location: toSdkJson({ parents: 1, junctions: path!.slice(1) }) as TLocation };
}

/**
 * An asset with a location is the same asset on the chain that location names: a request's
 * custom asset of one chain is also an asset of that chain (found there by its location, as the
 * SDK finds a transfer's asset on its destination) unless the chain already holds an asset there.
 * It carries what is true everywhere (symbol, decimals, location), not the declaring chain's id
 * or existential deposit.
 */
function withHomes(assets: ReadonlyMap<TChain, readonly PlacedAsset[]>): Map<TChain, PlacedAsset[]> {
  const out = new Map([...assets].map(([chain, list]) => [chain, [...list]]));
  for (const [chain, list] of assets) {
    for (const { asset } of list) {
      const home = homeOf(chain, asset.location);
      if (home === null || home.chain === chain) continue;
      const key = keyOfLocation(home.location) ?? JSON.stringify(home.location);
      const there = out.get(home.chain) ?? [];
      if (there.some((p) => p.key === key) || registryIndex(home.chain).at.has(key)) continue;
      out.set(home.chain, [...there, { asset: { symbol: asset.symbol, decimals: asset.decimals, location: home.location }, key }]);
    }
  }
  return out;
}

/** Runs `work` with `assets` (chain -> custom assets, placed by `placeCustomAssets` and checked) in the registry. */
export function withCustomAssets<T>(assets: Partial<Record<TChain, readonly PlacedAsset[]>>, work: () => T): T {
  const lists = new Map<TChain, ChainAssetLists>();
  const placed = withHomes(new Map(Object.entries(assets) as [TChain, readonly PlacedAsset[]][]));
  for (const [chain, list] of placed) lists.set(chain, merged(chain, list));
  return scopes.run(lists, work);
}
