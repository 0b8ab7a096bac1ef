import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** JSON text of a response value: big integers become decimal strings. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
}

interface Serialized {
  body: Buffer;
  etag: string;
}

function serialize(value: unknown): Serialized {
  const body = Buffer.from(toJson(value));
  const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, etag };
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Cached bytes go straight to the socket: Express's send() would only recompute headers. */
function write(req: Request, res: Response, { body, etag }: Serialized): void {
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'no-cache');
  if (req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/**
 * Registry answers never change while the process runs, so each is serialized once and served
 * as bytes with an ETag. Keys come from validated input; the map is bounded so that varied
 * inputs cannot grow it without limit (the oldest entry goes first).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Serialized>();

  constructor(private readonly maxEntries = 5_000) {}

  send(req: Request, res: Response, key: string, compute: () => unknown): void {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = serialize(compute());
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, entry);
    }
    write(req, res, entry);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes of cached bodies (walked on each call; read by /metrics only). */
  get bytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.body.length;
    return total;
  }
}

/** Sends a computed (uncached) value as JSON. */
export function sendJson(res: Response, value: unknown, status = 200): void {
  res.status(status).setHeader('Content-Type', JSON_TYPE);
  res.send(toJson(value));
}
