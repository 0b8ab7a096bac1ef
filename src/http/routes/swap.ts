import type { Router } from 'express';
import { parseInput } from '../../schemas/parse';
import { swapAssetsFromQuery, swapAssetsToQuery, swapPairsQuery } from '../../schemas/swap';
import * as swap from '../../service/router/swap-lookups';
import type { RouteContext } from '../context';

/** Swap lookups from the router's registry: offline and static, so cached like the other registry lookups. */
export function swapRoutes(router: Router, { services, cache }: RouteContext): void {
  const names = (exchange: string[] | undefined) => (exchange ? exchange.join(',') : '*');

  router.get('/swap/exchange-chains', (req, res) => cache.send(req, res, 'swap-exchanges', swap.exchangeChains));

  // The same pairs as POST /router/pairs (an entry of its own: a cached entry names one route in the metrics).
  router.get('/swap/pairs', (req, res) => {
    const { exchange } = parseInput(swapPairsQuery, req.query, 'query');
    cache.send(req, res, `swap-pairs:${names(exchange)}`, () => services.router.pairs(exchange));
  });

  router.get('/swap/supported-assets-from', (req, res) => {
    const { exchange, from } = parseInput(swapAssetsFromQuery, req.query, 'query');
    cache.send(req, res, `swap-from:${names(exchange)}:${from ?? ''}`, () => swap.supportedAssetsFrom(exchange, from));
  });

  router.get('/swap/supported-assets-to', (req, res) => {
    const { exchange, to } = parseInput(swapAssetsToQuery, req.query, 'query');
    cache.send(req, res, `swap-to:${names(exchange)}:${to ?? ''}`, () => swap.supportedAssetsTo(exchange, to));
  });
}
