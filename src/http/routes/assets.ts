import type { TChain } from '@paraspell/sdk-pjs';
import type { Router } from 'express';
import * as lookups from '../../service/lookups';
import { parseInput } from '../../schemas/parse';
import { assetInfoBody, currencyBody, supportedAssetsQuery } from '../../schemas/lookups';
import { toJson } from '../json';
import type { RouteContext } from '../context';

export function assetRoutes(router: Router, { cache, family, chainRoutes }: RouteContext): void {
  const onChain = chainRoutes.route.bind(chainRoutes, router, family);

  onChain('get', '/assets/:chain', (req, res, chain) => cache.send(req, res, `assets:${chain}`, () => lookups.chainRecord(chain)));

  onChain('post', '/assets/:chain/location', (req, res, chain) => {
    const { currency } = parseInput(currencyBody, req.body, 'body');
    cache.send(req, res, `location:${chain}:${toJson(currency)}`, () => lookups.assetLocation(chain, currency));
  });

  onChain('post', '/assets/:chain/asset-info', (req, res, chain) => {
    const { currency, destination } = parseInput(assetInfoBody, req.body, 'body');
    cache.send(req, res, `asset-info:${chain}:${destination}:${toJson(currency)}`, () =>
      lookups.assetInfo(chain, currency, destination),
    );
  });

  onChain('post', '/assets/:chain/reserve-chain', (req, res, chain) => {
    const { currency } = parseInput(currencyBody, req.body, 'body');
    cache.send(req, res, `reserve:${chain}:${toJson(currency)}`, () => lookups.reserveChain(chain, currency));
  });

  onChain('post', '/assets/:chain/supported-destinations', (req, res, chain) => {
    const { currency } = parseInput(currencyBody, req.body, 'body');
    cache.send(req, res, `destinations:${chain}:${toJson(currency)}`, () => lookups.supportedDestinations(chain, currency));
  });

  const perChain: Record<string, (chain: TChain) => unknown> = {
    'fee-assets': lookups.feeAssets,
    'relay-chain-symbol': lookups.relayChainSymbol,
    native: lookups.nativeAssets,
    other: lookups.otherAssets,
    'all-symbols': lookups.allSymbols,
  };
  for (const [suffix, lookup] of Object.entries(perChain)) {
    onChain('get', `/assets/:chain/${suffix}`, (req, res, chain) => cache.send(req, res, `${suffix}:${chain}`, () => lookup(chain)));
  }

  router.get('/supported-assets', (req, res) => {
    const { origin, destination } = parseInput(supportedAssetsQuery, req.query, 'query');
    cache.send(req, res, `supported:${origin}:${destination}`, () => lookups.supportedAssets(origin, destination));
  });

  onChain('post', '/balance/:chain/existential-deposit', (req, res, chain) => {
    const { currency } = parseInput(currencyBody, req.body, 'body');
    cache.send(req, res, `ed:${chain}:${toJson(currency)}`, () => lookups.existentialDeposit(chain, currency));
  });
}
