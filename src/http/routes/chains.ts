import type { Router } from 'express';
import * as lookups from '../../service/lookups';
import { parseInput } from '../../schemas/parse';
import { paraIdParams, paraIdQuery } from '../../schemas/lookups';
import type { RouteContext } from '../context';

export function chainRoutes(router: Router, { cache, family, chainRoutes: declared }: RouteContext): void {
  router.get('/chains', (req, res) => cache.send(req, res, 'chains', lookups.chains));
  router.get('/chains/evm', (req, res) => cache.send(req, res, 'chains-evm', lookups.evmChains));

  const perChain: Record<string, (chain: ReturnType<typeof lookups.chains>[number]) => unknown> = {
    'ws-endpoints': lookups.wsEndpoints,
    'para-id': lookups.paraIdOf,
    'has-dry-run-support': lookups.hasDryRunSupport,
  };
  for (const [suffix, lookup] of Object.entries(perChain)) {
    declared.route(router, family, 'get', `/chains/:chain/${suffix}`, (req, res, chain) => cache.send(req, res, `${suffix}:${chain}`, () => lookup(chain)));
  }

  router.get('/chains/:paraId', (req, res) => {
    const { paraId } = parseInput(paraIdParams, req.params, 'params');
    const { ecosystem } = parseInput(paraIdQuery, req.query, 'query');
    cache.send(req, res, `chain-by-id:${ecosystem}:${paraId}`, () => lookups.chainByParaId(paraId, ecosystem));
  });
}
