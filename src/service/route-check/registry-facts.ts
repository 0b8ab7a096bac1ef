// What the SDK's offline registry says about chains and assets, asked in absolute terms (a path
// from the top of the universe, src/xcm/location.ts): which chain a path names, where a chain
// sits, which asset a path is on a chain, who is its reserve, who may teleport it. Asset lists are
// parsed once per chain: the route check runs on every answer that carries call data.
import type { TAssetInfo, TChain, TRelaychain, TSubstrateChain } from '@paraspell/sdk-pjs';
import { customAssetLists, outsideCustomAssets, sdk } from '../../sdk';
import { keyOfLocation, locationKey, parseLocation, relative, toSdkJson, universalOf, variantOf, type Junction, type Loc } from '../../xcm/location';

/** The XCM network name of each relay chain's consensus. */
const NETWORKS: Record<string, TRelaychain> = { Polkadot: 'Polkadot', Kusama: 'Kusama', Westend: 'Westend', Paseo: 'Paseo' };

export const isRelay = (chain: TChain): boolean => (sdk.RELAYCHAINS as readonly string[]).includes(chain);

/** A relay chain or one of its system chains (which trust each other's teleports and unpaid execution). */
export const isSystemChain = (chain: TChain): boolean => isRelay(chain) || /^(AssetHub|BridgeHub|People|Coretime|Collectives|Encointer)/.test(chain);

// The SDK's getTChain, getRelayChainOf (about 0.1 ms each) and getAssetReserveChain (0.1-0.5 ms)
// scan the registry on every call: their answers are kept. Keys can come from call data anyone
// sends to /explain, so each memo is bounded: when full, the oldest answer goes (emptying it
// wholesale let one request's thousand made-up assets push out every real one at once).
const MEMO_LIMIT = 4_096;
function memo<K, V>(map: Map<K, V>, key: K, compute: () => V): V {
  if (map.has(key)) return map.get(key)!;
  const value = compute();
  if (map.size >= MEMO_LIMIT) map.delete(map.keys().next().value as K);
  map.set(key, value);
  return value;
}
const relays = new Map<TChain, string>();
const byParaId = new Map<string, TChain | null>();
const reserveMemo = new Map<string, TChain | null>();

export function ecosystemOf(chain: TChain): string {
  if (chain === 'Ethereum') return 'Ethereum';
  return memo(relays, chain, () => sdk.getRelayChainOf(chain as TSubstrateChain));
}

/** The registry chain with `paraId` in `relay`'s consensus, or null. */
export const chainWithParaId = (paraId: number, relay: TRelaychain): TChain | null => memo(byParaId, `${relay}:${paraId}`, () => sdk.getTChain(paraId, relay));

const universals = new Map<TChain, Junction[]>();

/** Where `chain` sits in the universe (`[GlobalConsensus(Polkadot), Parachain(1000)]`). */
export function universalOfChain(chain: TChain): Junction[] {
  let found = universals.get(chain);
  if (!found) {
    const ecosystem = ecosystemOf(chain);
    found = chain === 'Ethereum' || isRelay(chain) ? universalOf(ecosystem) : universalOf(ecosystem, sdk.getParaId(chain));
    universals.set(chain, found);
  }
  return found;
}

/** The network a GlobalConsensus junction names (`Polkadot`, `Ethereum`, ...), or null. */
export function networkOf(junction: Junction | undefined): string | null {
  if (junction?.type !== 'GlobalConsensus') return null;
  return variantOf(junction.value)?.[0] ?? null;
}

/** What an absolute path names: a registry chain (and what lies below it), or why it names none. */
export type Place = { chain: TChain; rest: Junction[] } | { chain: null; why: string };

export function placeOf(path: Junction[]): Place {
  const network = networkOf(path[0]);
  if (network === null) return { chain: null, why: 'it names no consensus system (no GlobalConsensus at the top)' };
  if (network === 'Ethereum') return { chain: 'Ethereum', rest: path.slice(1) };
  const relay = NETWORKS[network];
  if (!relay) return { chain: null, why: `the registry knows no network ${network}` };
  const [second, ...below] = path.slice(1);
  if (second?.type !== 'Parachain') return { chain: relay, rest: path.slice(1) };
  const paraId = Number(second.value);
  const chain = chainWithParaId(paraId, relay);
  if (chain === null) return { chain: null, why: `no chain of ${relay} has para id ${paraId}` };
  return { chain, rest: below };
}

/** The path as a parachain of `ecosystem` writes it: the spelling the registry's asset locations use. */
export function registryView(path: Junction[], ecosystem: string): Loc {
  const network = ecosystem === 'Ethereum' ? 'Polkadot' : ecosystem;
  // Para id -1 exists nowhere: the view is a parachain's that is none of the chains named.
  return relative([...universalOf(network), { type: 'Parachain', value: -1 }], path);
}

interface KnownAsset {
  info: TAssetInfo;
  /** Whether the chain takes it for fees; null when the registry cannot tell (it marks no fee asset on that chain). */
  accepted: boolean | null;
}

/** Each chain's registry assets by location key (the first listed wins, as in the registry's own look-ups). */
const assetLists = new Map<TChain, Map<string, KnownAsset>>();

const isFeeAsset = (info: TAssetInfo): boolean => (info as { isFeeAsset?: boolean }).isFeeAsset === true;
const keyOf = (info: TAssetInfo): string | null => {
  const location = info.location ? parseLocation(info.location) : null;
  return location ? locationKey(location) : null;
};

