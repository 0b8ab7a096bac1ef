// The custom assets of the request in progress (`options.customAssets`): for that request, the
// chains it names list them in their registry (./patches/custom-assets.ts makes the SDK's registry
// read them). The registry data itself is never changed, so other requests, running at the same
// time, see the registry as it is.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TAssetInfo, TChain, TLocation } from '@paraspell/sdk-pjs';
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
export function registryLocation(chain: TChain, location: TLocation): TLocation {
  const canonical = canonicalLocation(location);
  if (canonical.parents !== 0 || chain === 'Ethereum' || sdk.isRelayChain(chain)) return canonical;
  const junctions: unknown = 'Here' in (canonical.interior as object) ? [] : Object.values(canonical.interior as object)[0];
  if (!Array.isArray(junctions) || junctions.length >= 8) return canonical;
  const prefixed = [{ Parachain: sdk.getParaId(chain) }, ...(junctions as unknown[])];
  return { parents: 1, interior: { [`X${prefixed.length}`]: prefixed } } as TLocation;
}

const sameLocation = (a: TLocation | undefined, b: TLocation): boolean => a !== undefined && sdk.deepEqual(canonicalLocation(a), b);

/** The registry asset of `chain` at `location` (already in the registry's form), if any. */
export function registryAssetAt(chain: TChain, location: TLocation): TAssetInfo | undefined {
  const { nativeAssets, otherAssets } = registryLists(chain);
  return [...nativeAssets, ...otherAssets].find((a) => sameLocation(a.location, location));
}

/** `chain`'s asset lists as the registry holds them, whatever the request in progress adds. */
function registryLists(chain: TChain): ChainAssetLists {
  return scopes.exit(() => {
    const registry = sdk.getAssetsObject(chain);
    return { nativeAssets: registry.nativeAssets, otherAssets: registry.otherAssets };
  });
}

/**
 * `chain`'s asset lists with `assets` added: a registry asset at the location of a custom asset
 * is replaced in place (its list, its position); any other custom asset joins the other assets.
 */
function merged(chain: TChain, assets: readonly CustomAsset[]): ChainAssetLists {
  const registry = registryLists(chain);
  // Without an existential deposit none is counted: the registry's "0", which every reader (the
  // SDK's checks, pre-flight's answers) takes as none; left absent, they refuse the asset.
  const asInfo = ({ forceOverride: _override, existentialDeposit = '0', ...asset }: CustomAsset, isNative: boolean): TAssetInfo =>
    ({ ...asset, existentialDeposit, ...(isNative ? { isNative: true } : {}) }) as TAssetInfo;
  const customAt = (a: TAssetInfo) => assets.find((c) => sameLocation(a.location, c.location));
  const replace = (list: TAssetInfo[], isNative: boolean) => list.map((a) => {
    const custom = customAt(a);
    return custom ? asInfo(custom, isNative) : a;
  });
  const inRegistry = (c: CustomAsset) => [...registry.nativeAssets, ...registry.otherAssets].some((a) => sameLocation(a.location, c.location));
  const added = assets.filter((c) => !inRegistry(c)).map((c) => asInfo(c, false));
  return { nativeAssets: replace(registry.nativeAssets, true), otherAssets: [...replace(registry.otherAssets, false), ...added] };
}

/** Runs `work` with `assets` (chain -> custom assets, checked and in the registry's form) in the registry. */
export function withCustomAssets<T>(assets: Partial<Record<TChain, readonly CustomAsset[]>>, work: () => T): T {
  const lists = new Map<TChain, ChainAssetLists>();
  for (const [chain, list] of Object.entries(assets) as [TChain, readonly CustomAsset[]][]) lists.set(chain, merged(chain, list));
  return scopes.run(lists, work);
}
