import type { AddressInfo } from 'node:net';
import { createServer, request, type Server } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

const { app, services } = testApp();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await services.close();
});

/** The bytes exactly as sent (supertest would decompress them). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const DECODE: Record<string, (b: Buffer) => Buffer> = { gzip: gunzipSync, br: brotliDecompressSync };

describe('compressed answers', () => {
  const large = [
    ['GET', '/v2/assets/AssetHubPolkadot', undefined],
    ['POST', '/v5/router/pairs', { exchange: 'HydrationDex' }],
  ] as const;

  describe.each(large)('cached %s %s', (method, path, body) => {
    it('no Accept-Encoding: plain JSON, marked as varying by Accept-Encoding', async () => {
      const plain = await raw(method, path, {}, body);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toContain('Accept-Encoding');
      expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
      expect(plain.bytes.length).toBeGreaterThan(1024);
      expect(() => JSON.parse(plain.bytes.toString())).not.toThrow();
    });

    it.each([
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=1, gzip;q=0.5', 'br'],
    ])('Accept-Encoding %s: %s bytes that decompress to the same JSON, each encoding its own ETag', async (accept, encoding) => {
      const plain = await raw(method, path, {}, body);
      // Twice: the first may make the variant, the second is served from it.
      for (let i = 0; i < 2; i++) {
        const packed = await raw(method, path, { 'accept-encoding': accept }, body);
        expect(packed.status).toBe(200);
        expect(packed.headers['content-encoding']).toBe(encoding);
        expect(packed.headers.vary).toContain('Accept-Encoding');
        expect(packed.bytes.length).toBeLessThan(plain.bytes.length / 4);
        expect(Number(packed.headers['content-length'])).toBe(packed.bytes.length);
        expect(DECODE[encoding](packed.bytes).equals(plain.bytes)).toBe(true);
        expect(packed.headers.etag).not.toBe(plain.headers.etag);
        const again = await raw(method, path, { 'accept-encoding': accept, 'if-none-match': String(packed.headers.etag) }, body);
        expect(again.status).toBe(304);
        expect(again.bytes.length).toBe(0);
      }
      // The plain ETag does not validate a compressed copy, nor the other way round.
      expect((await raw(method, path, { 'accept-encoding': accept, 'if-none-match': String(plain.headers.etag) }, body)).status).toBe(200);
    });
  });

  it('a client that refuses every coding we have, or asks only deflate, gets plain cached bytes', async () => {
    for (const accept of ['identity', 'br;q=0, gzip;q=0', 'deflate;q=0']) {
      const res = await raw('GET', '/v2/assets/AssetHubPolkadot', { 'accept-encoding': accept });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(() => JSON.parse(res.bytes.toString())).not.toThrow();
    }
  });

  it('small answers are never compressed', async () => {
    const small = [
      await raw('POST', '/v2/assets/Hydration/asset-info', { 'accept-encoding': 'gzip, br' }, { currency: { symbol: 'DOT' } }),
      await raw('POST', '/v2/assets/Hydration/asset-info', { 'accept-encoding': 'gzip, br' }, { currency: { symbol: 'DOT' } }),
      await raw('GET', '/health', { 'accept-encoding': 'gzip, br' }),
    ];
    for (const res of small) {
      expect(res.status).toBe(200);
      expect(res.bytes.length).toBeLessThan(1024);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.bytes.toString())).toBeTruthy();
    }
  });

  it('an uncached answer over 1 kB is compressed on the fly', async () => {
    const body = { transfers: Array.from({ length: 10 }, () => ({})), options: {} };
    const plain = await raw('POST', '/v5/x-transfer-batch', {}, body);
    expect(plain.status).toBe(400);
    expect(plain.bytes.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['gzip', 'br']) {
      const packed = await raw('POST', '/v5/x-transfer-batch', { 'accept-encoding': encoding }, body);
      expect(packed.status).toBe(400);
      expect(packed.headers['content-encoding']).toBe(encoding);
      const decoded = JSON.parse(DECODE[encoding](packed.bytes).toString()) as { kind: string; requestId: string };
      expect(decoded.kind).toBe(JSON.parse(plain.bytes.toString()).kind);
      expect(decoded.requestId).toBe(packed.headers['x-request-id']);
    }
  });
});
