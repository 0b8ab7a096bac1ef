// XCM programs as the sandbox's executor reads and writes them: any version polkadot.js decodes
// (V3's `{concrete: location}` asset ids, V4/V5's plain locations; camelCase or PascalCase keys)
// read into instructions, assets and filters; written back as V5 JSON, which the chains' metadata
// encode for events. Locations are src/xcm/location.ts's (the one copy of re-anchoring).
import { parseLocation, toSdkJson, variantOf, sameLocation, type Loc } from '../xcm/location';

/** One instruction: its PascalCase name and payload. */
export type Instruction = [name: string, payload: unknown];

export interface Asset {
  id: Loc;
  amount: bigint;
}

export type AssetFilter = { definite: Asset[] } | { wild: 'All' } | { wild: 'AllCounted'; count: number } | { wild: 'AllOf'; id: Loc };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const norm = (k: string) => k.replace(/_/g, '').toLowerCase();

/** A field of an object by name, whatever its case or underscores (`weight_limit`, `weightLimit`). */
export function field(value: unknown, name: string): unknown {
  if (!isObject(value)) return undefined;
  const wanted = norm(name);
  const key = Object.keys(value).find((k) => norm(k) === wanted);
  return key === undefined ? undefined : value[key];
}

/** `{v5: x}` -> x (any version). */
export function unversioned(value: unknown): unknown {
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  return keys.length === 1 && /^v\d+$/i.test(keys[0]!) ? value[keys[0]!] : value;
}

/**
 * An XCM v3 value in v4/v5's spelling (what a runtime does when it converts a message before
 * sending it on): asset ids without their `Concrete` wrapper, a junction list always an array.
 */
function laterSpelling(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(laterSpelling);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && norm(keys[0]!) === 'concrete') return laterSpelling(value[keys[0]!]);
  return Object.fromEntries(keys.map((k) => [k, /^x[1-8]$/i.test(k) && !Array.isArray(value[k]) ? [laterSpelling(value[k])] : laterSpelling(value[k])]));
}

export function programOf(value: unknown): Instruction[] {
  const list = unversioned(value);
  if (!Array.isArray(list)) throw new Error('not an XCM program');
  return list.map((item) => {
    const v = variantOf(laterSpelling(item));
    if (!v) throw new Error(`not an XCM instruction: ${JSON.stringify(item)}`);
    return v;
  });
}

export function locationOf(value: unknown): Loc {
  const loc = parseLocation(unversioned(value));
  if (!loc) throw new Error(`not a location: ${JSON.stringify(value)}`);
  return loc;
}

const amountOf = (fun: unknown): bigint => {
  const v = variantOf(fun);
  if (!v || v[0] !== 'Fungible') throw new Error('the sandbox moves fungible assets only');
  return BigInt(v[1] as string | number);
};

export function assetOf(value: unknown): Asset {
  const id = field(value, 'id');
  // V3: `{concrete: location}`.
  const concrete = field(id, 'concrete');
  return { id: locationOf(concrete ?? id), amount: amountOf(field(value, 'fun')) };
}

export function assetsIn(value: unknown): Asset[] {
  const list = unversioned(value);
  if (!Array.isArray(list)) return [assetOf(list)];
  return list.map(assetOf);
}

export function filterOf(value: unknown): AssetFilter {
  const v = variantOf(value);
  if (!v) throw new Error(`not an asset filter: ${JSON.stringify(value)}`);
  if (v[0] === 'Definite') return { definite: assetsIn(v[1]) };
  const wild = variantOf(v[1]);
  if (!wild) throw new Error('not a wild filter');
  if (wild[0] === 'All') return { wild: 'All' };
  if (wild[0] === 'AllCounted') return { wild: 'AllCounted', count: Number(wild[1]) };
  if (wild[0] === 'AllOf' || wild[0] === 'AllOfCounted') return { wild: 'AllOf', id: assetOf({ id: field(wild[1], 'id'), fun: { Fungible: 0 } }).id };
  throw new Error(`the sandbox does not read the filter ${wild[0]}`);
}

export const assetJson = (a: Asset) => ({ id: toSdkJson(a.id), fun: { Fungible: a.amount } });
export const locJson = toSdkJson;

/** Assets by location: what the executor's holding register (and the fees register) hold. */
export class Holding {
  readonly assets: Asset[] = [];

  add(asset: Asset): void {
    if (asset.amount === 0n) return;
    const found = this.assets.find((a) => sameLocation(a.id, asset.id));
    if (found) found.amount += asset.amount;
    else this.assets.push({ ...asset });
  }

  amount(id: Loc): bigint {
    return this.assets.find((a) => sameLocation(a.id, id))?.amount ?? 0n;
  }

  /** Takes exactly `asset`; false (and takes nothing) when it is not all there. */
  take(asset: Asset): boolean {
    const found = this.assets.find((a) => sameLocation(a.id, asset.id));
    if (!found || found.amount < asset.amount) return false;
    found.amount -= asset.amount;
    if (found.amount === 0n) this.assets.splice(this.assets.indexOf(found), 1);
    return true;
  }

  /** Takes what `filter` selects (a definite asset: at most what is held). */
  takeFilter(filter: AssetFilter): Asset[] {
    let picked: Asset[];
    if ('definite' in filter) picked = filter.definite.map((a) => ({ id: a.id, amount: a.amount < this.amount(a.id) ? a.amount : this.amount(a.id) }));
    else if (filter.wild === 'All') picked = this.assets.map((a) => ({ ...a }));
    else if (filter.wild === 'AllCounted') picked = this.assets.slice(0, filter.count).map((a) => ({ ...a }));
    else picked = this.assets.filter((a) => sameLocation(a.id, filter.id)).map((a) => ({ ...a }));
    picked = picked.filter((a) => a.amount > 0n);
    for (const a of picked) this.take(a);
    return picked;
  }

  get empty(): boolean {
    return this.assets.length === 0;
  }
}