/** The registry's own lists of `chain`, read outside any request's custom assets (they are kept). */
function registryAssetsOf(chain: TChain): Map<string, KnownAsset> {
  let list = assetLists.get(chain);
  if (!list) {
    list = new Map();
    try {
      // The lists are getters that answer the request's custom assets: read them inside the scope.
      const { nativeAssets, otherAssets } = outsideCustomAssets(() => {
        const registry = sdk.getAssetsObject(chain);
        return { nativeAssets: registry.nativeAssets, otherAssets: registry.otherAssets };
      });
      // Chains whose registry entry marks no fee asset at all (Acala, Centrifuge, Interlay, Karura
      // in sdk 11.14.8) say nothing about which foreign assets pay fees there.
      const marks = (otherAssets as TAssetInfo[]).some(isFeeAsset);
      for (const [native, infos] of [[true, nativeAssets], [false, otherAssets]] as const) {
        for (const info of infos as TAssetInfo[]) {
          const key = keyOf(info);
          if (key !== null && !list.has(key)) list.set(key, { info, accepted: native || isFeeAsset(info) || (marks ? false : null) });
        }
      }
    } catch {
      // a chain without registry assets: every asset on it is unknown
    }
    assetLists.set(chain, list);
  }
  return list;
}

/**
 * The assets of `chain` for the request in progress: the registry's, and the request's custom
 * assets (options.customAssets), which take fees only where they say so (isFeeAsset); otherwise
 * whether they do cannot be told.
 */
function assetsOf(chain: TChain): Map<string, KnownAsset> {
  const registry = registryAssetsOf(chain);
  const custom = customAssetLists(chain);
  if (!custom) return registry;
  const list = new Map(registry);
  for (const info of [...custom.nativeAssets, ...custom.otherAssets]) {
    const key = keyOf(info);
    if (key === null || registry.get(key)?.info.symbol === info.symbol) continue;
    list.set(key, { info, accepted: isFeeAsset(info) ? true : null });
  }
  return list;
}

/** The registry's asset at `path` on `chain`, and whether the chain takes it for fees; null when unlisted. */
export function assetOn(chain: TChain, path: Junction[]): { symbol: string; accepted: boolean | null } | null {
  const found = assetsOf(chain).get(locationKey(registryView(path, ecosystemOf(chain))));
  return found ? { symbol: found.info.symbol, accepted: found.accepted } : null;
}

/**
 * The asset `chain` lists at `location`, spelled as the registry spells asset locations (as a
 * parachain of its consensus sees them); null when unlisted. A look-up in the parsed lists: the
 * SDK's findAssetInfo scans them (about 1 ms each), which call data naming a thousand assets
 * turned into seconds.
 */
export function listedAsset(chain: TChain, location: unknown): TAssetInfo | null {
  const key = keyOfLocation(location);
  return key === null ? null : (assetsOf(chain).get(key)?.info ?? null);
}

/** A short name for an asset path: its symbol on `chain` when listed, else the path. */
export function assetName(chain: TChain, path: Junction[]): string {
  return assetOn(chain, path)?.symbol ?? JSON.stringify(toSdkJson(registryView(path, ecosystemOf(chain))));
}

/** The relay-chain token of a consensus system, which its relay and its asset hub both hold in reserve. */
const isRelayToken = (path: Junction[]): boolean => path.length === 1 && networkOf(path[0]) !== null && networkOf(path[0]) !== 'Ethereum';

/** The chains that are the asset's reserve, as the registry says from `chain`; null when it cannot tell. */
export function reservesOf(chain: TChain, path: Junction[]): TChain[] | null {
  if (chain === 'Ethereum') return null;
  const ecosystem = ecosystemOf(chain);
  const view = toSdkJson(registryView(path, ecosystem));
  const reserve = memo(reserveMemo, `${chain}:${JSON.stringify(view)}`, () => {
    try {
      return sdk.getAssetReserveChain(chain as TSubstrateChain, view as never);
    } catch {
      return null;
    }
  });
  if (reserve === null) return null;
  // Since the asset hub migration the relay token's reserve is the relay chain or its asset hub.
  if (isRelayToken(path) && networkOf(path[0]) === ecosystem) {
    const hub = hubOf(ecosystem);
    return [ecosystem as TChain, ...(hub ? [hub] : [])];
  }
  return [reserve];
}

/** The asset hub of a relay chain's consensus system. */
export const hubOf = (ecosystem: string): TChain | null => (NETWORKS[ecosystem] ? chainWithParaId(1000, NETWORKS[ecosystem]) : null);

/** Whether two chains trust each other's teleports: the relay and its system chains (the registry's trusted chains). */
export function teleportTrusted(a: TChain, b: TChain): boolean {
  if (a === 'Ethereum' || b === 'Ethereum' || ecosystemOf(a) !== ecosystemOf(b)) return false;
  return sdk.isTrustedChain(a) && sdk.isTrustedChain(b);
}

/** Whether `chain` can send a message to another consensus system (its asset hub's bridge, a bridge hub's export). */
export const bridges = (chain: TChain): boolean => /^(AssetHub|BridgeHub)/.test(chain);

export const isEvm = (chain: TChain): boolean => chain === 'Ethereum' || sdk.isChainEvm(chain);
