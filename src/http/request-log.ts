import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const INCOMING_ID = /^[\w.:-]{1,64}$/;

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
    const incoming = req.headers['x-request-id'];
    req.id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const line = { reqId: req.id, method: req.method, path: req.originalUrl.slice(0, 256), status: res.statusCode, ms: Math.round(ms * 100) / 100 };
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request');
    });
    next();
  };
}
