import type { TChain } from '@paraspell/sdk-pjs';
import { badRequest, type ErrorDetail } from '../../errors';
import { placeCustomAssets, withCustomAssets, type CustomAsset, type PlacedAsset } from '../../sdk';
import type { CustomAssetsMap } from '../../schemas/custom-assets';

const at = (chain: string, index: number) => `body.options.customAssets.${chain}.${index}.location`;

/**
 * Runs an operation with the request's `options.customAssets` in the registry (the offline checks
 * and the SDK's work alike). A custom asset at a location the registry already lists on that chain
 * is a 400 CustomAssetConflictError naming it, unless it says `forceOverride`; two custom assets
 * of one chain at one location are a 400 too (a selection by location could not tell them apart).
 */
export async function withRequestAssets<T>(options: { customAssets?: CustomAssetsMap }, work: () => Promise<T>): Promise<T> {
  const map = options.customAssets;
  if (map === undefined || Object.keys(map).length === 0) return work();
  const assets: Partial<Record<TChain, PlacedAsset[]>> = {};
  const conflicts: ErrorDetail[] = [];
  const duplicates: ErrorDetail[] = [];
  for (const [chain, list] of Object.entries(map) as [TChain, CustomAsset[]][]) {
    const placed = placeCustomAssets(chain, list);
    placed.forEach(({ asset, clash, twin }, i) => {
      if (clash && !asset.forceOverride) {
        conflicts.push({ path: at(chain, i), message: `is the location of ${chain}'s registry asset ${clash.symbol}; set forceOverride: true to replace it for this request` });
      }
      if (twin !== undefined) duplicates.push({ path: at(chain, i), message: `is also the location of custom asset ${twin} of ${chain}; a chain lists one asset per location` });
    });
    assets[chain] = placed;
  }
  if (conflicts.length > 0) throw badRequest('CustomAssetConflictError', describe(conflicts), conflicts);
  if (duplicates.length > 0) throw badRequest('ValidationError', describe(duplicates), duplicates);
  return withCustomAssets(assets, work);
}

const describe = (details: ErrorDetail[]): string => details.map((d) => `${d.path.replace(/^body\./, '')} ${d.message}`).join('; ');
