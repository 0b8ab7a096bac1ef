import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

const EXPOSED = 'X-Request-Id, ETag, Retry-After, RateLimit, RateLimit-Policy';
const ALLOWED_HEADERS = 'Content-Type, X-Request-Id, If-None-Match, X-API-Key';

/** The CORS headers every answer carries, as [name, value, ...] (Vary aside: it is merged with others). */
export const corsHeaders = (origin: string): readonly string[] => ['Access-Control-Allow-Origin', origin, 'Access-Control-Expose-Headers', EXPOSED];

/** Sets the CORS headers every answer carries. */
export function setCorsHeaders(res: ServerResponse, origin: string): void {
  const headers = corsHeaders(origin);
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
  if (origin !== '*') res.setHeader('Vary', 'Origin');
}

/**
 * Browser wallets call the API directly, so every answer carries CORS headers for the configured
 * origin (`*` by default: the API takes no credentials), and preflight OPTIONS requests end here.
 */
export function cors(origin: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    setCorsHeaders(res, origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
      res.statusCode = 204;
      res.end();
      return;
    }
    next();
  };
}
