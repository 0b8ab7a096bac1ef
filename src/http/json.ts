import type { Response } from 'express';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** JSON text of a response value: big integers become decimal strings. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
}

/** Sends a computed (uncached) value as JSON. */
export function sendJson(res: Response, value: unknown, status = 200): void {
  res.status(status).setHeader('Content-Type', JSON_TYPE);
  res.send(toJson(value));
}
