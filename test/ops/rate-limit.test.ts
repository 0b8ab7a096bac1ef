import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { dialsChains } from '../../src/http/rate-limit';
import { hashApiKey } from '../../src/ops/api-keys';
import { expectErrorBody, testApp } from '../helpers/app';
import { outsideTheDocument } from '../helpers/openapi-responses';

const limited = (overrides: Record<string, string> = {}) =>
  testApp({ RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_CHAIN_PER_MINUTE: '2', ...overrides }).app;

/** A chain-dialling operation that fails validation before any chain is reached. */
const badTransfer = (app: ReturnType<typeof limited>) =>
  request(app).post('/v5/x-transfer').set('content-type', 'application/json').send({ from: 'Polkadot' });

describe('rate limits', () => {
  it('refuses the request over the limit with a 429 in the error model, Retry-After and RateLimit headers', async () => {
    const app = limited();
    for (let i = 0; i < 5; i++) {
      const ok = await request(app).get('/v2/chains').expect(200);
      expect(ok.headers.ratelimit).toMatch(new RegExp(`^"all"; r=${4 - i}; t=\\d+$`));
      expect(ok.headers['ratelimit-policy']).toMatch(/^"all"; q=5; w=60; pk=:[^:]+:$/);
    }
    const res = await request(app).get('/v2/chains').expect(429);
    expectErrorBody(res.body, 429, 'RateLimitExceededError');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.body.message).toMatch(/5 total requests per minute; retry in \d+ s/);
    expect(res.headers.ratelimit).toMatch(/^"all"; r=0; t=\d+$/);
  });

  it('gives chain-dialling operations the lower limit, registry lookups only the overall one', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '50' });
    for (let i = 0; i < 2; i++) {
      const res = await badTransfer(app).expect(400);
      expect(res.headers.ratelimit).toContain('"chain"; r=');
    }
    const over = await badTransfer(app).expect(429);
    expect(over.body.message).toMatch(/2 chain-dialling requests per minute/);
    // The same client still gets lookups, POST lookups included.
    const lookup = await request(app).post('/v5/assets/Polkadot/asset-info').send({ currency: { symbol: 'DOT' } }).expect(200);
    expect(lookup.headers.ratelimit).not.toContain('"chain"');
    await request(app).get('/v5/chains/Polkadot/para-id').expect(200);
  });

  it('never limits /health, /ready and /metrics', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '1' });
    await request(app).get('/v2/chains').expect(200);
    await request(app).get('/v2/chains').expect(429);
    for (let i = 0; i < 5; i++) {
      for (const path of ['/health', '/ready', '/metrics']) {
        const res = await request(app).get(path).expect(200);
        expect(res.headers.ratelimit, path).toBeUndefined();
      }
    }
  });

  it('counts clients apart by address, X-Forwarded-For only from a trusted proxy', async () => {
    const untrusted = limited({ RATE_LIMIT_PER_MINUTE: '1' });
    await request(untrusted).get('/v2/chains').set('x-forwarded-for', '203.0.113.1').expect(200);
    // Without TRUST_PROXY a forged header is no way out.
    await request(untrusted).get('/v2/chains').set('x-forwarded-for', '203.0.113.2').expect(429);

    const behindProxy = limited({ RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: 'loopback' });
    await request(behindProxy).get('/v2/chains').set('x-forwarded-for', '203.0.113.1').expect(200);
    await request(behindProxy).get('/v2/chains').set('x-forwarded-for', '203.0.113.2').expect(200);
    await request(behindProxy).get('/v2/chains').set('x-forwarded-for', '203.0.113.1').expect(429);
  });

  it('0 turns a limit off', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0' });
    for (let i = 0; i < 10; i++) {
      const res = await badTransfer(app).expect(400);
      expect(res.headers.ratelimit).toBeUndefined();
    }
  });

  it('counts a 429 in /metrics', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '1' });
    await request(app).get('/v2/chains').expect(200);
    await request(app).get('/v2/chains').expect(429);
    const metrics = (await request(app).get('/metrics').expect(200)).text;
    expect(metrics).toContain('xcm_gateway_rate_limit_rejections_total{limiter="all",client="anonymous"} 1');
    expect(metrics).toContain('xcm_gateway_http_requests_total{route="(rate limited)",method="GET",status="429"} 1');
  });
});

