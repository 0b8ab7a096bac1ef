import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { corsHeaders } from './cors';
import type { JsonBodies } from './json-body';
import type { Metrics } from './metrics';
import { logRequest, requestIdOf } from './request-log';
import type { Entry, ResponseCache } from './respond';

export interface CachedLaneDeps {
  cache: ResponseCache;
  bodies: JsonBodies;
  logger: Logger;
  metrics: Metrics;
  corsOrigin: string;
}

type Handle = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * Repeated registry lookups are answered before Express sees them. For a cached answer, Express's
 * own per-request set-up (prototype swaps, the router, the middleware chain) costs about as much as
 * writing the answer; the lane does what those middlewares would do for such a request (request id,
 * CORS headers, the log line, metrics) and sends the cached bytes. A POST's body is read first (the
 * body middleware then reuses what was read); everything not known goes through Express unchanged.
 * The caller leaves the lane out while a rate limit applies: the limiters count in Express.
 *
 * Express calls `app.handle` for every request (the app function is `(req, res, next) =>
 * app.handle(req, res, next)`), so the lane sits there: the server and tests alike go through it.
 */
export function addCachedLane(app: Express, { cache, bodies, logger, metrics, corsOrigin }: CachedLaneDeps): void {
  const express = app as unknown as { handle: Handle };
  const viaExpress: Handle = express.handle.bind(app);

  const cors = corsHeaders(corsOrigin);
  const answer = (req: IncomingMessage, res: ServerResponse, entry: Entry, start: bigint) => {
    const id = requestIdOf(req);
    if (corsOrigin !== '*') res.setHeader('Vary', 'Origin');
    const done = () => {
      logRequest(logger, id, req.method, req.url ?? '', res.statusCode, start);
      metrics.record(entry.route ?? '(unmatched)', req.method, res.statusCode, start);
    };
    cache.sendKnown(req, res, entry, ['X-Request-Id', id, ...cors]);
    // A compressed variant made on its first request is sent once it is ready.
    if (res.writableEnded) done();
    else res.once('finish', done);
  };

  express.handle = (req, res, next) => {
    const start = process.hrtime.bigint();
    if (cache.mayKnowPost(req) && bodies.plain(req)) {
      void bodies.read(req).then((read) => {
        const entry = 'body' in read ? cache.knownPost(req, read.body) : undefined;
        if (entry) answer(req, res, entry, start);
        else viaExpress(req, res, next);
      });
      return;
    }
    const entry = cache.knownGet(req);
    if (entry) answer(req, res, entry, start);
    else viaExpress(req, res, next);
  };
}
