import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { hashApiKey } from '../../src/ops/api-keys';
import { expectErrorBody, testApp } from '../helpers/app';

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
