import { z } from 'zod';

// Bounds on what one request may ask for. Each is far above any real use (the registry's longest
// symbol has 15 characters, its longest id 42, its longest chain name 18) and keeps the work and
// the answer of a request proportional to a small input, whatever the body limit admits.

export const LIMITS = {
  /** Characters in an asset symbol. */
  symbol: 64,
  /** Characters in an asset id string (a u128 has 39 digits, a 32-byte hex key 66 characters). */
  assetId: 128,
  /** Characters in a chain, pallet, method or exchange name. */
  name: 64,
  /** Characters in an account address (SS58 ~48, hex account id 66). */
  address: 128,
  /** Characters in an amount: a u128 has 39 digits, a decimal fraction rarely 18. */
  amount: 100,
  /** Transfers in one batch. */
  batchTransfers: 100,
  /** Assets in one multi-asset transfer (pallet-xcm itself takes at most 2). */
  multiAssets: 8,
  /** Exchanges in one router whitelist (the router knows about a dozen). */
  exchanges: 32,
  /** Chains named in `options.apiOverrides`. */
  overrideChains: 32,
  /** Chains named in `options.customAssets` (a transfer touches its origin, its destination and a hop or two). */
  customAssetChains: 8,
  /** Assets one chain is given in `options.customAssets`. */
  customAssetsPerChain: 32,
  /** Junctions in a location's interior (XCM: X1 to X8). */
  junctions: 8,
  /** Objects and arrays nested inside one location, the location itself counted. */
  locationDepth: 10,
  /** JSON values (objects, arrays, scalars) inside one location. */
  locationNodes: 512,
} as const;

/** The largest amount a chain's balance type (u128) holds. */
export const U128_MAX = 2n ** 128n - 1n;

/** At most `max` characters of a caller's text, for quoting it in a message. */
export function quoted(text: string, max = 64): string {
  return text.length <= max ? `'${text}'` : `'${text.slice(0, max)}...' (${text.length} characters)`;
}

/**
 * `array` with at most `max` items, counted before any item is parsed: zod would parse every item
 * of an over-long array, and report each one that fails.
 */
export function boundedArray<S extends z.ZodArray<z.ZodType>>(array: S, max: number, message: string) {
  return z.preprocess((value, ctx) => {
    if (Array.isArray(value) && value.length > max) ctx.addIssue({ code: 'custom', message, params: { kind: 'ValidationError' }, fatal: true });
    return value;
  }, array.max(max, message));
}
