import type { Router } from 'express';
import * as lookups from '../../service/lookups';
import { parseInput } from '../../schemas/parse';
import { assetInfoBody, chainParams, currencyBody, supportedAssetsQuery } from '../../schemas/lookups';
import { toJson } from '../json';
import type { RouteContext } from '../context';

export function assetRoutes(router: Router, { cache }: RouteContext): void {
  const chainOf = (params: unknown) => parseInput(chainParams, params, 'params').chain;

  router.get('/assets/:chain', (req, res) => {
    const chain = chainOf(req.params);
    cache.send(req, res, `assets:${chain}`, () => lookups.chainRecord(chain));
  });

  router.post('/assets/:chain/location', (req, res) => {
    const chain = chainOf(req.params);
    const { currency } = parseInput(currencyBody, req.body, 'body');
    cache.send(req, res, `location:${chain}:${toJson(currency)}`, () => lookups.assetLocation(chain, currency));
  });

  router.post('/assets/:chain/asset-info', (req, res) => {
    const chain = chainOf(req.params);
    const { currency, destination } = parseInput(assetInfoBody, req.body, 'body');
    cache.send(req, res, `asset-info:${chain}:${destination}:${toJson(currency)}`, () =>
      lookups.assetInfo(chain, currency, destination),
    );
  });

  router.post('/assets/:chain/reserve-chain', (req, res) => {
    const chain = chainOf(req.params);
    const { currency } = parseInput(currencyBody, req.body, 'body');
    cache.send(req, res, `reserve:${chain}:${toJson(currency)}`, () => lookups.reserveChain(chain, currency));
  });

  router.post('/assets/:chain/supported-destinations', (req, res) => {
    const chain = chainOf(req.params);
    const { currency } = parseInput(currencyBody, req.body, 'body');
    cache.send(req, res, `destinations:${chain}:${toJson(currency)}`, () => lookups.supportedDestinations(chain, currency));
  });

  const perChain: Record<string, (chain: ReturnType<typeof chainOf>) => unknown> = {
    'fee-assets': lookups.feeAssets,
    'relay-chain-symbol': lookups.relayChainSymbol,
    native: lookups.nativeAssets,
    other: lookups.otherAssets,
    'all-symbols': lookups.allSymbols,
  };
  for (const [suffix, lookup] of Object.entries(perChain)) {
    router.get(`/assets/:chain/${suffix}`, (req, res) => {
      const chain = chainOf(req.params);
      cache.send(req, res, `${suffix}:${chain}`, () => lookup(chain));
    });
  }

  router.get('/supported-assets', (req, res) => {
    const { origin, destination } = parseInput(supportedAssetsQuery, req.query, 'query');
    cache.send(req, res, `supported:${origin}:${destination}`, () => lookups.supportedAssets(origin, destination));
  });

  router.post('/balance/:chain/existential-deposit', (req, res) => {
    const chain = chainOf(req.params);
    const { currency } = parseInput(currencyBody, req.body, 'body');
    cache.send(req, res, `ed:${chain}:${toJson(currency)}`, () => lookups.existentialDeposit(chain, currency));
  });
}
