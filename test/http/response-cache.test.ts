import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app';
import { ResponseCache } from '../../src/http/response-cache';
import { createServices } from '../../src/service';
import { expectErrorBody, testConfig } from '../helpers/app';
import { outsideTheDocument } from '../helpers/openapi-responses';

/** Requests to a bare test app: not the service, so not checked against openapi.yaml. */
const bare = (app: express.Express) => ({ get: (path: string) => outsideTheDocument(request(app).get(path)) });

/** A cache behind one route whose key and answer grow with the request. */
function cachedApp(maxBytes: number) {
  const cache = new ResponseCache(maxBytes);
  const app = express();
  app.use(cache.answerKnown);
  app.get('/item/:name', (req, res) => cache.send(req, res, `item:${req.params.name}`, () => ({ name: req.params.name, pad: 'x'.repeat(2_000) })));
  return { app, cache };
}

describe('ResponseCache bounds', () => {
  it('many distinct misses do not grow it past its byte bound; recent answers stay', async () => {
    const bound = 64 * 1024;
    const { app, cache } = cachedApp(bound);
    for (let i = 0; i < 300; i++) {
      const res = await bare(app).get(`/item/n${i}`).set('Accept-Encoding', i % 2 ? 'gzip' : 'br').expect(200);
      expect(res.body.name).toBe(`n${i}`);
      expect(cache.bytes).toBeLessThanOrEqual(bound);
    }
    expect(cache.size).toBeGreaterThan(10);
    expect(cache.size).toBeLessThan(300);
    // The most recent answer is still held (and still right); the first was evicted and is recomputed.
    const before = cache.size;
    expect((await bare(app).get('/item/n299').expect(200)).body.name).toBe('n299');
    expect(cache.size).toBe(before);
    expect((await bare(app).get('/item/n0').expect(200)).body.name).toBe('n0');
    expect(cache.bytes).toBeLessThanOrEqual(bound);
  });

  it('evicts the least recently used answer, not the least recently stored', async () => {
    // Answers of about 20 kB: four fit in the bound, a fifth evicts one.
    const cache = new ResponseCache(4 * 20_500);
    const computed: string[] = [];
    const app = express();
    app.get('/item/:name', (req, res) =>
      cache.send(req, res, `item:${req.params.name}`, () => {
        computed.push(req.params.name);
        return { pad: 'x'.repeat(20_000) };
      }),
    );
    for (const name of ['a', 'b', 'c', 'a', 'd', 'e']) await bare(app).get(`/item/${name}`).expect(200);
    // `a` was stored first but used again after `b`: `b` went.
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e']);
    await bare(app).get('/item/a').expect(200);
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e']);
    await bare(app).get('/item/b').expect(200);
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e', 'b']);
  });

  it('a request answered before routing carries the route that answers it, as a routed one does', async () => {
    const { app: inner } = cachedApp(64 * 1024);
    const routes: unknown[] = [];
    const app = express();
    app.use((req, res, next) => {
      res.on('finish', () => routes.push((req.route as { path?: string } | undefined)?.path));
      next();
    });
    app.use('/api', inner);
    await bare(app).get('/api/item/a').expect(200);
    await bare(app).get('/api/item/a').expect(200);
    expect(routes).toEqual(['/item/:name', '/api/item/:name']);
  });

  it('an answer larger than the whole bound is served but not kept', async () => {
    const { app, cache } = cachedApp(1_000);
    expect((await bare(app).get('/item/big').expect(200)).body.pad).toHaveLength(2_000);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('long keys are kept as their hash, not in full', async () => {
    const { app, cache } = cachedApp(64 * 1024 * 1024);
    const name = 'y'.repeat(8_000);
    await bare(app).get(`/item/${name}`).expect(200);
    const held = cache.bytes;
    // The answer carries the name once; a key and a remembered request line in full would add it twice more.
    expect(held).toBeLessThan(2_000 + name.length + 1_000);
    // A second long key differing only at its end is a different entry.
    const other = `${name.slice(0, -1)}z`;
    expect((await bare(app).get(`/item/${other}`).expect(200)).body.name).toBe(other);
    expect((await bare(app).get(`/item/${name}`).expect(200)).body.name).toBe(name);
    expect(cache.size).toBe(2);
  });
});

describe('cached answers before routing', () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const config = testConfig({ LOG_LEVEL: 'info', CORS_ORIGIN: 'https://wallet.example' });
  const logger = pino({ level: 'info' }, sink);
  const services = createServices(config, logger);
  const app = createApp({ config, logger, services });
  afterAll(() => services.close());

  const asset = { currency: { symbol: 'DOT' } };

  it('a repeated GET or POST gets the same bytes and headers, its own request id and one log line', async () => {
    for (const send of [() => request(app).get('/v2/chains'), () => request(app).post('/v2/assets/Hydration/asset-info').send(asset)]) {
      lines.length = 0;
      const first = await send().expect(200);
      const second = await send().set('X-Request-Id', 'again-1').expect(200);
      expect(second.text).toBe(first.text);
      for (const name of ['etag', 'cache-control', 'content-type', 'access-control-allow-origin', 'access-control-expose-headers', 'vary']) {
        expect(second.headers[name], name).toBe(first.headers[name]);
      }
      expect(second.headers.vary).toContain('Origin');
      expect(second.headers['x-request-id']).toBe('again-1');
      expect(first.headers['x-request-id']).not.toBe('again-1');
      await new Promise((r) => setImmediate(r));
      const logged = lines.filter((l) => l.msg === 'request');
      expect(logged).toHaveLength(2);
      expect(logged[1]).toMatchObject({ reqId: 'again-1', status: 200 });
      await send().set('If-None-Match', String(first.headers.etag)).expect(304);
    }
  });

  it('a remembered POST line still checks Content-Type, and other bodies still go through validation', async () => {
    await request(app).post('/v5/assets/Hydration/asset-info').send(asset).expect(200);
    await request(app).post('/v5/assets/Hydration/asset-info').send(asset).expect(200);
    const text = await request(app).post('/v5/assets/Hydration/asset-info').set('Content-Type', 'text/plain').send(JSON.stringify(asset)).expect(415);
    expectErrorBody(text.body, 415, 'UnsupportedMediaTypeError');
    const bad = await request(app).post('/v5/assets/Hydration/asset-info').send({ currency: { symbol: 'DOT', id: 5 } }).expect(400);
    expectErrorBody(bad.body, 400, 'InvalidCurrencyError');
    const other = await request(app).post('/v5/assets/Hydration/asset-info').send({ currency: { symbol: 'HDX' } }).expect(200);
    expect(other.body).toMatchObject({ symbol: 'HDX' });
  });

  it('HEAD of a remembered GET has the headers and no body', async () => {
    const get = await request(app).get('/v2/assets/Hydration').set('Accept-Encoding', 'gzip').expect(200);
    const head = await request(app).head('/v2/assets/Hydration').set('Accept-Encoding', 'gzip').expect(200);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.text ?? '').toBe('');
  });
});