// Express routes paths in any ASCII case and with one trailing slash; a limit that matched only the
// declared spelling let `/V5/...` dial chains without a count.
describe('one route, one count: every spelling Express routes is limited as its route', () => {
  type Spelling = [method: 'GET' | 'HEAD' | 'POST', path: string];
  /** Chain-dialling routes spelt otherwise; each is refused by its schema (400) before any chain is dialled. */
  const chainSpellings: Spelling[] = [
    ['POST', '/V5/x-transfer/status'],
    ['POST', '/V5/metadata-hash'],
    ['GET', '/V2/X-TRANSFER/PARA-ETH-FEES?bogus=1'],
    ['HEAD', '/v2/x-transfer/para-eth-fees?bogus=1'],
    ['POST', '/v5/X-Transfer/'],
    ['POST', '/V2/Router/Dry-Run/'],
  ];
  // Spellings other than the declared one are not in openapi.yaml, on purpose.
  const get = (app: ReturnType<typeof limited>, path: string) => outsideTheDocument(request(app).get(path));
  const send = (app: ReturnType<typeof limited>, [method, path]: Spelling) => {
    if (method === 'GET') return get(app, path);
    if (method === 'HEAD') return outsideTheDocument(request(app).head(path));
    return outsideTheDocument(request(app).post(path).set('content-type', 'application/json').send({}));
  };

  it.each(chainSpellings)('%s %s reaches its route and counts against the chain-dialling limit', async (method, path) => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_CHAIN_PER_MINUTE: '2' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(app, [method, path])).status);
    expect(statuses).toEqual([400, 400, 429, 429, 429]);
  });

  it('all spellings share one count with the declared one: N requests, N - limit refused', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_CHAIN_PER_MINUTE: '4' });
    const all: Spelling[] = [...chainSpellings, ...chainSpellings, ['POST', '/v5/x-transfer']];
    const statuses: number[] = [];
    for (const spelling of all) statuses.push((await send(app, spelling)).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(all.length - 4);
    expect(statuses.slice(0, 4)).toEqual([400, 400, 400, 400]);
    const over = await badTransfer(app).expect(429);
    expect(over.body.message).toMatch(/4 chain-dialling requests per minute/);
  });

  it('a registry lookup spelt otherwise counts only against the overall limit', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_CHAIN_PER_MINUTE: '1' });
    for (let i = 0; i < 3; i++) {
      const res = await outsideTheDocument(request(app).post('/V5/ASSETS/Polkadot/Asset-Info/')).send({ currency: { symbol: 'DOT' } }).expect(200);
      expect(res.headers.ratelimit).not.toContain('"chain"');
    }
  });

  it('spellings no route matches (doubled slashes, percent-escaped letters) are 404s: no handler runs', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_CHAIN_PER_MINUTE: '100' });
    for (const path of ['/v5//x-transfer', '//v5/x-transfer', '/v5/x%2Dtransfer', '/%765/x-transfer', '/v5/x-transfer//']) {
      const res = await outsideTheDocument(request(app).post(path)).set('content-type', 'application/json').send({});
      expect(res.status, path).toBe(404);
      expectErrorBody(res.body, 404);
    }
  });

  it('every declared route is judged alike in upper case, with a trailing slash, and as HEAD of a GET', () => {
    const { app } = testApp();
    const routes = app.routes.filter((r) => /^\/v[25]\//.test(r.path));
    expect(routes.length).toBeGreaterThan(50);
    for (const { method, path } of routes) {
      const concrete = path.replace(/:[a-zA-Z]+/g, 'Polkadot');
      const verb = method.toUpperCase();
      const judged = dialsChains({ method: verb, path: concrete });
      expect(dialsChains({ method: verb, path: concrete.toUpperCase() }), `${verb} ${path} in upper case`).toBe(judged);
      expect(dialsChains({ method: verb, path: `${concrete}/` }), `${verb} ${path}/`).toBe(judged);
      if (verb === 'GET') expect(dialsChains({ method: 'HEAD', path: concrete }), `HEAD ${path}`).toBe(judged);
    }
  });

  it('/health, /ready and /metrics are exempt in every spelling that reaches them', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '1' });
    await request(app).get('/v2/chains').expect(200);
    await request(app).get('/v2/chains').expect(429);
    for (const path of ['/HEALTH', '/health/', '/Ready/', '/METRICS']) {
      const res = await get(app, path).expect(200);
      expect(res.headers.ratelimit, path).toBeUndefined();
    }
  });

  it('metrics count a route under its template whatever the spelling (the cached lane too)', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '100' });
    for (const path of ['/V5/chains', '/V5/chains', '/v5/CHAINS/']) await get(app, path).expect(200);
    const metrics = (await request(app).get('/metrics').expect(200)).text;
    expect(metrics).toContain('xcm_gateway_http_requests_total{route="/v5/chains",method="GET",status="200"} 3');
    expect(metrics).not.toMatch(/route="\/V5/);
  });
});

