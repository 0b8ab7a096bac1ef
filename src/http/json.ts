import type { Response } from 'express';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** JSON text of a response value: big integers become decimal strings. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
}

const HEX = /^0x[0-9a-fA-F]*$/;

/**
 * Sends a computed (uncached) value as JSON. An answer that is one hex string (call data) goes as
 * the bare hex to a client that prefers `text/plain`, as the ParaSpell XCM API sends it; JSON
 * stays the default (no Accept, `*\/*`, or JSON first).
 */
export function sendJson(res: Response, value: unknown, status = 200): void {
  if (typeof value === 'string' && HEX.test(value)) {
    res.vary('Accept');
    if (res.req.accepts(['application/json', 'text/plain']) === 'text/plain') {
      res.status(status).setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.send(value);
      return;
    }
  }
  const body = toJson(value);
  res.status(status).setHeader('Content-Type', JSON_TYPE);
  if (res.req.method === 'POST' && status === 200) {
    // What res.send does for it, without its Content-Type re-parse and freshness check: this app
    // sends no ETag, and a POST is never fresh (RFC 9110: conditional requests apply to GET and HEAD).
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body, 'utf8');
    return;
  }
  res.send(body);
}
