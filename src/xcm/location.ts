// XCM locations as plain data, and re-anchoring: how a location one chain wrote reads from another.
//
// Every location inside an XCM program is read by the chain that executes that instruction. To
// move a location from one chain's view to another's, both chains are placed in the universe by
// their universal locations (`[GlobalConsensus(Polkadot), Parachain(1000)]` for Polkadot's asset
// hub), the location is resolved to an absolute path from the writer's place, and written again
// from the reader's: up to the common ancestor, then down. This is what `Location::reanchored`
// does in the XCM executor (polkadot-sdk `xcm/src/v5/location.rs`), and the one copy of it here:
// the SDK patch of nested destinations, the route check and the sandbox's executor all use it.
//
// Accepts every JSON spelling we meet: the SDK's (`{Parachain: 1000}`, `interior: {X1: [...]}` or
// `'Here'`), polkadot.js's `toJSON` (`{parachain: 1000}`, `{x1: [...]}`, `{here: null}`), V3's X1
// holding one junction, networks as strings or as `{polkadot: null}`.

/** One junction: its PascalCase variant and its payload, as written (null for unit variants). */
export interface Junction {
  type: string;
  value: unknown;
}

/** A location in one shape: parents and the list of junctions below them. */
export interface Loc {
  parents: number;
  junctions: Junction[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The variant name and payload of an enum value: `{parachain: 1}` -> ['Parachain', 1], `'Here'` -> ['Here', null]. */
export function variantOf(value: unknown): [string, unknown] | null {
  if (typeof value === 'string') return [pascal(value), null];
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1) return [pascal(keys[0]!), value[keys[0]!]];
  }
  return null;
}

/** A location in any JSON spelling, or null when `value` is not one. */
export function parseLocation(value: unknown): Loc | null {
  if (!isObject(value)) return null;
  const parents = Number(value.parents ?? 0);
  if (!Number.isInteger(parents) || parents < 0) return null;
  const interior = variantOf(value.interior);
  if (interior === null) return null;
  const [kind, payload] = interior;
  if (kind === 'Here') return { parents, junctions: [] };
  const width = /^X([1-8])$/.exec(kind);
  if (width === null) return null;
  const list = Array.isArray(payload) ? payload : [payload];
  const junctions: Junction[] = [];
  for (const item of list) {
    const junction = variantOf(item);
    if (junction === null) return null;
    junctions.push({ type: junction[0], value: junction[1] });
  }
  return { parents, junctions };
}

/** A comparable key for a junction's payload: case-insensitive variant names, numbers as strings. */
function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return /^\d+$/.test(value.replace(/,/g, '')) ? value.replace(/,/g, '') : value.toLowerCase();
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    // A unit variant reads the same as its name: `{kusama: null}` is `'Kusama'` (how the SDK writes networks).
    const keys = Object.keys(value);
    if (keys.length === 1 && value[keys[0]!] === null) return keys[0]!.toLowerCase();
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${k.toLowerCase()}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return String(value);
}

/** A string two locations share exactly when `sameLocation` holds: a key for maps of locations. */
export const locationKey = ({ parents, junctions }: Loc): string => JSON.stringify([parents, ...junctions.map((j) => [j.type, canonical(j.value)])]);

export const sameJunction = (a: Junction, b: Junction): boolean => a.type === b.type && canonical(a.value) === canonical(b.value);

export const sameLocation = (a: Loc, b: Loc): boolean =>
  a.parents === b.parents && a.junctions.length === b.junctions.length && a.junctions.every((j, i) => sameJunction(j, b.junctions[i]!));

/** The absolute path `location` names when read by the chain at `from`, or null if it climbs above the universe. */
export function absolute(from: Junction[], location: Loc): Junction[] | null {
  if (location.parents > from.length) return null;
  return [...from.slice(0, from.length - location.parents), ...location.junctions];
}

/** The absolute path `target` as the chain at `from` writes it. */
export function relative(from: Junction[], target: Junction[]): Loc {
  let common = 0;
  while (common < from.length && common < target.length && sameJunction(from[common]!, target[common]!)) common++;
  return { parents: from.length - common, junctions: target.slice(common) };
}

/**
 * `location` as written by the chain at `writer`, rewritten as the chain at `reader` reads it
 * (both universal locations). Null when it names nothing from the writer (too many parents).
 */
export function reanchor(location: Loc, writer: Junction[], reader: Junction[]): Loc | null {
  const target = absolute(writer, location);
  return target === null ? null : relative(reader, target);
}

/** The location in the SDK's spelling (`{parents, interior: {X1: [{Parachain: 1000}]}}` or `Here`). */
export function toSdkJson({ parents, junctions }: Loc): { parents: number; interior: unknown } {
  if (junctions.length === 0) return { parents, interior: { Here: null } };
  return { parents, interior: { [`X${junctions.length}`]: junctions.map(({ type, value }) => ({ [type]: value })) } };
}

/**
 * Where a chain sits in the universe: `[GlobalConsensus(Polkadot)]` for a relay chain,
 * `[GlobalConsensus(Polkadot), Parachain(1000)]` for a parachain, `[GlobalConsensus(Ethereum{chainId})]`.
 */
export function universalOf(network: string, paraId?: number): Junction[] {
  const consensus: Junction = { type: 'GlobalConsensus', value: network === 'Ethereum' ? { Ethereum: { chainId: 1 } } : { [network]: null } };
  return paraId === undefined ? [consensus] : [consensus, { type: 'Parachain', value: paraId }];
}

/**
 * The `locationKey` of the location `value` holds, in any spelling `parseLocation` reads (variant
 * names in any case, numbers as numbers or strings); null when `value` is not a location.
 */
export function keyOfLocation(value: unknown): string | null {
  const location = parseLocation(value);
  return location === null ? null : locationKey(location);
}
