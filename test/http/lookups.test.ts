import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';

const { app } = testApp();
const POLKADOT_ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const KUSAMA_ADDRESS = 'HLsPiB2amYFPFYMcYqKxGFLgDUVd4UP1kdA4QdZsH3e91LP';

const get = (path: string) => request(app).get(path);
const post = (path: string, body: unknown) => request(app).post(path).send(body as object);

describe.each(FAMILIES)('/%s lookups', (family) => {
  const v = `/${family}`;

  describe('assets', () => {
    it('GET /assets/:chain returns the registry record with one assets array', async () => {
      const res = await get(`${v}/assets/AssetHubPolkadot`).expect(200);
      expect(res.body).toMatchObject({ relaychainSymbol: 'DOT', nativeAssetSymbol: 'DOT', isEVM: false, ss58Prefix: 0, supportsDryRunApi: true });
      expect(res.body).not.toHaveProperty('nativeAssets');
      expect(res.body).not.toHaveProperty('otherAssets');
      const dot = res.body.assets.find((a: { symbol: string }) => a.symbol === 'DOT');
      expect(dot).toMatchObject({ isNative: true, decimals: 10, location: { parents: 1, interior: { Here: null } } });
      expect(res.body.assets.find((a: { assetId?: string }) => a.assetId === '1984')).toMatchObject({ symbol: 'USDt', decimals: 6 });
      expect(res.body.assets.filter((a: { isNative?: boolean }) => a.isNative).length).toBeGreaterThan(0);
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const first = await get(`${v}/assets/Hydration`).expect(200);
      expect(first.headers.etag).toMatch(/^".+"$/);
      await get(`${v}/assets/Hydration`).set('If-None-Match', first.headers.etag).expect(304);
    });

    it('POST /assets/:chain/asset-info finds DOT on Hydration, and null for no match', async () => {
      const res = await post(`${v}/assets/Hydration/asset-info`, { currency: { symbol: 'DOT' } }).expect(200);
      expect(res.body).toMatchObject({ assetId: '5', symbol: 'DOT', decimals: 10, existentialDeposit: '17540000' });
      const byId = await post(`${v}/assets/AssetHubPolkadot/asset-info`, { currency: { id: 1984 } }).expect(200);
      expect(byId.body).toMatchObject({ symbol: 'USDt', decimals: 6 });
      const native = await post(`${v}/assets/AssetHubPolkadot/asset-info`, { currency: { symbol: { type: 'Native', value: 'DOT' } } }).expect(200);
      expect(native.body).toMatchObject({ symbol: 'DOT', isNative: true });
      const none = await post(`${v}/assets/Hydration/asset-info`, { currency: { symbol: 'NOPE' } }).expect(200);
      expect(none.body).toBeNull();
      const withDest = await post(`${v}/assets/AssetHubPolkadot/asset-info`, { currency: { symbol: 'WETH' }, destination: 'Ethereum' }).expect(200);
      expect(withDest.body).toMatchObject({ symbol: 'WETH', decimals: 18 });
    });

    it('POST /assets/:chain/asset-info: ambiguous symbol, missing and malformed currency are 400', async () => {
      const dup = await post(`${v}/assets/AssetHubPolkadot/asset-info`, { currency: { symbol: 'USDT' } }).expect(400);
      expectErrorBody(dup.body, 400, 'AmbiguousAssetError');
      expect(dup.body.message).toMatch(/USDT1/); // test/http/ambiguous-currency.test.ts covers the candidates
      const missing = await post(`${v}/assets/Hydration/asset-info`, {}).expect(400);
      expectErrorBody(missing.body, 400, 'MissingParameterError');
      expect(missing.body.details).toEqual([{ path: 'body.currency', message: 'is required' }]);
      const two = await post(`${v}/assets/Hydration/asset-info`, { currency: { symbol: 'DOT', id: 5 } }).expect(400);
      expectErrorBody(two.body, 400, 'InvalidCurrencyError');
      const all = await post(`${v}/assets/Hydration/asset-info`, { currency: { symbol: 'DOT', amount: 'ALL' } }).expect(400);
      expectErrorBody(all.body, 400, 'NumberFormatError');
      expect(all.body.details[0].path).toBe('body.currency.amount');
      const badDest = await post(`${v}/assets/Hydration/asset-info`, { currency: { symbol: 'DOT' }, destination: 'Mars' }).expect(400);
      expectErrorBody(badDest.body, 400, 'UnknownChainError');
    });

    it('POST /assets/:chain/location takes the string and JSON location forms', async () => {
      const res = await post(`${v}/assets/AssetHubPolkadot/location`, { currency: { id: 1984 } }).expect(200);
      expect(res.body).toEqual({ parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] } });
      const loc = JSON.stringify({ parents: 1, interior: { Here: null } });
      const fromString = await post(`${v}/assets/Hydration/asset-info`, { currency: { location: loc } }).expect(200);
      expect(fromString.body).toMatchObject({ symbol: 'DOT' });
      const bad = await post(`${v}/assets/Hydration/asset-info`, { currency: { location: 'not json' } }).expect(400);
      expectErrorBody(bad.body, 400, 'InvalidCurrencyError');
    });

    it('POST /assets/:chain/reserve-chain and supported-destinations', async () => {
      const reserve = await post(`${v}/assets/Hydration/reserve-chain`, { currency: { symbol: 'DOT' } }).expect(200);
      expect(reserve.body).toBe('AssetHubPolkadot');
      const usdt = await post(`${v}/assets/AssetHubPolkadot/reserve-chain`, { currency: { id: 1984 } }).expect(200);
      expect(usdt.body).toBe('AssetHubPolkadot');
      const dests = await post(`${v}/assets/Hydration/supported-destinations`, { currency: { symbol: 'DOT' } }).expect(200);
      expect(dests.body).toEqual(expect.arrayContaining(['AssetHubPolkadot', 'Polkadot', 'Moonbeam']));
      for (const path of ['reserve-chain', 'supported-destinations']) {
        const missing = await post(`${v}/assets/Hydration/${path}`, {}).expect(400);
        expectErrorBody(missing.body, 400, 'MissingParameterError');
        const unknown = await post(`${v}/assets/Hydration/${path}`, { currency: { symbol: 'NOPE' } }).expect(400);
        expectErrorBody(unknown.body, 400, 'InvalidCurrencyError');
      }
    });

    it('GET the per-chain asset lists', async () => {
      expect((await get(`${v}/assets/Moonbeam/relay-chain-symbol`).expect(200)).body).toBe('DOT');
      expect((await get(`${v}/assets/Karura/relay-chain-symbol`).expect(200)).body).toBe('KSM');
      const native = (await get(`${v}/assets/Hydration/native`).expect(200)).body;
      expect(native.map((a: { symbol: string }) => a.symbol)).toContain('HDX');
      const other = (await get(`${v}/assets/Hydration/other`).expect(200)).body;
      expect(other.map((a: { symbol: string }) => a.symbol)).toContain('DOT');
      const symbols = (await get(`${v}/assets/Hydration/all-symbols`).expect(200)).body;
      expect(symbols).toEqual(expect.arrayContaining(['HDX', 'DOT', 'USDT']));
      const fee = (await get(`${v}/assets/AssetHubPolkadot/fee-assets`).expect(200)).body;
      expect(fee.map((a: { symbol: string }) => a.symbol)).toContain('DOT');
    });

    it('GET /supported-assets lists assets both chains support', async () => {
      const res = await get(`${v}/supported-assets?origin=AssetHubPolkadot&destination=Hydration`).expect(200);
      expect(res.body.map((a: { symbol: string }) => a.symbol)).toEqual(expect.arrayContaining(['DOT', 'USDT', 'USDC']));
      const missing = await get(`${v}/supported-assets?origin=AssetHubPolkadot`).expect(400);
      expectErrorBody(missing.body, 400, 'MissingParameterError');
      expect(missing.body.details[0].path).toBe('query.destination');
    });

    it('POST /balance/:chain/existential-deposit', async () => {
      const res = await post(`${v}/balance/Hydration/existential-deposit`, { currency: { symbol: 'DOT' } }).expect(200);
      expect(res.body).toBe('17540000');
      const relay = await post(`${v}/balance/Polkadot/existential-deposit`, { currency: { symbol: 'DOT' } }).expect(200);
      expect(relay.body).toBe('10000000000');
      expectErrorBody((await post(`${v}/balance/Hydration/existential-deposit`, {}).expect(400)).body, 400, 'MissingParameterError');
      expectErrorBody((await post(`${v}/balance/Hydration/existential-deposit`, { currency: { symbol: 'NOPE' } }).expect(400)).body, 400, 'InvalidCurrencyError');
    });

    it('an unknown chain is a 400 that names the nearest chains', async () => {
      for (const path of ['/assets/Hydrayion', '/assets/Hydrayion/native', '/chains/Hydrayion/para-id', '/pallets/Hydrayion']) {
        const res = await get(`${v}${path}`).expect(400);
        expectErrorBody(res.body, 400, 'UnknownChainError');
        expect(res.body.message).toContain("'Hydration'");
      }
      const res = await post(`${v}/assets/Polkadott/asset-info`, { currency: { symbol: 'DOT' } }).expect(400);
      expect(res.body.message).toContain("'Polkadot'");
    });
  });

  describe('chains', () => {
    it('GET /chains lists every chain', async () => {
      const res = await get(`${v}/chains`).expect(200);
      expect(res.body).toEqual(expect.arrayContaining(['Polkadot', 'Kusama', 'AssetHubPolkadot', 'Hydration', 'Ethereum']));
      expect(res.body.length).toBeGreaterThan(60);
    });

    it('GET /chains/evm lists true EVM chains only', async () => {
      const res = await get(`${v}/chains/evm`).expect(200);
      expect(res.body).toEqual(expect.arrayContaining(['Moonbeam', 'Moonriver', 'Darwinia', 'Ethereum']));
      expect(res.body).not.toContain('Astar');
      expect(res.body).not.toContain('Acala');
    });

    it('GET /chains/:chain/para-id, ws-endpoints and has-dry-run-support', async () => {
      expect((await get(`${v}/chains/Hydration/para-id`).expect(200)).body).toBe(2034);
      expect((await get(`${v}/chains/AssetHubPolkadot/para-id`).expect(200)).body).toBe(1000);
      const ws = (await get(`${v}/chains/Hydration/ws-endpoints`).expect(200)).body;
      expect(ws.length).toBeGreaterThan(0);
      for (const url of ws) expect(url).toMatch(/^wss:\/\//);
      expect((await get(`${v}/chains/AssetHubPolkadot/has-dry-run-support`).expect(200)).body).toBe(true);
      expect((await get(`${v}/chains/Ethereum/has-dry-run-support`).expect(200)).body).toBe(false);
      expectErrorBody((await get(`${v}/chains/Ethereum/ws-endpoints`).expect(400)).body, 400, 'UnsupportedOperationError');
    });

    it('GET /chains/:paraId finds the chain in each ecosystem, 404 when none', async () => {
      expect((await get(`${v}/chains/2034?ecosystem=Polkadot`).expect(200)).body).toBe('Hydration');
      expect((await get(`${v}/chains/2034`).expect(200)).body).toBe('Hydration');
      expect((await get(`${v}/chains/1000?ecosystem=Kusama`).expect(200)).body).toBe('AssetHubKusama');
      expect((await get(`${v}/chains/1000?ecosystem=Westend`).expect(200)).body).toBe('AssetHubWestend');
      expect((await get(`${v}/chains/1000?ecosystem=Paseo`).expect(200)).body).toBe('AssetHubPaseo');
      expect((await get(`${v}/chains/1?ecosystem=Ethereum`).expect(200)).body).toBe('Ethereum');
      expectErrorBody((await get(`${v}/chains/99999?ecosystem=Polkadot`).expect(404)).body, 404, 'ChainNotFoundError');
      expectErrorBody((await get(`${v}/chains/2034?ecosystem=Rococo`).expect(400)).body, 400, 'ValidationError');
      expectErrorBody((await get(`${v}/chains/-1`).expect(400)).body, 400, 'ValidationError');
    });
  });

  describe('pallets', () => {
    it('GET /pallets/:chain and friends', async () => {
      expect((await get(`${v}/pallets/AssetHubPolkadot/default`).expect(200)).body).toBe('PolkadotXcm');
      expect((await get(`${v}/pallets/Polkadot/default`).expect(200)).body).toBe('XcmPallet');
      expect((await get(`${v}/pallets/Hydration`).expect(200)).body).toEqual(expect.arrayContaining(['PolkadotXcm', 'XTokens']));
      expect((await get(`${v}/pallets/Hydration/native-assets`).expect(200)).body).toBe('Balances');
      expect((await get(`${v}/pallets/Hydration/other-assets`).expect(200)).body).toEqual(['Currencies', 'Tokens']);
      expect((await get(`${v}/pallets/Hydration/index?pallet=PolkadotXcm`).expect(200)).body).toBe(107);
      expect((await get(`${v}/pallets/Hydration/index?pallet=XTransfer`).expect(200)).body).toBeNull();
    });

    it('a missing or unknown pallet is a 400; Ethereum has no pallets', async () => {
      expectErrorBody((await get(`${v}/pallets/Hydration/index`).expect(400)).body, 400, 'MissingParameterError');
      const bad = await get(`${v}/pallets/Hydration/index?pallet=Foo`).expect(400);
      expectErrorBody(bad.body, 400, 'InvalidPalletError');
      expect(bad.body.message).toContain('PolkadotXcm');
      expectErrorBody((await get(`${v}/pallets/Ethereum`).expect(400)).body, 400, 'UnsupportedOperationError');
    });
  });

  describe('SS58', () => {
    it('converts a Polkadot address for Kusama and back', async () => {
      const res = await get(`${v}/convert-ss58?address=${POLKADOT_ADDRESS}&chain=Kusama`).expect(200);
      expect(res.body).toBe(KUSAMA_ADDRESS);
      const back = await get(`${v}/convert-ss58?address=${KUSAMA_ADDRESS}&chain=Polkadot`).expect(200);
      expect(back.body).toBe(POLKADOT_ADDRESS);
    });

    it('a missing or malformed address is a 400', async () => {
      expectErrorBody((await get(`${v}/convert-ss58?chain=Kusama`).expect(400)).body, 400, 'MissingParameterError');
      expectErrorBody((await get(`${v}/convert-ss58?address=nonsense&chain=Kusama`).expect(400)).body, 400, 'InvalidAddressError');
      expectErrorBody((await get(`${v}/convert-ss58?address=${POLKADOT_ADDRESS}&chain=Moonbeam`).expect(400)).body, 400, 'InvalidAddressError');
      expectErrorBody((await get(`${v}/convert-ss58?address=${POLKADOT_ADDRESS}`).expect(400)).body, 400, 'MissingParameterError');
    });
  });

  it('removed endpoints answer 410 to every method, naming the replacement in the same family', async () => {
    for (const path of ['/assets/Hydration/id?symbol=DOT', '/assets/Hydration/decimals?symbol=DOT', '/assets/Hydration/has-support?symbol=DOT']) {
      for (const res of [await get(`${v}${path}`).expect(410), await post(`${v}${path}`, {}).expect(410)]) {
        expectErrorBody(res.body, 410, 'EndpointRemovedError');
        expect(res.body.message).toContain(`was removed; use POST ${v}/assets/:chain/asset-info and `);
      }
    }
    for (const res of [await post(`${v}/asset-claim`, {}).expect(410), await get(`${v}/asset-claim`).expect(410)]) {
      expectErrorBody(res.body, 410, 'EndpointRemovedError');
      expect(res.body.message).toBe(`POST ${v}/asset-claim was removed; there is no replacement: build the asset-claim call yourself`);
    }
    // Only the exact path is gone: below it is no route.
    expectErrorBody((await get(`${v}/assets/Hydration/id/more`).expect(404)).body, 404, 'RouteNotFoundError');
  });
});