describe('API keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xcm-keys-'));
  const file = join(dir, 'keys.json');
  writeFileSync(file, JSON.stringify([{ name: 'wallet-backend', sha256: hashApiKey('s3cret-key'), perMinute: 3, chainPerMinute: 0 }]));

  it('gives a keyed client its own limits, and counts it apart from its address', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '1', API_KEYS_FILE: file });
    await request(app).get('/v2/chains').expect(200);
    await request(app).get('/v2/chains').expect(429);
    for (let i = 0; i < 3; i++) await request(app).get('/v2/chains').set('x-api-key', 's3cret-key').expect(200);
    const over = await request(app).get('/v2/chains').set('x-api-key', 's3cret-key').expect(429);
    expect(over.body.message).toMatch(/^Rate limit exceeded: 3 total requests per minute/);
  });

  it('a keyed limit of 0 is unlimited', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '1', RATE_LIMIT_CHAIN_PER_MINUTE: '1', API_KEYS_FILE: file });
    for (let i = 0; i < 3; i++) await badTransfer(app).set('x-api-key', 's3cret-key').expect(400);
  });

  it('an unknown key is a 401; no key gets the anonymous limits', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '1', API_KEYS_FILE: file });
    const res = await request(app).get('/v2/chains').set('x-api-key', 'guessed').expect(401);
    expectErrorBody(res.body, 401, 'InvalidApiKeyError');
    expect(res.text).not.toContain('guessed');
    await request(app).get('/v2/chains').expect(200);
    await request(app).get('/health').set('x-api-key', 'guessed').expect(200);
  });

  it('without API_KEYS_FILE the header is ignored: any key gets the anonymous limits', async () => {
    const app = limited({ RATE_LIMIT_PER_MINUTE: '1' });
    const first = await request(app).get('/v2/chains').set('x-api-key', 'guessed').expect(200);
    expect(first.headers['ratelimit-policy']).toMatch(/^"all"; q=1; /);
    await request(app).get('/v2/chains').set('x-api-key', 'another').expect(429);
  });

  // Without a key a client gets the anonymous limits of its address, so a key below them limits
  // nothing: refused, named, rather than a cap that does not hold.
  it.each([
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: '5' }, "key 'wallet-backend': perMinute 3 is below RATE_LIMIT_PER_MINUTE 5"],
    ['RATE_LIMIT_PER_MINUTE off (0)', { RATE_LIMIT_PER_MINUTE: '0' }, "key 'wallet-backend': perMinute 3 is below RATE_LIMIT_PER_MINUTE 0 (no limit)"],
  ])('a key below %s stops the start, naming the key, its limit and the anonymous one', (_name, overrides, says) => {
    expect(() => testApp({ ...overrides, API_KEYS_FILE: file })).toThrow(ConfigError);
    expect(() => testApp({ ...overrides, API_KEYS_FILE: file })).toThrow(`Invalid configuration: API_KEYS_FILE: ${says}; a key can only raise a limit`);
  });

  it('a key at or above both anonymous limits is accepted, 0 (unlimited) above any', () => {
    expect(() => testApp({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_CHAIN_PER_MINUTE: '0', API_KEYS_FILE: file })).not.toThrow();
  });

  it('a bad key file stops the start, naming API_KEYS_FILE', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ name: 'x', sha256: 'plain-text-key', perMinute: 1, chainPerMinute: 1 }]));
    expect(() => testApp({ API_KEYS_FILE: bad })).toThrow(ConfigError);
    expect(() => testApp({ API_KEYS_FILE: bad })).toThrow(/API_KEYS_FILE: 0\.sha256/);
    expect(() => testApp({ API_KEYS_FILE: join(dir, 'missing.json') })).toThrow(/API_KEYS_FILE: cannot read/);
  });
});

describe('rate-limit configuration', () => {
  it('has the issue defaults', () => {
    expect(loadConfig({})).toMatchObject({ RATE_LIMIT_PER_MINUTE: 600, RATE_LIMIT_CHAIN_PER_MINUTE: 60, TRUST_PROXY: false });
  });

  it.each([
    ['TRUST_PROXY', '2', 2],
    ['TRUST_PROXY', 'loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('parses %s=%s', (name, value, expected) => {
    expect(loadConfig({ [name]: value })[name as 'TRUST_PROXY']).toEqual(expected);
  });

  it.each([
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', 'proxy.example'],
    ['RATE_LIMIT_PER_MINUTE', '-1'],
    ['RATE_LIMIT_CHAIN_PER_MINUTE', 'many'],
    ['REDIS_URL', 'localhost:6379'],
  ])('a bad %s stops the start', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });
});
