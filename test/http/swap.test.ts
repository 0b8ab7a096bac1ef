// Swap lookups (GET /swap/...): the router's registry, read without loading the router engine.
// The registry copy is checked against the real router (loaded here on purpose), answer by answer.
import request from 'supertest';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TChain } from '@paraspell/sdk-pjs';
import type { TExchangeInput } from '@paraspell/xcm-router';
import { EXCHANGE_NAMES } from '../../src/schemas/router';
import { loadRouter, routerRegistry } from '../../src/sdk';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';

const { app, services } = testApp();
afterAll(() => services.close());

const get = (path: string) => request(app).get(path);
const DOT_LOCATION = { parents: 1, interior: { Here: null } };
const symbols = (assets: { symbol: string }[]) => assets.map((a) => a.symbol);

describe('the router registry copy', () => {
  it('is loaded by neither start-up nor the swap lookups nor pairs: the engine stays unloaded', async () => {
    // A fresh copy of the service modules: whatever other tests in this process loaded does not count.
    vi.resetModules();
    const engine = await import('../../src/sdk');
    const { testApp: freshApp } = await import('../helpers/app');
    const fresh = freshApp();
    try {
      for (const path of ['/v2/swap/exchange-chains', '/v5/swap/pairs?exchange=AcalaDex', '/v2/swap/supported-assets-from?exchange=HydrationDex&from=Polkadot', '/v5/swap/supported-assets-to?to=Polkadot']) {
        await request(fresh.app).get(path).expect(200);
      }
      await request(fresh.app).post('/v2/router/pairs').send({ exchange: 'BifrostPolkadotDex' }).expect(200);
      expect(engine.isRouterLoaded()).toBe(false);
    } finally {
      await fresh.services.close();
      vi.resetModules();
    }
  });

  it('answers what the real router answers, for every exchange selection and the chains around them', () => {
    const real = loadRouter();
    const copy = routerRegistry();
    expect([...copy.EXCHANGE_CHAINS]).toEqual([...real.EXCHANGE_CHAINS]);
    const selections: TExchangeInput[] = [undefined, ...real.EXCHANGE_CHAINS, ['HydrationDex', 'AssetHubPolkadotDex'], ['KaruraDex', 'BifrostKusamaDex']];
    const chains: (TChain | undefined)[] = [
      undefined,
      ...['Polkadot', 'Kusama', 'AssetHubPolkadot', 'AssetHubKusama', 'Hydration', 'Acala', 'Karura', 'BifrostPolkadot', 'BifrostKusama'],
      ...['Moonbeam', 'Astar', 'Ethereum', 'Mythos'],
    ].map((c) => c as TChain | undefined);
    for (const exchange of selections) {
      expect(copy.getExchangePairs(exchange), String(exchange)).toEqual(real.getExchangePairs(exchange));
      for (const chain of chains) {
        expect(copy.getSupportedAssetsFrom(chain, exchange), `from ${chain} via ${String(exchange)}`).toEqual(real.getSupportedAssetsFrom(chain, exchange));
        expect(copy.getSupportedAssetsTo(exchange, chain), `to ${chain} via ${String(exchange)}`).toEqual(real.getSupportedAssetsTo(exchange, chain));
      }
    }
  });
});