describe('the HTTP envelope', () => {
  it('unknown routes are a JSON 404', async () => {
    const res = await get('/v5/no-such-thing').expect(404);
    expectErrorBody(res.body, 404, 'RouteNotFoundError');
    expect(res.body.message).toBe('No route GET /v5/no-such-thing; /docs lists them all');
    expectErrorBody((await get('/nowhere').expect(404)).body, 404);
  });

  it('malformed JSON is a 400, a non-JSON POST a 415, an oversized body a 413', async () => {
    const bad = await request(app).post('/v2/assets/Hydration/asset-info').set('Content-Type', 'application/json').send('{"currency":').expect(400);
    expectErrorBody(bad.body, 400, 'MalformedJsonError');
    const text = await request(app).post('/v2/assets/Hydration/asset-info').set('Content-Type', 'text/plain').send('hello').expect(415);
    expectErrorBody(text.body, 415, 'UnsupportedMediaTypeError');
    const big = await post('/v2/assets/Hydration/asset-info', { currency: { symbol: 'DOT' }, pad: 'x'.repeat(200_000) }).expect(413);
    expectErrorBody(big.body, 413, 'PayloadTooLargeError');
    expect(big.body.message).toBe('The body is larger than the service accepts: at most 102400 bytes'); // BODY_LIMIT 100kb
  });

  it('JSON is told by its media type, however spelt: the common spellings and the rest alike', async () => {
    const body = JSON.stringify({ currency: { symbol: 'DOT' } });
    const sent = (type: string) => request(app).post('/v5/assets/Hydration/asset-info').set('Content-Type', type).send(body);
    for (const type of ['application/json', 'APPLICATION/JSON', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'application/json ; charset=utf-8']) {
      expect((await sent(type)).status, type).toBe(200);
    }
    for (const type of ['application/jsonx', 'application/json-seq', 'text/json', 'text/plain; charset=utf-8']) {
      expectErrorBody((await sent(type).expect(415)).body, 415, 'UnsupportedMediaTypeError');
    }
  });

  it('an empty POST names the missing fields', async () => {
    const res = await request(app).post('/v2/assets/Hydration/asset-info').expect(400);
    expectErrorBody(res.body, 400, 'MissingParameterError');
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const res = await get('/v2/chains').set('X-Request-Id', 'abc-123').expect(200);
    expect(res.headers['x-request-id']).toBe('abc-123');
    const other = await get('/v2/chains').set('X-Request-Id', 'bad id with spaces').expect(200);
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /health and /ready', async () => {
    expect((await get('/health').expect(200)).body).toEqual({ status: 'ok' });
    expect((await get('/ready').expect(200)).body).toEqual({ status: 'ready' });
  });
});

describe('CORS, for browser wallets', () => {
  it('answers a preflight and marks every answer', async () => {
    const pre = await request(app)
      .options('/v5/x-transfer')
      .set('Origin', 'https://wallet.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type')
      .expect(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toContain('POST');
    expect(pre.headers['access-control-allow-headers']).toContain('Content-Type');
    const res = await get('/v2/chains').set('Origin', 'https://wallet.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('X-Request-Id');
  });

  it('uses the configured origin', async () => {
    const { app: strict, services } = testApp({ CORS_ORIGIN: 'https://wallet.example' });
    const res = await request(strict).get('/v2/chains').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://wallet.example');
    expect(res.headers.vary).toContain('Origin');
    await services.close();
  });
});
