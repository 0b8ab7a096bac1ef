// What a client sees of a cached lookup, header by header in the order they are sent, over a real
// socket: the cached lane's answer (src/http/cached-lane.ts) against the routed answer of the same
// request (Express, which a GET with a Content-Length reaches), and the answers the lane leaves to
// Express (CORS preflight, 429, 401) as they were. Ids and dates aside, nothing may differ.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/ops/api-keys';
import { FAMILIES, testApp } from '../helpers/app';

interface Seen {
  status: number;
  /** [name, value] in the order sent; the id and date replaced by placeholders. */
  headers: [string, string][];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The real listener (lane, then Express) on a loopback port. */
async function serve(overrides: Record<string, string> = {}): Promise<string> {
  const server = createServer(testApp(overrides).app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function ask(url: string, method: string, path: string, headers: Record<string, string> = {}): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const [name, value] = [res.rawHeaders[i], res.rawHeaders[i + 1]];
          const id = name.toLowerCase() === 'x-request-id' && /^[0-9a-f-]{36}$/.test(value);
          pairs.push([name, id ? '<id>' : name.toLowerCase() === 'date' ? '<date>' : value]);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same request by the routed path: a GET or HEAD that says it carries a body skips the lane. */
const routed = (headers: Record<string, string> = {}) => ({ ...headers, 'Content-Length': '0' });

const names = (seen: Seen) => seen.headers.map(([name]) => name);
const valueOf = (seen: Seen, name: string) => seen.headers.find(([n]) => n === name)?.[1];

/** The headers of a cached 200 answered by the lane, in order, with CORS `*` and no rate limit. */
const CACHED_200 = ['X-Request-Id', 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'ETag', 'Cache-Control', 'Vary', 'Content-Type', 'Content-Length', 'Date', 'Connection'];

describe.each(FAMILIES)('a cached lookup in %s, header by header', (family) => {
  const chains = `/${family}/chains`;

  it('200, HEAD and 304: the lane sends what the routed path sends, in the same order', async () => {
    const url = await serve();
    const first = await ask(url, 'GET', chains);
    const lane = await ask(url, 'GET', chains);
    const viaExpress = await ask(url, 'GET', chains, routed());
    expect(lane.status).toBe(200);
    expect(names(lane)).toEqual(CACHED_200);
    expect(lane).toEqual(first);
    expect(lane).toEqual(viaExpress);
    expect(valueOf(lane, 'Vary')).toBe('Accept-Encoding');
    expect(valueOf(lane, 'Cache-Control')).toBe('no-cache');

    const head = await ask(url, 'HEAD', chains);
    expect(head).toEqual({ ...lane, body: '' });
    expect(head).toEqual(await ask(url, 'HEAD', chains, routed()));

    const etag = valueOf(lane, 'ETag') ?? '';
    const notModified = await ask(url, 'GET', chains, { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(names(notModified)).toEqual(['X-Request-Id', 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'ETag', 'Cache-Control', 'Vary', 'Date', 'Connection']);
    expect(notModified).toEqual(await ask(url, 'GET', chains, routed({ 'If-None-Match': etag })));
    // The client's own request id comes back on either path.
    const own = await ask(url, 'GET', chains, { 'X-Request-Id': 'wallet-42' });
    expect(own).toEqual({ ...lane, headers: lane.headers.map(([n, v]) => [n, n === 'X-Request-Id' ? 'wallet-42' : v]) });
  });

  it('with a CORS origin: the lane varies by Origin and Accept-Encoding as the routed path; a preflight is answered as before', async () => {
    const url = await serve({ CORS_ORIGIN: 'https://wallet.example' });
    await ask(url, 'GET', chains);
    const lane = await ask(url, 'GET', chains);
    expect(lane).toEqual(await ask(url, 'GET', chains, routed()));
    expect(valueOf(lane, 'Access-Control-Allow-Origin')).toBe('https://wallet.example');
    expect(valueOf(lane, 'Vary')).toBe('Origin, Accept-Encoding');

    const preflight = await ask(url, 'OPTIONS', chains, { Origin: 'https://wallet.example', 'Access-Control-Request-Method': 'GET' });
    expect(preflight).toEqual({
      status: 204,
      headers: [
        ['X-Request-Id', '<id>'],
        ['Access-Control-Allow-Origin', 'https://wallet.example'],
        ['Access-Control-Expose-Headers', 'X-Request-Id, ETag, Retry-After, RateLimit, RateLimit-Policy'],
        ['Vary', 'Origin'],
        ['Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS'],
        ['Access-Control-Allow-Headers', 'Content-Type, X-Request-Id, If-None-Match, X-API-Key'],
        ['Access-Control-Max-Age', '600'],
        ['Date', '<date>'],
        ['Connection', 'close'],
      ],
      body: '',
    });
  });

  it('under a rate limit: the lane counts and sends the RateLimit headers where the routed path does; the 429 and a bad key\'s 401 are as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lane-answers-'));
    const keys = join(dir, 'keys.json');
    writeFileSync(keys, JSON.stringify([{ name: 'wallet', sha256: hashApiKey('s3cret-key'), perMinute: 5, chainPerMinute: 0 }]));
    const url = await serve({ RATE_LIMIT_PER_MINUTE: '3', API_KEYS_FILE: keys });
    const first = await ask(url, 'GET', chains);
    const lane = await ask(url, 'GET', chains);
    const viaExpress = await ask(url, 'GET', chains, routed());
    const withoutCount = (seen: Seen) => ({ ...seen, headers: seen.headers.map(([n, v]) => [n, n === 'RateLimit' ? v.replace(/r=\d+; t=\d+/, 'r=?') : v]) });
    expect(names(lane)).toEqual(['X-Request-Id', 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'RateLimit', 'RateLimit-Policy', ...CACHED_200.slice(3)]);
    expect(withoutCount(lane)).toEqual(withoutCount(first));
    expect(withoutCount(lane)).toEqual(withoutCount(viaExpress));
    expect([first, lane, viaExpress].map((s) => valueOf(s, 'RateLimit'))).toEqual([2, 1, 0].map((r) => expect.stringMatching(new RegExp(`^"all"; r=${r}; t=\\d+$`))));

    const limited = await ask(url, 'GET', chains);
    expect(limited.status).toBe(429);
    expect(names(limited)).toEqual([
      'X-Request-Id',
      'Access-Control-Allow-Origin',
      'Access-Control-Expose-Headers',
      'RateLimit',
      'RateLimit-Policy',
      'Retry-After',
      'Content-Type',
      'Content-Length',
      'Date',
      'Connection',
    ]);
    expect(JSON.parse(limited.body)).toMatchObject({ statusCode: 429, kind: 'RateLimitExceededError' });

    const badKey = await ask(url, 'GET', chains, { 'X-API-Key': 'wrong' });
    expect(badKey.status).toBe(401);
    expect(names(badKey)).toEqual(['X-Request-Id', 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers', 'Content-Type', 'Content-Length', 'Date', 'Connection']);
    expect(JSON.parse(badKey.body)).toMatchObject({ statusCode: 401, kind: 'InvalidApiKeyError' });
    const keyed = await ask(url, 'GET', chains, { 'X-API-Key': 's3cret-key' });
    expect(names(keyed)).toEqual(names(lane));
    expect(valueOf(keyed, 'RateLimit-Policy')).toMatch(/^"all"; q=5; w=60; pk=:[A-Za-z0-9+/=]+:$/);
    expect(keyed.body).toBe(lane.body);
  });
});
