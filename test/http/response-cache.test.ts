import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/http/respond';

/** The parts of a request and a response the cache touches, recording what was sent. */
function exchange(ifNoneMatch?: string) {
  const headers: Record<string, unknown> = {};
  const sent: { status?: number; body?: string } = {};
  const res = {
    statusCode: 0,
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = value),
    end(body?: Buffer) {
      sent.status = this.statusCode;
      sent.body = body?.toString();
    },
  };
  const req = { method: 'GET', headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} };
  return { req: req as unknown as Request, res: res as unknown as Response, headers, sent };
}

describe('ResponseCache', () => {
  it('serializes each key once, and evicts the oldest entry past its bound', () => {
    const cache = new ResponseCache(2);
    const computed: string[] = [];
    const serve = (key: string) => {
      const x = exchange();
      cache.send(x.req, x.res, key, () => (computed.push(key), { key, big: 10n ** 20n }));
      return x;
    };
    const a = serve('a');
    expect(a.sent).toEqual({ status: 200, body: '{"key":"a","big":"100000000000000000000"}' });
    expect(a.headers['etag']).toMatch(/^"[\w-]{22}"$/);
    serve('a');
    serve('b');
    expect(computed).toEqual(['a', 'b']);
    expect(cache.size).toBe(2);
    serve('c'); // evicts a, the oldest
    expect(cache.size).toBe(2);
    serve('b');
    serve('c');
    expect(computed).toEqual(['a', 'b', 'c']);
    serve('a'); // computed again, evicting b
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
    serve('b');
    expect(computed).toEqual(['a', 'b', 'c', 'a', 'b']);
    expect(cache.size).toBe(2);
  });

  it('answers 304 without a body to the ETag it gave', () => {
    const cache = new ResponseCache(2);
    const first = exchange();
    cache.send(first.req, first.res, 'k', () => [1, 2, 3]);
    const again = exchange(first.headers['etag'] as string);
    cache.send(again.req, again.res, 'k', () => [1, 2, 3]);
    expect(again.sent).toEqual({ status: 304, body: undefined });
  });
});
