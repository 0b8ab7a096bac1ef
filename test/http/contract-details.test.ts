// Smaller places where the service answered differently from the contract: a malformed swap
// currency, balances on Ethereum, a Location destination in pre-flight, an empty path segment.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TChain, TLocation } from '@paraspell/sdk-pjs';
import { sdk } from '../../src/sdk';
import { chainOfLocation } from '../../src/schemas/location-chain';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { refusedUrl } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const EVM = '0x1501C1413e4178c38567Ada8945A80351F7B8496';

const { app, services } = testApp({ CONNECT_TIMEOUT_MS: '2000' });
afterAll(() => services.close());

describe.each(FAMILIES)('/%s POST /x-transfers with a malformed currency', (family) => {
  const [recipient, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
  const body = (currency: unknown) => ({
    from: 'Polkadot',
    to: 'Astar',
    currency,
    [recipient]: ALICE,
    [sender]: BOB,
    swapOptions: { currencyTo: { symbol: 'ASTR' }, exchange: 'HydrationDex' },
  });

  it.each([
    ['two selectors', { symbol: 'DOT', id: 1, amount: '1' }],
    ['no selector', { amount: '1' }],
    ['an empty symbol', { symbol: '', amount: '1' }],
    ['a location that is not one', { location: 'garbage', amount: '1' }],
    ['an Override location', { location: 'Override({"parents":1,"interior":"Here"})', amount: '1' }],
    ['a symbol specifier', { symbol: { type: 'Foreign' }, amount: '1' }],
    ['a specifier in place of the currency', { type: 'Foreign', amount: '1' }],
    ['an Override location object', { location: { type: 'Override', value: 'x' }, amount: '1' }],
    ['a bare symbol', 'DOT'],
    ['an array', [{ symbol: 'DOT', amount: '1' }]],
  ])('%s is a 400 InvalidCurrencyError, not a 500', async (_name, currency) => {
    const res = await request(app).post(`/${family}/x-transfers`).send(body(currency));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expectErrorBody(res.body, 400, 'InvalidCurrencyError');
    expect(res.body.details[0].path).toMatch(/^body\.currency/);
  });
});

describe('POST /balance/Ethereum', () => {
  let rpc: http.Server;
  let rpcUrl: string;
  const methods: string[] = [];
  beforeAll(async () => {
    // A JSON-RPC node on 127.0.0.1 that knows one account: 100 wei of ETH, 7 units of any ERC-20.
    rpc = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const { id, method } = JSON.parse(text) as { id: number; method: string };
        methods.push(method);
        const result = method === 'eth_getBalance' ? '0x64' : `0x${'7'.padStart(64, '0')}`;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
    rpcUrl = `http://127.0.0.1:${(rpc.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => rpc.close(() => resolve())));

  it('development mode without an Ethereum override is a 400 naming it: no public RPC is dialled', async () => {
    for (const [family, account] of [['v5', 'address'], ['v2', 'recipient']] as const) {
      const res = await request(app)
        .post(`/${family}/balance/Ethereum`)
        .send({ [account]: EVM, ...(family === 'v2' ? { currency: { symbol: 'ETH' } } : {}), options: { development: true } })
        .expect(400);
      expectErrorBody(res.body, 400, 'MissingChainApiError');
      expect(res.body.message).toContain('Ethereum');
    }
  });

  it('an unreachable Ethereum RPC is a 503 naming the chain and the endpoint', async () => {
    const down = (await refusedUrl()).replace('ws://', 'http://');
    const res = await request(app).post('/v5/balance/Ethereum').send({ address: EVM, options: { development: true, apiOverrides: { Ethereum: down } } }).expect(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('Ethereum');
    expect(res.body.message).toContain(down);
  });

  it('reads ETH and ERC-20 balances from the override', async () => {
    methods.length = 0;
    const options = { development: true, apiOverrides: { Ethereum: rpcUrl } };
    expect((await request(app).post('/v5/balance/Ethereum').send({ address: EVM, options }).expect(200)).body).toBe('100');
    expect((await request(app).post('/v2/balance/Ethereum').send({ recipient: EVM, currency: { symbol: 'USDC' }, options }).expect(200)).body).toBe('7');
    expect(methods).toEqual(['eth_getBalance', 'eth_call']);
  });

  /** A node on 127.0.0.1 that answers every request with `answer`; it counts what it is asked. */
  async function node(answer: (res: http.ServerResponse) => void): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
    let asked = 0;
    const server = http.createServer((req, res) => {
      asked++;
      req.resume();
      req.on('end', () => answer(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, asked: () => asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('a redirect is not followed: the endpoint is unavailable (503) and the target is never asked', async () => {
    const target = await node((res) => res.end('{"jsonrpc":"2.0","id":1,"result":"0x1"}'));
    const redirecting = await node((res) => res.writeHead(307, { location: target.url }).end());
    const res = await request(app).post('/v5/balance/Ethereum').send({ address: EVM, options: { development: true, apiOverrides: { Ethereum: redirecting.url } } }).expect(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('HTTP 307');
    expect(target.asked()).toBe(0);
    await Promise.all([target.close(), redirecting.close()]);
  });

  it('an answer larger than CHAIN_MAX_FRAME_BYTES is not read to its end: 503, then the next endpoint answers', async () => {
    const { app: capped, services: cappedServices } = testApp({ CHAIN_MAX_FRAME_BYTES: '65536' });
    const huge = await node((res) => res.setHeader('content-type', 'application/json').end(`{"jsonrpc":"2.0","id":1,"result":"0x${'1'.repeat(200_000)}"}`));
    const send = (endpoints: string[]) => request(capped).post('/v5/balance/Ethereum').send({ address: EVM, options: { development: true, apiOverrides: { Ethereum: endpoints } } });
    const alone = await send([huge.url]).expect(503);
    expect(alone.body.message).toContain('larger than 65536 bytes');
    expect((await send([huge.url, rpcUrl]).expect(200)).body).toBe('100');
    await Promise.all([huge.close(), cappedServices.close()]);
  });

  it('refuses a Substrate address and a WebSocket URL for Ethereum', async () => {
    const options = { development: true, apiOverrides: { Ethereum: rpcUrl } };
    expectErrorBody((await request(app).post('/v5/balance/Ethereum').send({ address: ALICE, options }).expect(400)).body, 400, 'InvalidAddressError');
    const ws = await request(app).post('/v5/balance/Ethereum').send({ address: EVM, options: { apiOverrides: { Ethereum: 'ws://127.0.0.1:1' } } }).expect(400);
    expect(ws.body.details[0].path).toBe('body.options.apiOverrides.Ethereum');
  });
});

describe('pre-flight with a Location as `to`', () => {
  it('a Location names the chain it points at, seen from the origin', () => {
    const sibling = (paraId: number): TLocation => ({ parents: 1, interior: { X1: [{ Parachain: paraId }] } }) as TLocation;
    expect(chainOfLocation('AssetHubPolkadot', sibling(sdk.getParaId('Hydration')))).toBe('Hydration');
    expect(chainOfLocation('Hydration', { parents: 1, interior: 'Here' } as TLocation)).toBe('Polkadot');
    expect(chainOfLocation('Kusama', { parents: 0, interior: { x1: [{ parachain: 1000 }] } } as unknown as TLocation)).toBe('AssetHubKusama');
    expect(chainOfLocation('AssetHubPolkadot', { parents: 2, interior: 'Here' } as TLocation)).toBeUndefined();
    expect(chainOfLocation('AssetHubPolkadot', { parents: 1, interior: { X2: [{ Parachain: 2034 }, { PalletInstance: 50 }] } } as TLocation)).toBeUndefined();
  });

  for (const family of FAMILIES) {
    it(`${family}: a chain's Location is priced as that chain; any other is a 400 saying why`, async () => {
      const [recipient, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
      const down = await refusedUrl();
      const body = (to: unknown) => ({
        from: 'AssetHubPolkadot',
        to,
        currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' },
        [recipient]: ALICE,
        [sender]: BOB,
        options: { abstractDecimals: false, development: true, apiOverrides: { AssetHubPolkadot: down, Hydration: down, Polkadot: down } },
      });
      for (const endpoint of ['dry-run', 'xcm-fee', 'origin-xcm-fee', 'transfer-info', 'receivable-amount']) {
        const byName = await request(app).post(`/${family}/${endpoint}`).send(body('Hydration'));
        const byLocation = await request(app).post(`/${family}/${endpoint}`).send(body({ parents: 1, interior: { X1: [{ Parachain: 2034 }] } }));
        // Both got past every check and dialled the (refusing) origin.
        expect([byLocation.status, byLocation.body.kind], endpoint).toEqual([byName.status, byName.body.kind]);
        expect(byLocation.status, endpoint).toBe(503);
        const nowhere = await request(app).post(`/${family}/${endpoint}`).send(body({ parents: 1, interior: { X1: [{ AccountKey20: { key: EVM } }] } })).expect(400);
        expectErrorBody(nowhere.body, 400, 'UnsupportedOperationError');
        expect(nowhere.body.message).toContain('names no chain');
      }
    });
  }
});

describe('an empty path segment where a parameter goes', () => {
  it.each(['/v5/pallets//default', '/v2/pallets//index?pallet=XcmPallet', '/v2/assets//native', '/v5/chains//para-id'])('%s is a 400 naming the parameter', async (path) => {
    const res = await request(app).get(path).expect(400);
    expectErrorBody(res.body, 400, 'MissingParameterError');
    expect(res.body.details[0].path).toBe('params.chain');
  });

  it('POST routes too, and a path that matches no route stays a 404', async () => {
    const res = await request(app).post('/v2/balance//asset').send({ recipient: ALICE, currency: { symbol: 'DOT' } }).expect(400);
    expect(res.body.details[0].path).toBe('params.chain');
    expectErrorBody((await request(app).get('/v5/nowhere//default').expect(404)).body, 404, 'RouteNotFoundError');
  });
});

it('the chain behind each Location is the registry chain with that para id', () => {
  for (const chain of ['Hydration', 'Astar', 'BifrostPolkadot'] as TChain[]) {
    expect(chainOfLocation('AssetHubPolkadot', { parents: 1, interior: { X1: [{ Parachain: sdk.getParaId(chain) }] } } as TLocation)).toBe(chain);
  }
});
