import type { TChain, TCurrencyCore } from '@paraspell/sdk-pjs';
import { sdk } from '../sdk';
import { U128_MAX } from './limits';

// With options.abstractDecimals the engine multiplies an amount by 10^decimals of the asset;
// beyond a u128 its call encoding throws (a 500 before this check). Decided from the registry,
// without a chain.

/** The most decimals any registry asset has (one pass over the registry, under a millisecond). */
const MAX_DECIMALS = Math.max(
  0,
  ...sdk.CHAINS.flatMap((chain) => {
    const { nativeAssets, otherAssets } = sdk.getAssetsObject(chain);
    return [...nativeAssets, ...otherAssets].map((a) => a.decimals ?? 0);
  }),
);

/** Whole amounts below this stay within a u128 whatever the asset: no lookup is needed. */
const SAFE_WHOLE = U128_MAX / 10n ** BigInt(MAX_DECIMALS);

/** The amount in base units once scaled by `decimals` (fraction digits beyond them dropped). */
export function scaleAmount(amount: string, decimals: number): bigint {
  const [whole, fraction = ''] = amount.split('.');
  const kept = fraction.slice(0, decimals).padEnd(decimals, '0');
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(kept === '' ? '0' : kept);
}

/**
 * Registry lookups (a tenth to half a millisecond each) one validation may make. Validation is
 * synchronous, so `parseInput` resets the count before each request's parse.
 */
export const SCALE_LOOKUPS_PER_REQUEST = 16;
let lookupsLeft = SCALE_LOOKUPS_PER_REQUEST;

export function resetScaleLookups(): void {
  lookupsLeft = SCALE_LOOKUPS_PER_REQUEST;
}

/**
 * Why `amount` of the asset cannot be sent once scaled by its decimals, or undefined. An asset the
 * registry cannot resolve is left to the engine, which names the problem.
 */
export function scaledAmountProblem(chain: TChain, currency: TCurrencyCore, amount: string): string | undefined {
  if (BigInt(amount.split('.')[0]) < SAFE_WHOLE) return undefined;
  if (lookupsLeft <= 0) return `is one of more than ${SCALE_LOOKUPS_PER_REQUEST} amounts in this request large enough to need checking against their asset's decimals`;
  lookupsLeft -= 1;
  let decimals: number | undefined;
  try {
    decimals = sdk.findAssetInfo(chain, currency, null)?.decimals;
  } catch {
    return undefined;
  }
  if (decimals === undefined || scaleAmount(amount, decimals) <= U128_MAX) return undefined;
  return `is more than 2^128-1 base units once scaled by the asset's ${decimals} decimals`;
}
