import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { bytesOf } from '../config';

/** `application/json`, optionally with a UTF-8 charset: the Content-Type of nearly every client. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;

/** Bodies up to this size, declared by Content-Length, are read here (larger ones go to body-parser). */
const SMALL_BODY = 16 * 1024;

/** A body-parser-shaped error, so that the error handler answers it as it answers body-parser's. */
function bodyError(message: string, status: number, type: string): Error {
  return Object.assign(new SyntaxError(message), { status, type });
}

/** Whether a request says it carries a body (a GET's would be read, and answered on, before its route). */
export const carriesBody = (req: IncomingMessage): boolean => req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/** What reading a body gave: the parsed value, or the error to answer with. */
export type BodyRead = { body: unknown } | { error: Error };

const READ = Symbol('json body read');
type ReadRequest = IncomingMessage & { [READ]?: BodyRead };

/**
 * Reads JSON bodies. A small, identity-encoded UTF-8 body with a Content-Length (what wallets and
 * backends send) is read and parsed here: body-parser's general path (charset and encoding
 * negotiation, decoding streams) costs more than answering a cached POST. Everything else goes to
 * `express.json`, whose answers for it are unchanged.
 */
export class JsonBodies {
  private readonly general;
  private readonly smallest: number;

  constructor(limit: string) {
    this.general = express.json({ limit, strict: false });
    this.smallest = Math.min(SMALL_BODY, bytesOf(limit));
  }

  /** Whether `read` takes this request: a POST with a small plain JSON body. */
  plain(req: IncomingMessage): boolean {
    return (
      req.method === 'POST' &&
      Number(req.headers['content-length']) <= this.smallest &&
      req.headers['transfer-encoding'] === undefined &&
      req.headers['content-encoding'] === undefined &&
      PLAIN_JSON.test(req.headers['content-type'] ?? '')
    );
  }

  /** Reads and parses a plain body (as body-parser would: a leading BOM dropped, empty = `{}`); the middleware then passes the result on. */
  read(req: IncomingMessage): Promise<BodyRead> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      const settle = (read: BodyRead) => {
        req.off('data', onData).off('end', onEnd).off('close', onClose);
        (req as ReadRequest)[READ] = read;
        resolve(read);
      };
      const onData = (chunk: Buffer) => chunks.push(chunk);
      const onEnd = () => {
        const text = Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
        try {
          settle({ body: text.length === 0 ? {} : (JSON.parse(text) as unknown) });
        } catch (error) {
          settle({ error: bodyError((error as Error).message, 400, 'entity.parse.failed') });
        }
      };
      const onClose = () => settle({ error: bodyError('request aborted', 400, 'request.aborted') });
      req.on('data', onData).on('end', onEnd).on('close', onClose);
    });
  }

  /** Middleware: sets `req.body` (or fails with the body's error) for every request. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const done = (read: BodyRead) => {
      if ('error' in read) return next(read.error);
      req.body = read.body;
      next();
    };
    const already = (req as ReadRequest)[READ];
    if (already) done(already);
    else if (this.plain(req)) void this.read(req).then(done);
    else this.general(req, res, next);
  };
}
