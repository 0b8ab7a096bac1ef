import type { TChain } from '@paraspell/sdk-pjs';
import type { Router } from 'express';
import * as lookups from '../../service/lookups';
import { parseInput } from '../../schemas/parse';
import { palletIndexQuery } from '../../schemas/lookups';
import type { RouteContext } from '../context';

export function palletRoutes(router: Router, { cache, family, chainRoutes }: RouteContext): void {
  const onChain = chainRoutes.route.bind(chainRoutes, router, family);

  onChain('get', '/pallets/:chain', (req, res, chain) => cache.send(req, res, `pallets:${chain}`, () => lookups.pallets(chain)));

  const perChain: Record<string, (chain: TChain) => unknown> = {
    default: lookups.defaultPallet,
    'native-assets': lookups.nativeAssetsPallet,
    'other-assets': lookups.otherAssetsPallets,
  };
  for (const [suffix, lookup] of Object.entries(perChain)) {
    onChain('get', `/pallets/:chain/${suffix}`, (req, res, chain) => cache.send(req, res, `pallet-${suffix}:${chain}`, () => lookup(chain)));
  }

  onChain('get', '/pallets/:chain/index', (req, res, chain) => {
    const { pallet } = parseInput(palletIndexQuery, req.query, 'query');
    cache.send(req, res, `pallet-index:${chain}:${pallet}`, () => lookups.palletIndex(chain, pallet));
  });
}
