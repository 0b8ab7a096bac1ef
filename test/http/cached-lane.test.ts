// Repeated registry lookups are answered by the server's request listener before it hands the
// request to Express (src/http/cached-lane.ts). What a client sees must not change: the same
// status, headers and bytes as the first (routed) answer, one log line and one metrics count per
// request, and bodies read as body-parser reads them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app';
import { cachedLane } from '../../src/http/cached-lane';
import { ChainRoutes, UnknownChainAnswers } from '../../src/http/chain-routes';
import { JsonBodies } from '../../src/http/json-body';
import { rateLimits } from '../../src/http/rate-limit';
import { ResponseCache } from '../../src/http/response-cache';
import { createOps } from '../../src/ops';
import { hashApiKey } from '../../src/ops/api-keys';
import { createServices } from '../../src/service';
import { expectErrorBody, testConfig } from '../helpers/app';
import { outsideTheDocument } from '../helpers/openapi-responses';

/** The real app, with its log lines captured. */
function loggedApp(overrides: Record<string, string> = {}) {
  const config = testConfig({ LOG_LEVEL: 'info', ...overrides });
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const app = createApp({ config, logger, services: createServices(config, logger) });
  return { app, requestLines: () => lines.filter((l) => l.msg === 'request') };
}

/** Headers a client can compare between two answers of the same request (ids and dates differ). */
function comparable(headers: Record<string, string>): Record<string, string> {
  const { 'x-request-id': _id, date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

const ASSET_INFO = '/v2/assets/Hydration/asset-info';

/** The lane in front of a small Express app (its routes set by `routes`) that records each request it reaches. */
function recordingLane(routes: (app: express.Express, parts: { cache: ResponseCache; bodies: JsonBodies; chainRoutes: ChainRoutes }) => void) {
  const config = testConfig();
  const logger = pino({ level: 'silent' });
  const ops = createOps(config, logger);
  const parts = { cache: new ResponseCache(), bodies: new JsonBodies(config.BODY_LIMIT), chainRoutes: new ChainRoutes() };
  const reached: string[] = [];
  const app = express();
  app.use((req, _res, next) => {
    reached.push(`${req.method} ${req.url}`);
    next();
  });
  routes(app, parts);
  const limits = rateLimits({ config, counters: ops.counters, metrics: ops.metrics, apiKeys: ops.apiKeys });
  const listener = cachedLane(app, { ...parts, limits, logger, metrics: ops.metrics, corsOrigin: '*' });
  return { listener, reached, close: () => ops.close() };
}

describe('the cached lane in front of an Express app', () => {
  it('a request that reached a cached answer is answered again without the app; every other request goes to the app', async () => {
    const { listener, reached, close } = recordingLane((app, { cache, bodies }) => {
      app.use(bodies.middleware);
      app.get('/item/:name', (req, res) => cache.send(req, res, `item:${req.params.name}`, () => ({ name: req.params.name })));
      app.post('/item', (req, res) => cache.send(req, res, `item:${JSON.stringify(req.body)}`, () => req.body));
      app.get('/live', (_req, res) => res.json({ live: true }));
    });
    const send = (test: request.Test) => outsideTheDocument(test).expect(200);

    for (let i = 0; i < 3; i++) {
      expect((await send(request(listener).get('/item/a'))).body).toEqual({ name: 'a' });
      expect((await send(request(listener).post('/item').send({ name: 'b' }))).body).toEqual({ name: 'b' });
      await send(request(listener).get('/live'));
    }
    await send(request(listener).post('/item').send({ name: 'c' }));
    expect(reached).toEqual(['GET /item/a', 'POST /item', 'GET /live', 'GET /live', 'GET /live', 'POST /item']);
    await close();
  });
});

describe('repeated lookups answered before routing', () => {
  it.each([
    ['GET /v2/chains', (app: ReturnType<typeof createApp>) => request(app).get('/v2/chains')],
    ['GET /v5/assets/AssetHubPolkadot, gzip', (app: ReturnType<typeof createApp>) => request(app).get('/v5/assets/AssetHubPolkadot').set('Accept-Encoding', 'gzip')],
    ['GET /v2/assets/AssetHubPolkadot, br', (app: ReturnType<typeof createApp>) => request(app).get('/v2/assets/AssetHubPolkadot').set('Accept-Encoding', 'br')],
    ['POST asset-info', (app: ReturnType<typeof createApp>) => request(app).post(ASSET_INFO).send({ currency: { symbol: 'DOT' } })],
  ])('%s: the second answer has the first one\'s status, headers and bytes', async (_name, send) => {
    const { app } = loggedApp();
    const first = await send(app).buffer(true);
    const second = await send(app).buffer(true);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(comparable(second.headers)).toEqual(comparable(first.headers));
    expect(second.body).toEqual(first.body);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('with a configured CORS origin, the second answer carries it and varies by Origin and Accept-Encoding, as the first', async () => {
    const { app } = loggedApp({ CORS_ORIGIN: 'https://wallet.example' });
    const first = await request(app).get('/v2/chains').expect(200);
    const second = await request(app).get('/v2/chains').expect(200);
    expect(second.headers['access-control-allow-origin']).toBe('https://wallet.example');
    expect(second.headers.vary).toBe('Origin, Accept-Encoding');
    expect(comparable(second.headers)).toEqual(comparable(first.headers));
  });

  it('HEAD and If-None-Match are answered as on the routed path: no body, and 304 for the ETag sent', async () => {
    const { app } = loggedApp();
    const first = await request(app).get('/v2/chains').expect(200);
    const head = await request(app).head('/v2/chains').expect(200);
    expect(head.text).toBeFalsy();
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    const notModified = await request(app).get('/v2/chains').set('If-None-Match', first.headers.etag).expect(304);
    expect(notModified.headers.etag).toBe(first.headers.etag);
    expect(notModified.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('each request, routed or not, logs one line with its id, and counts once under its route template', async () => {
    const { app, requestLines } = loggedApp();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await request(app).get('/v2/chains').expect(200)).headers['x-request-id']);
    const own = await request(app).get('/v2/chains').set('X-Request-Id', 'wallet-42').expect(200);
    expect(own.headers['x-request-id']).toBe('wallet-42');
    expect(requestLines().map((l) => [l.reqId, l.method, l.path, l.status])).toEqual(
      [...ids, 'wallet-42'].map((id) => [id, 'GET', '/v2/chains', 200]),
    );
    const metrics = (await request(app).get('/metrics').expect(200)).text;
    expect(metrics).toContain('xcm_gateway_http_requests_total{route="/v2/chains",method="GET",status="200"} 4');
  });

  it('a POST to a known URL with another body, a broken body or no body is answered as on the routed path', async () => {
    const { app } = loggedApp();
    const { app: fresh } = loggedApp();
    await request(app).post(ASSET_INFO).send({ currency: { symbol: 'DOT' } }).expect(200);
    const other = await request(app).post(ASSET_INFO).send({ currency: { symbol: 'HDX' } }).expect(200);
    expect(other.body.symbol).toBe('HDX');
    const broken = (to: typeof app) => request(to).post(ASSET_INFO).set('Content-Type', 'application/json').send('{"currency":');
    const known = await broken(app).expect(400);
    expectErrorBody(known.body, 400, 'MalformedJsonError');
    expect(known.body.message).toBe((await broken(fresh)).body.message);
    const empty = (to: typeof app) => request(to).post(ASSET_INFO).set('Content-Type', 'application/json').set('Content-Length', '0');
    const emptyKnown = await empty(app).expect(400);
    expectErrorBody(emptyKnown.body, 400, 'MissingParameterError');
    expect(emptyKnown.body.details).toEqual((await empty(fresh)).body.details);
  });

  it('JSON bodies are read as body-parser reads them: a byte-order mark, a UTF-8 charset, the body limit', async () => {
    const { app } = loggedApp({ BODY_LIMIT: '1kb' });
    for (let i = 0; i < 2; i++) {
      const bom = await request(app).post(ASSET_INFO).set('Content-Type', 'application/json').send(`\uFEFF${JSON.stringify({ currency: { symbol: 'DOT' } })}`);
      expect(bom.status).toBe(200);
      expect(bom.body.symbol).toBe('DOT');
      const charset = await request(app).post(ASSET_INFO).set('Content-Type', 'application/json; charset=UTF-8').send(JSON.stringify({ currency: { symbol: 'DOT' } }));
      expect(charset.status).toBe(200);
    }
    const large = await request(app)
      .post(ASSET_INFO)
      .send({ currency: { symbol: 'DOT' }, pad: 'x'.repeat(2_000) })
      .expect(413);
    expectErrorBody(large.body, 413, 'PayloadTooLargeError');
  });

  it('while a rate limit applies, repeated lookups are counted in the same window, with the RateLimit headers of the routed path', async () => {
    const { app } = loggedApp({ RATE_LIMIT_PER_MINUTE: '3' });
    const first = await request(app).get('/v2/chains').expect(200);
    const second = await request(app).get('/v2/chains').expect(200);
    const post = await request(app).post(ASSET_INFO).send({ currency: { symbol: 'DOT' } }).expect(200);
    expect([first, second, post].map((r) => r.headers['ratelimit'])).toEqual([
      expect.stringMatching(/^"all"; r=2; t=\d+$/),
      expect.stringMatching(/^"all"; r=1; t=\d+$/),
      expect.stringMatching(/^"all"; r=0; t=\d+$/),
    ]);
    expect(second.headers['ratelimit-policy']).toBe(first.headers['ratelimit-policy']);
    expect(first.headers['ratelimit-policy']).toMatch(/^"all"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/);
    const { ratelimit: _a, ...firstRest } = comparable(first.headers);
    const { ratelimit: _b, ...secondRest } = comparable(second.headers);
    expect(secondRest).toEqual(firstRest);
    const limited = await request(app).get('/v2/chains').expect(429);
    expectErrorBody(limited.body, 429, 'RateLimitExceededError');
    // Refused requests are counted once: the routed path, not the lane, answered the 429.
    expect(limited.headers['ratelimit']).toMatch(/^"all"; r=0; t=\d+$/);
  });

  it('behind a trusted proxy, each forwarded client has its own window on both paths', async () => {
    const { app } = loggedApp({ RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: 'loopback' });
    const from = (client: string) => request(app).get('/v2/chains').set('X-Forwarded-For', client);
    await from('203.0.113.5').expect(200);
    await from('203.0.113.5').expect(429);
    await from('203.0.113.6').expect(200);
    await from('203.0.113.6').expect(429);
  });

  it('an API key is checked by the routed path (401 for an unknown one), and a known key counts against its own limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lane-keys-'));
    const file = join(dir, 'keys.json');
    writeFileSync(file, JSON.stringify([{ name: 'wallet-backend', sha256: hashApiKey('s3cret-key'), perMinute: 3, chainPerMinute: 0 }]));
    const { app } = loggedApp({ RATE_LIMIT_PER_MINUTE: '2', API_KEYS_FILE: file });
    await request(app).get('/v2/chains').expect(200);
    expectErrorBody((await request(app).get('/v2/chains').set('X-API-Key', 'wrong').expect(401)).body, 401, 'InvalidApiKeyError');
    const keyed = await request(app).get('/v2/chains').set('X-API-Key', 's3cret-key').expect(200);
    expect(keyed.headers['ratelimit-policy']).toMatch(/^"all"; q=3; /);
    await request(app).get('/v2/chains').set('X-API-Key', 's3cret-key').expect(200);
    await request(app).get('/v2/chains').set('X-API-Key', 's3cret-key').expect(200);
    await request(app).get('/v2/chains').set('X-API-Key', 's3cret-key').expect(429);
    // The anonymous client (the same address) has its own window: one of its two requests left.
    expect((await request(app).get('/v2/chains').expect(200)).headers['ratelimit']).toMatch(/^"all"; r=0; /);
  });
});

describe('an unknown chain in a chain route\'s path, answered before routing', () => {
  it('is answered without the app, from a body made once per name; other chains and routes go to the app', async () => {
    const { listener, reached, close } = recordingLane((app, { chainRoutes }) => {
      const router = express.Router();
      chainRoutes.route(router, 'v5', 'get', '/item/:chain', (_req, res, chain) => res.json({ chain }));
      router.get('/other/:chain', (req, res) => res.json({ other: req.params.chain }));
      app.use('/v5', router);
      app.use((_req, res) => res.status(400).json({ routed: true }));
    });

    // Each twice: a repeated request line is answered from what its first answer found.
    for (const path of ['/v5/item/Atlantis', '/V5/ITEM/Atlantis/', '/v5/item/Atlantis?x=1', '/v5/item/Atl%61ntis'].flatMap((p) => [p, p])) {
      const res = await outsideTheDocument(request(listener).get(path)).expect(400);
      expectErrorBody(res.body, 400, 'UnknownChainError');
      expect(res.body.message).toContain("unknown chain 'Atlantis'");
    }
    expect((await outsideTheDocument(request(listener).get('/v5/item/Polkadot')).expect(200)).body).toEqual({ chain: 'Polkadot' });
    await outsideTheDocument(request(listener).get('/v5/other/Atlantis')).expect(200);
    // Express answers what it cannot decode, and a GET that carries a body (it would be read first).
    await outsideTheDocument(request(listener).get('/v5/item/%ZZ')).expect(400);
    await outsideTheDocument(request(listener).get('/v5/item/Atlantis').set('Content-Length', '0')).expect(400);
    expect(reached).toEqual(['GET /v5/item/Polkadot', 'GET /v5/other/Atlantis', 'GET /v5/item/%ZZ', 'GET /v5/item/Atlantis']);
    await close();
  });

  it.each([
    ['GET /v5/assets/Atlantis', '/v5/assets/Atlantis'],
    ['GET /v2/chains/Atlantis/para-id', '/v2/chains/Atlantis/para-id'],
    ['GET /v5/pallets/Atlantis/index without its query', '/v5/pallets/Atlantis/index'],
    // The document spells paths in lower case: its check is left out.
    ['GET /V5/Assets/Polkadott/native/ (the family in capitals: the message names no family)', '/V5/Assets/Polkadott/native/'],
  ])('%s: the status, headers and bytes of the routed answer', async (_name, path) => {
    const { app } = loggedApp({ CORS_ORIGIN: 'https://wallet.example', RATE_LIMIT_PER_MINUTE: '100' });
    const send = (test: request.Test) => (path.startsWith('/V5') ? outsideTheDocument(test) : test).expect(400);
    const lane = await send(request(app).get(path));
    // A GET with a body is left to the routed path, which answers the same.
    const routed = await send(request(app).get(path).set('Content-Length', '0'));
    expectErrorBody(lane.body, 400, 'UnknownChainError');
    const { ratelimit: laneCount, ...laneHeaders } = comparable(lane.headers);
    const { ratelimit: routedCount, ...routedHeaders } = comparable(routed.headers);
    expect(laneHeaders).toEqual(routedHeaders);
    expect([laneCount, routedCount]).toEqual([expect.stringMatching(/^"all"; r=99; /), expect.stringMatching(/^"all"; r=98; /)]);
    expect({ ...lane.body, requestId: 'id' }).toEqual({ ...routed.body, requestId: 'id' });
    expect(lane.body.requestId).toBe(lane.headers['x-request-id']);
    const head = await send(request(app).head(path));
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify({ ...lane.body, requestId: head.headers['x-request-id'] }))));
  });

  it('a POST to a chain route: the same answer as routed once its body is read; a body that cannot be read is answered as routed', async () => {
    const { app } = loggedApp();
    for (const path of ['/v2/assets/Atlantis/asset-info', '/v5/balance/Atlantis', '/v5/balance/Atlantis/existential-deposit']) {
      const lane = await request(app).post(path).send({ currency: { symbol: 'DOT' } }).expect(400);
      // A body with a Content-Encoding is left to body-parser and the routed path.
      const routed = await request(app).post(path).set('Content-Encoding', 'identity').send({ currency: { symbol: 'DOT' } }).expect(400);
      expectErrorBody(lane.body, 400, 'UnknownChainError');
      expect(comparable(lane.headers)).toEqual(comparable(routed.headers));
      expect({ ...lane.body, requestId: 'id' }).toEqual({ ...routed.body, requestId: 'id' });
      expectErrorBody((await request(app).post(path).set('Content-Type', 'application/json').send('{"currency":').expect(400)).body, 400, 'MalformedJsonError');
    }
  });

  it('is logged and counted once per request under its route template, with the client\'s request id', async () => {
    const { app, requestLines } = loggedApp();
    await request(app).get('/v5/assets/Atlantis').set('X-Request-Id', 'wallet-7').expect(400);
    await request(app).get('/v5/assets/Atlantis').expect(400);
    const own = await request(app).get('/v5/assets/Atlantis/native').set('X-Request-Id', 'wallet-8').expect(400);
    expect(own.body.requestId).toBe('wallet-8');
    expect(requestLines().map((l) => [l.method, l.path, l.status])).toEqual([
      ['GET', '/v5/assets/Atlantis', 400],
      ['GET', '/v5/assets/Atlantis', 400],
      ['GET', '/v5/assets/Atlantis/native', 400],
    ]);
    expect(requestLines()[0].reqId).toBe('wallet-7');
    const metrics = (await request(app).get('/metrics').expect(200)).text;
    expect(metrics).toContain('xcm_gateway_http_requests_total{route="/v5/assets/:chain",method="GET",status="400"} 2');
    expect(metrics).toContain('xcm_gateway_http_requests_total{route="/v5/assets/:chain/native",method="GET",status="400"} 1');
  });

  it('a name asked in each family and in a family spelt otherwise is told in each one\'s terms', async () => {
    const { app } = loggedApp();
    const messages: string[] = [];
    for (const path of ['/v5/assets/Atlantis', '/v2/assets/Atlantis', '/V5/assets/Atlantis', '/v5/assets/Atlantis']) {
      messages.push((await outsideTheDocument(request(app).get(path)).expect(400)).body.message);
    }
    expect(messages.map((m) => /\(GET (\S+) lists them all\)/.exec(m)?.[1])).toEqual(['/v5/chains', '/v2/chains', '/chains', '/v5/chains']);
  });

  it('a removed endpoint with a chain in its path is still answered 410 by its route', async () => {
    const { app } = loggedApp();
    expectErrorBody((await request(app).get('/v5/assets/Atlantis/decimals').expect(410)).body, 410, 'EndpointRemovedError');
  });
});

describe('unknown-chain answers held', () => {
  it('holds at most its bound of names, the least recently asked out first, and answers every name alike held or not', () => {
    const answers = new UnknownChainAnswers(undefined, 3);
    const fresh = (name: string) => new UnknownChainAnswers(undefined, 3).answer('v5', name);
    const names = Array.from({ length: 10 }, (_, i) => `Atlantis${i}`);
    for (const name of names) expect(answers.answer('v5', name)).toEqual(fresh(name));
    expect(answers.size).toBe(3);
    expect(answers.answer('v5', names[0])).toEqual(fresh(names[0]));
    expect(answers.size).toBe(3);
    // Names longer than any chain's are answered without being held; a known chain has no answer.
    const long = 'x'.repeat(10_000);
    expect(answers.answer('v5', long)?.head).toContain('(10000 characters)');
    expect(answers.answer('v5', 'Polkadot')).toBeUndefined();
    expect(answers.size).toBe(3);
  });
});
