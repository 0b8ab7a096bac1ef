import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const INCOMING_ID = /^[\w.:-]{1,64}$/;

/** The client's X-Request-Id when it is a plain token, else a fresh one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** The one line logged per request: id, method, path, status and duration. */
export function logRequest(logger: Logger, id: string, method: string | undefined, url: string, status: number, start: bigint): void {
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const line = { reqId: id, method, path: url.slice(0, 256), status, ms: Math.round(ms * 100) / 100 };
  if (status >= 500) logger.error(line, 'request failed');
  else logger.info(line, 'request');
}

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
  }
}

/**
 * One lean log line per request: id, method, path, status and duration. Bodies are never
 * logged (they carry addresses and amounts); pino-http's default serializers cost about half
 * the throughput, so this stays hand-written.
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    req.id = requestIdOf(req);
    res.setHeader('X-Request-Id', req.id);
    const start = process.hrtime.bigint();
    res.on('finish', () => logRequest(logger, req.id, req.method, req.originalUrl, res.statusCode, start));
    next();
  };
}
