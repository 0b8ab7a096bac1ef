// Reads XCM values (locations, assets, programs) as decoded JSON and says what they mean in
// registry terms: which chain a location names, which asset, which account in its own format.
import type { TAssetInfo, TChain, TLocation, TRelaychain } from '@paraspell/sdk-pjs';
import { formatUnits, getAddress } from 'viem';
import { sdk, utilCrypto } from '../../sdk';
import { chainWithParaId, ecosystemOf as registryEcosystemOf, listedAsset } from '../route-check';
import type { AssetAmount } from './views';

type Json = Record<string, unknown>;

/** A junction as `{type, value}` with the type PascalCased (`Parachain`, `AccountId32`, ...). */
export interface Junction {
  type: string;
  value: unknown;
}

/** Where a location points, resolved against the chain that reads it. */
export interface Place {
  /** The chain by registry name, or null when no registry chain matches. */
  chain: TChain | null;
  /** Junctions below the chain (an account, a pallet, an asset index). */
  rest: Junction[];
  /** The location in the registry's own form (as seen from a parachain), for asset look-ups. */
  global: TLocation | null;
}

const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{v4: x}` -> `{version: 'V4', value: x}`. */
export function unversion(value: unknown): { version: string; value: unknown } {
  if (isObject(value)) {
    const [key] = Object.keys(value);
    if (key && /^v\d+$/i.test(key) && Object.keys(value).length === 1) return { version: key.toUpperCase(), value: value[key] };
  }
  return { version: 'unknown', value };
}

/** The single key of an enum value and its payload: `{parachain: 1000}` -> ['Parachain', 1000]. */
export function variant(value: unknown): [string, unknown] {
  if (typeof value === 'string') return [pascal(value), null];
  if (isObject(value)) {
    const [key] = Object.keys(value);
    if (key !== undefined) return [pascal(key), value[key]];
  }
  return ['Unknown', value];
}

export function junctionsOf(location: unknown): Junction[] {
  if (!isObject(location)) return [];
  const [kind, payload] = variant(location.interior);
  if (kind === 'Here') return [];
  // V3 writes X1 as a single junction, V4 and later as a one-element array.
  const list = Array.isArray(payload) ? payload : [payload];
  return list.map((j) => {
    const [type, value] = variant(j);
    return { type, value };
  });
}

export const parentsOf = (location: unknown): number => (isObject(location) ? Number(location.parents ?? 0) : 0);

/** Junctions in the registry's JSON spelling (`{Parachain: 1000}`, `{GlobalConsensus: {Ethereum: {chainId: 1}}}`). */
function registryJunction({ type, value }: Junction): Json {
  if (type === 'GlobalConsensus') {
    const [network, payload] = variant(value);
    return { GlobalConsensus: { [network]: payload } };
  }
  return { [type]: value };
}

export function registryLocation(parents: number, junctions: Junction[]): TLocation {
  const interior = junctions.length === 0 ? { Here: null } : { [`X${junctions.length}`]: junctions.map(registryJunction) };
  return { parents, interior } as TLocation;
}

const ECOSYSTEM_NETWORKS: Record<string, TRelaychain> = { Polkadot: 'Polkadot', Kusama: 'Kusama', Westend: 'Westend' };

/** The chain's consensus system (the route check's memo: call data can name a chain per asset). */
export const ecosystemOf = (chain: TChain): TRelaychain | 'Ethereum' => registryEcosystemOf(chain) as TRelaychain | 'Ethereum';

/** The junctions that lead from the relay chain down to `chain` (empty for the relay itself). */
function pathOf(chain: TChain): Junction[] {
  if (chain === 'Ethereum' || (sdk.RELAYCHAINS as readonly string[]).includes(chain)) return [];
  return [{ type: 'Parachain', value: sdk.getParaId(chain) }];
}

function chainBelowRelay(ecosystem: TRelaychain, path: Junction[]): { chain: TChain | null; rest: Junction[] } {
  if (path.length === 0) return { chain: ecosystem, rest: [] };
  const [first, ...rest] = path;
  if (first?.type !== 'Parachain') return { chain: ecosystem, rest: path };
  return { chain: chainWithParaId(Number(first.value), ecosystem), rest };
}

/** Resolves `location` as read on `reader` to a registry chain and what lies below it. */
export function resolve(reader: TChain, location: unknown): Place {
  const parents = parentsOf(location);
  const junctions = junctionsOf(location);
  const base = pathOf(reader);
  const ecosystem = ecosystemOf(reader);
  if (ecosystem === 'Ethereum') {
    // Read on Ethereum (the program a bridge delivers there): only its own locations resolve.
    if (parents !== 0) return { chain: null, rest: junctions, global: null };
    return { chain: 'Ethereum', rest: junctions, global: registryLocation(2, [{ type: 'GlobalConsensus', value: { Ethereum: { chainId: 1 } } }, ...junctions]) };
  }
  if (parents <= base.length) {
    const path = [...base.slice(0, base.length - parents), ...junctions];
    const { chain, rest } = chainBelowRelay(ecosystem, path);
    return { chain, rest, global: registryLocation(1, path) };
  }
  // Above the relay chain: another consensus system (a bridge).
  const [first, ...after] = junctions;
  if (parents === base.length + 1 && first?.type === 'GlobalConsensus') {
    const [network] = variant(first.value);
    const global = registryLocation(2, junctions);
    if (network === 'Ethereum') return { chain: 'Ethereum', rest: after, global };
    const other = ECOSYSTEM_NETWORKS[network];
    if (other) return { ...chainBelowRelay(other, after), global };
  }
  return { chain: null, rest: junctions, global: null };
}

/** The SS58 prefix the registry gives a chain (0 for chains it does not describe). */
function ss58Prefix(chain: TChain): number {
  try {
    return sdk.getAssetsObject(chain).ss58Prefix;
  } catch {
    return 42;
  }
}

/** An account junction as an address in the chain's own format; null for other junctions. */
export function accountAddress(junction: Junction | undefined, chain: TChain | null): string | null {
  if (!junction || !isObject(junction.value)) return null;
  if (junction.type === 'AccountId32' && typeof junction.value.id === 'string') {
    if (chain === null || chain === 'Ethereum') return junction.value.id;
    return utilCrypto.encodeAddress(junction.value.id, ss58Prefix(chain));
  }
  if (junction.type === 'AccountKey20' && typeof junction.value.key === 'string') return getAddress(junction.value.key);
  return null;
}

/** A beneficiary location read on `chain`: its address there, or null when it is not one account. */
export function beneficiaryAddress(chain: TChain | null, location: unknown): string | null {
  const junctions = junctionsOf(location);
  if (parentsOf(location) !== 0 || junctions.length !== 1) return null;
  return accountAddress(junctions[0], chain);
}

/** The 32-byte account id behind a beneficiary location, when it is an AccountId32. */
export function accountIdOf(location: unknown): string | null {
  const [junction] = junctionsOf(location);
  return junction?.type === 'AccountId32' && isObject(junction.value) && typeof junction.value.id === 'string' ? junction.value.id.toLowerCase() : null;
}

/**
 * An amount of the registry asset `info` (null when the registry does not know it) in base and,
 * when the decimals are known, whole units; `location` stands in when the registry has none.
 */
export function assetAmount(info: TAssetInfo | null, amount: string, location: unknown): AssetAmount {
  const decimals = info?.decimals ?? null;
  return {
    symbol: info?.symbol ?? null,
    amount,
    amountWhole: decimals === null || amount === 'ALL' ? null : formatUnits(BigInt(amount), decimals),
    decimals,
    location: info?.location ?? location,
  };
}

/** The registry's asset at a location read on `reader` (the chain that holds or sends it). */
export function assetAt(reader: TChain, location: unknown): TAssetInfo | null {
  const place = resolve(reader, location);
  return place.global ? listedAsset(reader, place.global) : null;
}

/** The asset id of an XCM asset: V4+ holds the location itself, V3 wraps it as `{concrete}`. */
function assetLocation(asset: Json): unknown {
  const id = asset.id;
  if (isObject(id) && 'concrete' in id) return id.concrete;
  return id;
}

export function readAsset(reader: TChain, asset: unknown): AssetAmount {
  const a = isObject(asset) ? asset : {};
  const location = assetLocation(a);
  const [funKind, fun] = variant(a.fun);
  const amount = funKind === 'Fungible' ? String(fun) : '0';
  return assetAmount(assetAt(reader, location), amount, location);
}

export const readAssets = (reader: TChain, assets: unknown): AssetAmount[] =>
  (Array.isArray(unversion(assets).value) ? (unversion(assets).value as unknown[]) : []).map((a) => readAsset(reader, a));

export function amountText(a: AssetAmount): string {
  if (a.symbol && a.amountWhole !== null) return `${a.amountWhole} ${a.symbol}`;
  return `${a.amount} base units of an asset the registry does not know (${JSON.stringify(a.location)})`;
}

const short = (address: string): string => (address.length > 16 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address);

/** "14E5…XYZ on AssetHubPolkadot", or the raw location when it is not a plain account. */
export function placeText(reader: TChain, location: unknown): string {
  const place = resolve(reader, location);
  const where = place.chain ?? 'an unknown chain';
  const account = place.rest.length === 1 ? accountAddress(place.rest[0], place.chain) : null;
  if (account) return `${short(account)} on ${where}`;
  if (place.rest.length === 0) return where;
  return `${JSON.stringify(location)} (on ${where})`;
}

/** `{unlimited: null}` or `{limited: {refTime, proofSize}}` as a fee/weight limit. */
export function weightLimit(limit: unknown): 'unlimited' | { refTime: string; proofSize: string } {
  const [kind, value] = variant(limit);
  if (kind === 'Limited' && isObject(value)) return { refTime: String(value.refTime ?? 0), proofSize: String(value.proofSize ?? 0) };
  return 'unlimited';
}

export { isObject };
