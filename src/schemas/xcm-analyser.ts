import { z } from 'zod';
import { doc } from './docs';
import { LIMITS } from './limits';
import { abortOnIssue } from './zod-rules';

// POST /xcm-analyser, as the ParaSpell XCM API serves it: `{location}` or `{xcm}`. The schema
// finds and checks every location the answer will name, so the service only writes them out and a
// location that cannot be written is a 400 at its path, never a failure later.

/** One junction, read case-insensitively (`Parachain`, `parachain`): its type and its value. */
export interface ReadJunction {
  readonly type: JunctionType;
  readonly value: unknown;
}

/** A location the answer names: how many parents, and its junctions (none for `Here`). */
export interface ReadLocation {
  readonly parents: number;
  readonly junctions: readonly ReadJunction[];
}

export type XcmAnalyserRequest = { location: ReadLocation } | { xcm: ReadLocation[] };

export const JUNCTION_TYPES = [
  'Parachain',
  'AccountId32',
  'AccountIndex64',
  'AccountKey20',
  'PalletInstance',
  'GeneralIndex',
  'GeneralKey',
  'OnlyChild',
  'Plurality',
  'GlobalConsensus',
] as const;
export type JunctionType = (typeof JUNCTION_TYPES)[number];

const TYPE_BY_KEY = new Map<string, JunctionType>(JUNCTION_TYPES.map((type) => [type.toLowerCase(), type]));

/** Values an `xcm` array may hold in all: far above any real program, and it bounds the walk. */
export const MAX_XCM_VALUES = 4096;
/** Top-level items of `xcm` (upstream reads each for one location). */
export const MAX_XCM_ITEMS = 256;

type Issue = { path: (string | number)[]; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A whole number in `[0, max]`, as a number or a decimal string (commas as polkadot.js's `toHuman` writes them). */
function whole(value: unknown, max: bigint): boolean {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : typeof value === 'string' ? value.replace(/,(?=\d{3}(?:,|$))/g, '') : '';
  return /^\d{1,40}$/.test(text) && BigInt(text) <= max;
}
const hex = (value: unknown): boolean => typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value) && value.length <= 2 + 2 * 128;
const scalarOrSmall = (value: unknown): boolean => value === null || ['string', 'number'].includes(typeof value) || isObject(value);

/** What is wrong with a junction's value, or undefined. */
function junctionProblem(type: JunctionType, value: unknown): string | undefined {
  const fields = (names: string[]): string | undefined =>
    !isObject(value) ? `${type} must be an object {${names.join(', ')}}` : names.find((n) => !(n in value)) ? `${type} needs ${names.map((n) => `'${n}'`).join(' and ')}` : undefined;
  switch (type) {
    case 'Parachain':
      return whole(value, 2n ** 32n - 1n) ? undefined : 'Parachain must be a whole number below 2^32';
    case 'PalletInstance':
      return whole(value, 255n) ? undefined : 'PalletInstance must be a whole number from 0 to 255';
    case 'GeneralIndex':
      return whole(value, 2n ** 128n - 1n) ? undefined : 'GeneralIndex must be a whole number below 2^128';
    case 'AccountId32':
      return fields(['network', 'id']) ?? (hex((value as { id: unknown }).id) ? undefined : 'AccountId32.id must be 0x-prefixed hex');
    case 'AccountKey20':
      return fields(['network', 'key']) ?? (hex((value as { key: unknown }).key) ? undefined : 'AccountKey20.key must be 0x-prefixed hex');
    case 'AccountIndex64':
      return fields(['network', 'index']) ?? (whole((value as { index: unknown }).index, 2n ** 64n - 1n) ? undefined : 'AccountIndex64.index must be a whole number below 2^64');
    case 'GeneralKey':
      return (
        fields(['length', 'data']) ??
        (whole((value as { length: unknown }).length, 32n) && hex((value as { data: unknown }).data) ? undefined : 'GeneralKey needs a length from 0 to 32 and 0x-prefixed hex data')
      );
    case 'OnlyChild':
      return value === null || typeof value === 'string' ? undefined : 'OnlyChild must be null or a string';
    case 'Plurality':
      return fields(['id', 'part']);
    case 'GlobalConsensus':
      return scalarOrSmall(value) && value !== null ? undefined : 'GlobalConsensus must name a network';
  }
}

/** Reads one junction `{Type: value}`, or says what is wrong with it. */
function readJunction(junction: unknown, path: (string | number)[]): ReadJunction | Issue {
  const keys = isObject(junction) ? Object.keys(junction) : [];
  const type = keys.length === 1 ? TYPE_BY_KEY.get(keys[0]!.toLowerCase()) : undefined;
  if (!type) return { path, message: `must be one junction: ${JUNCTION_TYPES.join(', ')}` };
  const value = (junction as Record<string, unknown>)[keys[0]!];
  const problem = junctionProblem(type, value);
  return problem ? { path: [...path, keys[0]!], message: problem } : { type, value };
}

/** Reads a location `{parents, interior}` (interior `Here`, `{Here: null}` or `{X<n>: [...]}`). */
function readLocation(location: unknown, path: (string | number)[]): ReadLocation | Issue {
  if (!isObject(location)) return { path, message: 'must be a location {parents, interior}' };
  const extra = Object.keys(location).filter((k) => k !== 'parents' && k !== 'interior');
  if (extra.length > 0) return { path: [...path, extra[0]!.slice(0, LIMITS.name)], message: 'is not a field of a location {parents, interior}' };
  if (!whole(location.parents, 255n)) return { path: [...path, 'parents'], message: 'must be a whole number from 0 to 255' };
  const parents = Number(String(location.parents));
  const interior = location.interior;
  const at = [...path, 'interior'];
  if (interior === 'Here' || (isObject(interior) && Object.keys(interior).length === 1 && 'Here' in interior && interior.Here === null)) return { parents, junctions: [] };
  const keys = isObject(interior) ? Object.keys(interior) : [];
  const count = keys.length === 1 ? /^X([1-8])$/.exec(keys[0]!) : null;
  if (!count) return { path: at, message: `must be "Here", {"Here": null} or {"X<n>": [junction, ...]} with n from 1 to ${LIMITS.junctions}` };
  const n = Number(count[1]);
  const raw = (interior as Record<string, unknown>)[keys[0]!];
  const list = n === 1 && !Array.isArray(raw) ? [raw] : raw;
  if (!Array.isArray(list) || list.length !== n) return { path: [...at, keys[0]!], message: `X${n} must hold exactly ${n} junction${n === 1 ? '' : 's'}` };
  const junctions: ReadJunction[] = [];
  for (const [i, junction] of list.entries()) {
    const read = readJunction(junction, n === 1 && !Array.isArray(raw) ? [...at, keys[0]!] : [...at, keys[0]!, i]);
    if ('message' in read) return read;
    junctions.push(read);
  }
  return { parents, junctions };
}

/**
 * The first location inside `item`, depth first in key order (an object with `parents` and
 * `interior`), as upstream finds it; the walk is iterative and counts values against `budget`.
 */
function firstLocation(item: unknown, path: (string | number)[], budget: { left: number }): { found: unknown; path: (string | number)[] } | undefined | Issue {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: item, path }];
  while (stack.length > 0) {
    const { value, path: at } = stack.pop()!;
    if (--budget.left < 0) return { path: ['xcm'], message: `holds more than ${MAX_XCM_VALUES} values` };
    if (typeof value !== 'object' || value === null) continue;
    if (isObject(value) && 'parents' in value && 'interior' in value) return { found: value, path: at };
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], path: [...at, entries[i]![0]] });
  }
  return undefined;
}

