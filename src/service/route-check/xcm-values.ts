// The XCM values the walker reads, as polkadot.js's toJSON spells them: versioned wrappers,
// assets as holdings (absolute paths and amounts), locations as text, and the local transfers
// whose target account is where value arrives.
import type { TChain } from '@paraspell/sdk-pjs';
import { absolute, parseLocation, sameJunction, toSdkJson, variantOf, type Junction, type Loc } from '../../xcm/location';
import { universalOfChain } from './registry-facts';

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One asset in a holding: its absolute path, its amount (null when not given) and whether a fee was taken from it. */
export interface Held {
  path: Junction[];
  amount: bigint | null;
  /** A chain before took its fees from it: less than `amount` reaches here. */
  reduced: boolean;
}

export function amountOf(value: unknown): bigint | null {
  try {
    if (typeof value === 'number' || typeof value === 'bigint') return BigInt(value);
    if (typeof value === 'string') return BigInt(value.replace(/,/g, ''));
  } catch {
    // not a number
  }
  return null;
}

/** `{v4: x}` -> x (versioned XCM values). */
export function unversioned(value: unknown): unknown {
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && /^v\d+$/i.test(keys[0]!)) return value[keys[0]!];
  }
  return value;
}

export const locText = (loc: Loc): string => JSON.stringify(toSdkJson(loc));
export const junctionText = ({ type, value }: Junction): string => `${type}(${typeof value === 'object' ? JSON.stringify(value) : String(value)})`;

/** Holdings and sends move by asset path; the V3 `{concrete}` wrapper is read through. */
export function assetPath(reader: TChain, id: unknown): Junction[] | null {
  const loc = parseLocation(isObject(id) && 'concrete' in id ? id.concrete : id);
  return loc ? absolute(universalOfChain(reader), loc) : null;
}

export function readAssets(reader: TChain, value: unknown): Held[] {
  const list = unversioned(value);
  if (!Array.isArray(list)) return [];
  const held: Held[] = [];
  for (const asset of list) {
    if (!isObject(asset)) continue;
    const path = assetPath(reader, asset.id);
    if (!path) continue;
    const fun = variantOf(asset.fun);
    held.push({ path, amount: fun?.[0] === 'Fungible' ? amountOf(fun[1]) : null, reduced: false });
  }
  return held;
}

export const samePath = (a: Junction[], b: Junction[]): boolean => a.length === b.length && a.every((j, i) => sameJunction(j, b[i]!));

/** Adds `assets` to `holding` as the executor's holding does: one entry per asset, amounts summed. */
export function addTo(holding: Held[], assets: Held[]): Held[] {
  for (const asset of assets) {
    const same = holding.find((h) => samePath(h.path, asset.path));
    if (!same) holding.push({ ...asset });
    else {
      same.amount = same.amount === null || asset.amount === null ? null : same.amount + asset.amount;
      same.reduced ||= asset.reduced;
    }
  }
  return holding;
}

/** The argument holding a local transfer's target account. */
export const LOCAL_TARGET: Record<string, string> = {
  'balances.transferKeepAlive': 'dest',
  'balances.transferAllowDeath': 'dest',
  'balances.transfer': 'dest',
  'balances.transferAll': 'dest',
  'assets.transfer': 'target',
  'assets.transferKeepAlive': 'target',
  'foreignAssets.transfer': 'target',
  'foreignAssets.transferKeepAlive': 'target',
  'tokens.transfer': 'dest',
  'tokens.transferKeepAlive': 'dest',
  'tokens.transferAll': 'dest',
  'currencies.transfer': 'dest',
};

/** A local transfer's target (`{id: '0x..'}`, a bare account id, or a 20-byte key) as a beneficiary location. */
export function accountLoc(value: unknown): Loc | null {
  const raw = isObject(value) ? (value.id ?? value.address20 ?? null) : value;
  if (typeof raw !== 'string' || !/^0x[0-9a-f]+$/i.test(raw)) return null;
  const junction: Junction = raw.length === 42 ? { type: 'AccountKey20', value: { network: null, key: raw } } : { type: 'AccountId32', value: { network: null, id: raw } };
  return { parents: 0, junctions: [junction] };
}