describe.each(FAMILIES)('/%s swap lookups', (family) => {
  const v = `/${family}`;

  it('GET /swap/exchange-chains: the router\'s exchanges, cached with an ETag', async () => {
    const res = await get(`${v}/swap/exchange-chains`).expect(200);
    expect(res.body).toEqual([...EXCHANGE_NAMES]);
    expect(res.headers.etag).toMatch(/^"[\w-]{22}"$/);
    await get(`${v}/swap/exchange-chains`).set('If-None-Match', res.headers.etag).expect(304);
  });

  it('GET /swap/pairs: the pairs POST /router/pairs answers, for one, several (repeated or comma-separated) or all exchanges', async () => {
    const cases: [query: string, body: object, count: number][] = [
      ['', {}, 3307],
      ['?exchange=HydrationDex', { exchange: 'HydrationDex' }, 2775],
      ['?exchange=HydrationDex,AssetHubPolkadotDex', { exchange: ['HydrationDex', 'AssetHubPolkadotDex'] }, 2775 + 325],
      ['?exchange=AcalaDex&exchange=KaruraDex', { exchange: ['AcalaDex', 'KaruraDex'] }, 55 + 77],
      ['?exchange=BifrostPolkadotDex&exchange=BifrostPolkadotDex', { exchange: 'BifrostPolkadotDex' }, 7],
      // The chain names of the ParaSpell XCM API 14 name the same exchanges.
      ['?exchange=Hydration', { exchange: 'Hydration' }, 2775],
      ['?exchange=Hydration,AssetHubPolkadotDex&exchange=HydrationDex', { exchange: ['Hydration', 'AssetHubPolkadot', 'HydrationDex'] }, 2775 + 325],
    ];
    for (const [query, body, count] of cases) {
      const got = await get(`${v}/swap/pairs${query}`).expect(200);
      const posted = await request(app).post(`${v}/router/pairs`).send(body).expect(200);
      expect(got.body, query).toHaveLength(count);
      expect(got.body, query).toEqual(posted.body);
    }
  });

  it('answers with the <Chain>Dex names when the request named an exchange by its chain', async () => {
    const byChain = await get(`${v}/swap/supported-assets-from?exchange=Hydration&from=Polkadot`).expect(200);
    const byDex = await get(`${v}/swap/supported-assets-from?exchange=HydrationDex&from=Polkadot`).expect(200);
    expect(byChain.body).toEqual(byDex.body);
    expect(JSON.stringify((await get(`${v}/swap/exchange-chains`).expect(200)).body)).not.toMatch(/"Hydration"/);
  });

  it('GET /swap/supported-assets-from: what a swap can start from, per exchange and origin', async () => {
    // From the relay chain into Hydration's exchange: DOT only, as the relay registers it.
    const fromRelay = await get(`${v}/swap/supported-assets-from?exchange=HydrationDex&from=Polkadot`).expect(200);
    expect(fromRelay.body).toEqual([expect.objectContaining({ symbol: 'DOT', decimals: 10, location: DOT_LOCATION })]);
    // From the exchange's own chain (or no origin): every asset of the exchange.
    const onHydration = await get(`${v}/swap/supported-assets-from?exchange=HydrationDex&from=Hydration`).expect(200);
    const exchangeOnly = await get(`${v}/swap/supported-assets-from?exchange=HydrationDex`).expect(200);
    expect(onHydration.body).toHaveLength(75);
    expect(exchangeOnly.body).toEqual(onHydration.body);
    expect(symbols(onHydration.body)).toEqual(expect.arrayContaining(['HDX', 'DOT', 'USDT']));
    // Without an exchange (automatic selection), every asset of the origin; with neither, none.
    const anyExchange = await get(`${v}/swap/supported-assets-from?from=Astar`).expect(200);
    expect(symbols(anyExchange.body)).toEqual(expect.arrayContaining(['ASTR', 'DOT']));
    expect((await get(`${v}/swap/supported-assets-from`).expect(200)).body).toEqual([]);
    // A whitelist: the union of its exchanges' assets that the origin holds.
    const two = await get(`${v}/swap/supported-assets-from?exchange=HydrationDex,AssetHubPolkadotDex&from=AssetHubPolkadot`).expect(200);
    expect(two.body).toHaveLength(34);
  });

  it('GET /swap/supported-assets-to: what a swap can end in, per exchange and destination', async () => {
    const toRelay = await get(`${v}/swap/supported-assets-to?exchange=AssetHubPolkadotDex&to=Polkadot`).expect(200);
    expect(toRelay.body).toEqual([{ symbol: 'DOT', decimals: 10, location: DOT_LOCATION }]);
    const exchangeAssets = await get(`${v}/swap/supported-assets-to?exchange=BifrostPolkadotDex`).expect(200);
    expect(exchangeAssets.body).toHaveLength(8);
    // No parameter: every exchange's assets, as the router lists them (an asset once per exchange).
    expect((await get(`${v}/swap/supported-assets-to`).expect(200)).body).toHaveLength(158);
  });

  it('refuses bad names with a 400 naming the parameter and suggesting the valid name', async () => {
    const exchange = await get(`${v}/swap/pairs?exchange=HydrationDx`).expect(400);
    expectErrorBody(exchange.body, 400, 'UnknownExchangeError');
    expect(exchange.body.details[0].path).toMatch(/^query\.exchange/);
    expect(exchange.body.message).toContain("did you mean 'HydrationDex'");
    const second = await get(`${v}/swap/supported-assets-to?exchange=AcalaDex,KaruraDx`).expect(400);
    expect(second.body.details[0].path).toBe('query.exchange.1');
    expect(second.body.message).toContain("'KaruraDex'");
    const from = await get(`${v}/swap/supported-assets-from?from=Polkadott`).expect(400);
    expectErrorBody(from.body, 400, 'UnknownChainError');
    expect(from.body.details[0]).toEqual({ path: 'query.from', message: expect.stringContaining("did you mean 'Polkadot'") });
    const to = await get(`${v}/swap/supported-assets-to?to=Hydra`).expect(400);
    expect(to.body.details[0]).toEqual({ path: 'query.to', message: expect.stringContaining("'Hydration'") });
    const empty = await get(`${v}/swap/pairs?exchange=`).expect(400);
    expectErrorBody(empty.body, 400, 'UnknownExchangeError');
    // A misspelt parameter would otherwise answer for every exchange.
    const misspelt = await get(`${v}/swap/pairs?exchanges=HydrationDex`).expect(400);
    expectErrorBody(misspelt.body, 400, 'ValidationError');
    expect(misspelt.body.message).toContain('exchanges');
    const tooMany = await get(`${v}/swap/pairs?exchange=${Array(40).fill('AcalaDex').join(',')}`).expect(400);
    expectErrorBody(tooMany.body, 400, 'ValidationError');
  });
});
