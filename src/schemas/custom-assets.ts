import { z } from 'zod';
import type { TChain } from '@paraspell/sdk-pjs';
import type { CustomAsset } from '../sdk';
import { chainName, locationObject } from './common';
import { doc, documentedAs } from './docs';
import { boundedArray, LIMITS } from './limits';
import { abortOnIssue, typeError } from './zod-rules';

/** `options.customAssets` as parsed: chain -> the assets the request adds to it. */
export type CustomAssetsMap = Partial<Record<TChain, CustomAsset[]>>;

const MAX_DECIMALS = 38; // a u128 has 39 digits

const baseUnits = z.union([
  z.string().regex(/^\d{1,39}$/, 'must be a whole number of base units (digits only)'),
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).transform(String),
]);

const customAsset = doc(
  z
    .object({
      symbol: z.string(typeError('must be a string')).min(1, 'must not be empty').max(LIMITS.symbol, `must be at most ${LIMITS.symbol} characters`),
      decimals: z.number(typeError('must be a whole number')).int().min(0).max(MAX_DECIMALS),
      location: locationObject,
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
    // Counted before anything else is checked, so that a flood of keys costs nothing.
    z
      .preprocess((v, ctx) => {
        if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > LIMITS.customAssetChains) {
          ctx.addIssue({ code: 'custom', message: `names more than ${LIMITS.customAssetChains} chains; a transfer touches far fewer`, fatal: true });
        }
        return v;
      }, z.record(z.string(), z.unknown()))
      .superRefine((map, ctx) => {
        for (const chain of Object.keys(map)) {
          const parsed = chainName.safeParse(chain);
          if (!parsed.success) ctx.addIssue({ code: 'custom', path: [chain], message: parsed.error.issues[0].message, params: { kind: 'UnknownChainError' } });
        }
      })
      .check(abortOnIssue)
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
