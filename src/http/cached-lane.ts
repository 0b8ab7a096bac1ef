import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { corsHeaders } from './cors';
import type { JsonBodies } from './json-body';
import type { Metrics } from './metrics';
import type { RateLimits, TrustProxy } from './rate-limit';
import { logRequest, requestIdOf } from './request-log';
import type { Entry, ResponseCache } from './response-cache';

export interface CachedLaneDeps {
  cache: ResponseCache;
  bodies: JsonBodies;
  limits: RateLimits;
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
 * While a rate limit applies, the lane counts the request in the limiter's own store and sends its
 * RateLimit headers; a client at its limit (or with an API key to check) goes through Express.
 *
 * Express calls `app.handle` for every request (the app function is `(req, res, next) =>
 * app.handle(req, res, next)`), so the lane sits there: the server and tests alike go through it.
 */
export function addCachedLane(app: Express, { cache, bodies, limits, logger, metrics, corsOrigin }: CachedLaneDeps): void {
  const express = app as unknown as { handle: Handle };
  const viaExpress: Handle = express.handle.bind(app);
  const trust = app.get('trust proxy fn') as TrustProxy;

  const cors = corsHeaders(corsOrigin);
  const answer = (req: IncomingMessage, res: ServerResponse, entry: Entry, start: bigint, rateLimit: readonly string[]) => {
    const id = requestIdOf(req);
    if (corsOrigin !== '*') res.setHeader('Vary', 'Origin');
    const done = () => {
      logRequest(logger, id, req.method, req.url ?? '', res.statusCode, start);
      metrics.record(entry.route ?? '(unmatched)', req.method, res.statusCode, start);
    };
    cache.sendKnown(req, res, entry, ['X-Request-Id', id, ...cors, ...rateLimit]);
    // A compressed variant made on its first request is sent once it is ready.
    if (res.writableEnded) done();
    else res.once('finish', done);
  };

  /** Counts a known request against the rate limit (when one applies), then answers it or hands it to Express. */
  const answerCounted = (req: IncomingMessage, res: ServerResponse, next: Parameters<Handle>[2], entry: Entry, start: bigint) => {
    if (!limits.apply) return answer(req, res, entry, start, []);
    limits.countCached(req, trust).then(
      (headers) => (headers ? answer(req, res, entry, start, headers) : viaExpress(req, res, next)),
      () => viaExpress(req, res, next),
    );
  };

  express.handle = (req, res, next) => {
    const start = process.hrtime.bigint();
    if (cache.mayKnowPost(req) && bodies.plain(req)) {
      void bodies.read(req).then((read) => {
        const entry = 'body' in read ? cache.knownPost(req, read.body) : undefined;
        if (entry) answerCounted(req, res, next, entry, start);
        else viaExpress(req, res, next);
      });
      return;
    }
    const entry = cache.knownGet(req);
    if (entry) answerCounted(req, res, next, entry, start);
    else viaExpress(req, res, next);
  };
}
