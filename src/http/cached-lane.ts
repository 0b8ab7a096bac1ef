import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
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

/**
 * The server's request listener: repeated registry lookups are answered from the response cache,
 * everything else is handed to the Express app. For a cached answer, Express's own per-request
 * set-up (prototype swaps, the router, the middleware chain) costs about as much as writing the
 * answer; the lane does what those middlewares would do for such a request (request id, CORS
 * headers, the log line, metrics) and sends the cached bytes. A POST's body is read first (the
 * body middleware then reuses what was read); everything not known goes through Express unchanged.
 * While a rate limit applies, the lane counts the request in the limiter's own store and sends its
 * RateLimit headers; a client at its limit (or with an API key to check) goes through Express.
 */
export function cachedLane(app: Express, { cache, bodies, limits, logger, metrics, corsOrigin }: CachedLaneDeps): RequestListener {
  const viaExpress = (req: IncomingMessage, res: ServerResponse) => void app(req, res);
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
  const answerCounted = (req: IncomingMessage, res: ServerResponse, entry: Entry, start: bigint) => {
    if (!limits.apply) return answer(req, res, entry, start, []);
    limits.countCached(req, trust).then(
      (headers) => (headers ? answer(req, res, entry, start, headers) : viaExpress(req, res)),
      () => viaExpress(req, res),
    );
  };

  return (req, res) => {
    const start = process.hrtime.bigint();
    if (cache.mayKnowPost(req) && bodies.plain(req)) {
      void bodies.read(req).then((read) => {
        const entry = 'body' in read ? cache.knownPost(req, read.body) : undefined;
        if (entry) answerCounted(req, res, entry, start);
        else viaExpress(req, res);
      });
      return;
    }
    const entry = cache.knownGet(req);
    if (entry) answerCounted(req, res, entry, start);
    else viaExpress(req, res);
  };
}
