import type { Router } from 'express';
import * as lookups from '../../service/lookups';
import { parseInput } from '../../schemas/parse';
import { chainParams, palletIndexQuery } from '../../schemas/lookups';
import type { RouteContext } from '../context';

export function palletRoutes(router: Router, { cache }: RouteContext): void {
  const chainOf = (params: unknown) => parseInput(chainParams, params, 'params').chain;

  router.get('/pallets/:chain', (req, res) => {
    const chain = chainOf(req.params);
    cache.send(req, res, `pallets:${chain}`, () => lookups.pallets(chain));
  });

  const perChain: Record<string, (chain: ReturnType<typeof chainOf>) => unknown> = {
    default: lookups.defaultPallet,
    'native-assets': lookups.nativeAssetsPallet,
    'other-assets': lookups.otherAssetsPallets,
  };
  for (const [suffix, lookup] of Object.entries(perChain)) {
    router.get(`/pallets/:chain/${suffix}`, (req, res) => {
      const chain = chainOf(req.params);
      cache.send(req, res, `pallet-${suffix}:${chain}`, () => lookup(chain));
    });
  }

  router.get('/pallets/:chain/index', (req, res) => {
    const chain = chainOf(req.params);
    const { pallet } = parseInput(palletIndexQuery, req.query, 'query');
    cache.send(req, res, `pallet-index:${chain}:${pallet}`, () => lookups.palletIndex(chain, pallet));
  });
}
