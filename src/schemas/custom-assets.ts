import { z } from 'zod';
import type { TChain, TLocation } from '@paraspell/sdk-pjs';
import type { CustomAsset } from '../sdk';
import { chainName, locationObject } from './common';
import { doc, documentedAs } from './docs';
import { boundedArray, LIMITS } from './limits';
import { abortOnIssue, typeError } from './zod-rules';

/** `options.customAssets` as parsed: chain -> the assets the request adds to it. */
export type CustomAssetsMap = Partial<Record<TChain, CustomAsset[]>>;

const MAX_DECIMALS = 38; // a u128 has 39 digits

/** A whole number as JSON, a decimal string or a hex string (the registry writes some u128 indexes in hex). */
const isWhole = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'string' && /^(\d{1,39}|0x[0-9a-fA-F]{1,32})$/.test(v));
const isHex = (bytes: number) => {
  const pattern = new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`);
  return (v: unknown) => typeof v === 'string' && pattern.test(v);
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const HEX20 = isHex(20);
const HEX32 = isHex(32);
/**
 * An object holding no field but `names`: every value of a junction is checked, so a location
 * that passes is as small as XCM's (nothing unchecked nested inside reaches the SDK).
 */
const only =
  (...names: string[]) =>
  (v: unknown): v is Record<string, unknown> =>
    isObject(v) && Object.keys(v).every((k) => names.includes(k));
const accountOf = only('id', 'network');
const indexOf = only('index', 'network');
const keyOf = only('key', 'network');
const generalKeyOf = only('length', 'data');
const forkOf = only('blockNumber', 'blockHash');
const chainIdOf = only('chainId');
/**
 * Junction and network names as the codec reads them: any case of the first letter (the registry
 * writes `kusama`). The tables are Maps: a client's `__proto__` or `constructor` names nothing.
 */
const named = <T>(table: ReadonlyMap<string, T>, name: string): T | undefined => table.get(name) ?? table.get(name.charAt(0).toUpperCase() + name.slice(1));

/** XCM's network ids (v4/v5; v5 names Westend and Rococo's slots `unused4`, `unused5`): null for the named ones. */
const NETWORKS = new Map<string, (v: unknown) => boolean>([
  ['ByGenesis', HEX32],
  ['ByFork', (v) => forkOf(v) && isWhole(v.blockNumber) && HEX32(v.blockHash)],
  ['Ethereum', (v) => chainIdOf(v) && isWhole(v.chainId)],
  ...['Polkadot', 'Kusama', 'Westend', 'Rococo', 'Wococo', 'BitcoinCore', 'BitcoinCash', 'PolkadotBulletin', 'Unused4', 'Unused5'].map((n): [string, (v: unknown) => boolean] => [n, (v) => v === null]),
]);
const isNetwork = (v: unknown): boolean => {
  if (typeof v === 'string') return named(NETWORKS, v)?.(null) === true;
  if (!isObject(v)) return false;
  const entries = Object.entries(v);
  return entries.length === 1 && named(NETWORKS, entries[0][0])?.(entries[0][1]) === true;
};
const optionalNetwork = (v: Record<string, unknown>) => v.network === undefined || v.network === null || isNetwork(v.network);

/** XCM's junctions (v4/v5 JSON, as the registry writes them), each with the value it carries. */
const JUNCTIONS = new Map<string, (v: unknown) => boolean>([
  ['Parachain', isWhole],
  ['PalletInstance', isWhole],
  ['GeneralIndex', isWhole],
  ['AccountId32', (v) => accountOf(v) && HEX32(v.id) && optionalNetwork(v)],
  ['AccountIndex64', (v) => indexOf(v) && isWhole(v.index) && optionalNetwork(v)],
  ['AccountKey20', (v) => keyOf(v) && HEX20(v.key) && optionalNetwork(v)],
  ['GeneralKey', (v) => generalKeyOf(v) && typeof v.length === 'number' && Number.isInteger(v.length) && v.length >= 0 && v.length <= 32 && HEX32(v.data)],
  ['OnlyChild', (v) => v === null],
  ['GlobalConsensus', isNetwork],
]);

/**
 * Why a location is not one XCM can hold, or undefined: an asset's location reaches the SDK and
 * the chain's codec, so it is checked here, junction by junction, as the registry writes them.
 */
function junctionProblem(interior: unknown): { path: string[]; message: string } | undefined {
  if (interior === 'Here') return undefined;
  const entries = Object.entries(interior as Record<string, unknown>);
  if (entries.length === 1 && entries[0][0] === 'Here') return entries[0][1] === null ? undefined : { path: ['interior', 'Here'], message: 'must be null' };
  if (entries.length !== 1) return { path: ['interior'], message: 'must be "Here", {"Here": null} or one X1 to X8' };
  const [key, value] = entries[0];
  const count = /^X([1-8])$/i.exec(key);
  if (!count) return { path: ['interior'], message: `${JSON.stringify(key.slice(0, LIMITS.name))} is not X1 to X8` };
  const list = count[1] === '1' && !Array.isArray(value) ? [value] : value;
  if (!Array.isArray(list) || list.length !== Number(count[1])) return { path: ['interior', key], message: `must list ${count[1]} junction(s)` };
  for (let i = 0; i < list.length; i++) {
    const junction: unknown = list[i];
    const at = () => ['interior', key, ...(list === value ? [String(i)] : [])];
    const names = isObject(junction) ? Object.keys(junction) : [];
    const valid = names.length === 1 ? named(JUNCTIONS, names[0]) : undefined;
    if (!valid) return { path: at(), message: `must be one junction: {${[...JUNCTIONS.keys()].join(' | ')}: value}` };
    if (!valid((junction as Record<string, unknown>)[names[0]])) return { path: [...at(), names[0]], message: `is not a ${names[0]} junction's value (see the registry's locations: POST /assets/{chain}/asset-info)` };
  }
  return undefined;
}

const isParents = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255) || (typeof v === 'string' && /^\d{1,3}$/.test(v) && Number(v) <= 255);

/** Why `value` is not a location a custom asset can have, or undefined. */
function locationProblem(value: unknown): { path: string[]; message: string } | undefined {
  if (!isObject(value)) return { path: [], message: 'must be a location {parents, interior}' };
  if (!isParents(value.parents)) return { path: ['parents'], message: 'must be a whole number from 0 to 255' };
  if (value.interior !== 'Here' && !isObject(value.interior)) return { path: ['interior'], message: 'must be "Here", {"Here": null} or one X1 to X8' };
  return junctionProblem(value.interior);
}

/**
 * A custom asset's location (the document shows `Location`), checked by hand: a request brings up
 * to 256 of them, and zod's object, union and record parsers took 1.2 ms of a request's CPU for
 * them, against 0.2 ms for these checks.
 */
const assetLocation = documentedAs(
  z.unknown().transform((value, ctx): TLocation => {
    const problem = locationProblem(value);
    if (problem) {
      ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, params: { kind: 'ValidationError' } });
      return z.NEVER;
    }
    const { parents, interior } = value as { parents: number | string; interior: TLocation['interior'] };
    return { parents, interior } as TLocation;
  }),
  locationObject,
);

const baseUnits = z.union([
  z.string().regex(/^\d{1,39}$/, 'must be a whole number of base units (digits only)'),
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).transform(String),
]);

const customAsset = doc(
  z
    .object({
      symbol: z.string(typeError('must be a string')).min(1, 'must not be empty').max(LIMITS.symbol, `must be at most ${LIMITS.symbol} characters`),
      decimals: z.number(typeError('must be a whole number')).int().min(0).max(MAX_DECIMALS),
      location: assetLocation,
      assetId: doc(
        z.union([z.string().min(1, 'must not be empty').max(LIMITS.assetId, `must be at most ${LIMITS.assetId} characters`), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).transform(String)]).optional(),
        { description: 'The id the chain knows the asset by (pallet-assets, Tokens, ...); numbers are read as their decimal string.' },
      ),
      existentialDeposit: doc(baseUnits.optional(), { description: 'In base units. Absent: no existential deposit is counted.' }),
      isFeeAsset: doc(z.boolean(typeError('must be true or false')).optional(), { description: 'The chain accepts this asset for fees.' }),
      forceOverride: doc(z.boolean(typeError('must be true or false')).optional(), {
        description: 'Replace the registry asset at the same location for this request (without it, such an asset is a 400 `CustomAssetConflictError`).',
      }),
    })
    .strict()
    .check(abortOnIssue)
    .transform((a): CustomAsset => a),
  { id: 'CustomAsset', description: 'An asset the chain knows for this request, as the registry would list it.' },
);

const assetList = boundedArray(z.array(customAsset), LIMITS.customAssetsPerChain, `lists more than ${LIMITS.customAssetsPerChain} assets for one chain`);

export const customAssetsSchema = doc(
  documentedAs(
    // Counted before anything else is checked, so that a flood of keys costs nothing. The chain
    // names are checked on the body's own keys, before a record copies them: copied, a
    // `__proto__` key would vanish (it sets the copy's prototype) instead of being refused.
    z
      .preprocess((v, ctx) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
        const chains = Object.keys(v);
        if (chains.length > LIMITS.customAssetChains) {
          ctx.addIssue({ code: 'custom', message: `names more than ${LIMITS.customAssetChains} chains; a transfer touches far fewer`, fatal: true });
          return v;
        }
        for (const chain of chains) {
          const parsed = chainName.safeParse(chain);
          if (!parsed.success) ctx.addIssue({ code: 'custom', path: [chain], message: parsed.error.issues[0].message, params: { kind: 'UnknownChainError' }, fatal: true });
        }
        return v;
      }, z.record(z.string(), z.unknown()))
      .pipe(z.record(z.string(), assetList))
      .transform((map) => map as CustomAssetsMap),
    z.record(chainName, z.array(customAsset).max(LIMITS.customAssetsPerChain)),
  ),
  {
    id: 'CustomAssets',
    description: `Chain name -> assets that chain knows for this request, exactly as if the registry listed them: selected by symbol, id or location, priced, their existential deposit counted, in every pre-flight query. A location is the registry's (as \`POST /assets/{chain}/asset-info\` shows it: a parachain's own asset from the relay, e.g. \`{"parents": 1, "interior": {"X3": [{"Parachain": 1000}, {"PalletInstance": 50}, {"GeneralIndex": 1984}]}}\`); one written from the chain itself (\`parents: 0\`) is read in that form. A location the registry already lists on that chain is a 400 \`CustomAssetConflictError\` unless \`forceOverride\` is true. At most ${LIMITS.customAssetChains} chains and ${LIMITS.customAssetsPerChain} assets per chain.`,
    maxProperties: LIMITS.customAssetChains,
  },
);