function readProgram(xcm: unknown[]): ReadLocation[] | Issue {
  const budget = { left: MAX_XCM_VALUES };
  const locations: ReadLocation[] = [];
  for (const [i, item] of xcm.entries()) {
    const hit = firstLocation(item, ['xcm', i], budget);
    if (hit === undefined) continue;
    if ('message' in hit) return hit;
    const read = readLocation(hit.found, hit.path);
    if ('message' in read) return read;
    locations.push(read);
  }
  return locations;
}

const locationField = doc(z.unknown(), {
  description: 'An XCM location `{parents, interior}` (`parents` a number or decimal string; `interior` `"Here"`, `{"Here": null}` or `{"X<n>": [junction, ...]}`; junction names in any case).',
  examples: [{ parents: 0, interior: { X1: { Parachain: 2000 } } }],
});
const xcmField = doc(z.array(z.unknown()).max(MAX_XCM_ITEMS, `must hold at most ${MAX_XCM_ITEMS} items`), {
  description: `An XCM program or call arguments as JSON (for example polkadot.js's \`toHuman()\` of a message): each item is searched, depth first, for its first location. At most ${MAX_XCM_ITEMS} items and ${MAX_XCM_VALUES} values in all.`,
});

/** `{location}` or `{xcm}`, exactly one: the same body in both families. */
export const xcmAnalyserBody: z.ZodType<XcmAnalyserRequest, unknown> = z
  .object({ location: locationField.optional(), xcm: xcmField.optional() })
  .strict()
  .check(abortOnIssue)
  .transform((body, ctx): XcmAnalyserRequest => {
    const given = [body.location, body.xcm].filter((v) => v !== undefined).length;
    if (given !== 1) {
      ctx.addIssue({ code: 'custom', path: given === 0 ? [] : ['xcm'], message: given === 0 ? 'must carry location or xcm' : 'must carry only one of location and xcm', params: { kind: 'ValidationError' } });
      return z.NEVER;
    }
    const read = body.location !== undefined ? readLocation(body.location, ['location']) : readProgram(body.xcm!);
    if ('message' in read) {
      ctx.addIssue({ code: 'custom', path: read.path, message: read.message, params: { kind: 'ValidationError' } });
      return z.NEVER;
    }
    return body.location !== undefined ? { location: read as ReadLocation } : { xcm: read as ReadLocation[] };
  });
