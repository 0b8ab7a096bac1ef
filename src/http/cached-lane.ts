import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { corsHeaders } from './cors';
import { carriesBody, type JsonBodies } from './json-body';
import type { Metrics } from '../ops/metrics';
import type { RateLimits, TrustProxy } from './rate-limit';
import { logRequest, requestIdOf } from './request-log';
import type { ResponseCache } from './response-cache';
import { type ChainRoutes, sendUnknownChain, type UnknownChainAnswer, UnknownChainAnswers } from './chain-routes';
import { familyOf, type RouteEntry } from './errors';

export interface CachedLaneDeps {
  cache: ResponseCache;
  bodies: JsonBodies;
  limits: RateLimits;
  logger: Logger;
  metrics: Metrics;
  corsOrigin: string;
  /** The routes with a chain in their path: an unknown chain there is answered here. */
  chainRoutes: ChainRoutes;
}

/** Request lines of unknown chains' 400s kept (least recently asked first out), and the longest kept. */
const UNKNOWN_LINES_HELD = 1_000;
const LONGEST_LINE_HELD = 128;

/** Sends an answer made by the lane, given the headers to add (as [name, value, ...]) and the request id. */
type Send = (head: readonly string[], id: string) => void;

/**
 * The server's request listener: repeated registry lookups are answered from the response cache,
 * and an unknown chain in a chain route's path with its 400 (src/http/chain-routes.ts); everything
 * else is handed to the Express app. For such answers, Express's own per-request set-up (prototype
 * swaps, the router, the middleware chain) costs about as much as writing the answer; the lane
 * does what those middlewares would do for such a request (request id, CORS headers, the log
 * line, metrics) and sends the bytes. A POST's body is read first (the body middleware then reuses
 * what was read); everything not known goes through Express unchanged. While a rate limit
 * applies, the lane counts the request in the limiter's own store and sends its RateLimit
 * headers; a client at its limit (or with an API key to check) goes through Express.
 */
export function cachedLane(app: Express, { cache, bodies, limits, logger, metrics, corsOrigin, chainRoutes }: CachedLaneDeps): RequestListener {
  const viaExpress = (req: IncomingMessage, res: ServerResponse) => void app(req, res);
  const trust = app.get('trust proxy fn') as TrustProxy;
  const unknownChains = new UnknownChainAnswers(app.locals.routes as RouteEntry[] | undefined);

  const cors = corsHeaders(corsOrigin);
  const answer = (req: IncomingMessage, res: ServerResponse, route: string, start: bigint, rateLimit: readonly string[], send: Send) => {
    const id = requestIdOf(req);
    if (corsOrigin !== '*') res.setHeader('Vary', 'Origin');
    const done = () => {
      logRequest(logger, id, req.method, req.url ?? '', res.statusCode, start);
      metrics.record(route, req.method, res.statusCode, start);
    };
    send(['X-Request-Id', id, ...cors, ...rateLimit], id);
    // A compressed variant made on its first request is sent once it is ready.
    if (res.writableEnded) done();
    else res.once('finish', done);
  };

  /** Counts a request answered here against the rate limit (when one applies), then answers it or hands it to Express. */
  const answerCounted = (req: IncomingMessage, res: ServerResponse, route: string, start: bigint, send: Send) => {
    if (!limits.apply) return answer(req, res, route, start, [], send);
    limits.countCached(req, trust).then(
      (headers) => (headers ? answer(req, res, route, start, headers, send) : viaExpress(req, res)),
      () => viaExpress(req, res),
    );
  };

  // Request lines lately answered with an unknown chain's 400: a repeat skips matching the route
  // and folding the path (a twentieth of that answer's CPU). Bounded like the answers themselves.
  const unknownLines = new LRUCache<string, { route: string; made: UnknownChainAnswer }>({ max: UNKNOWN_LINES_HELD });

  /** A chain route's 400 when the request names an unknown chain there (a GET without a body, or a POST). */
  const unknownChain = (req: IncomingMessage, res: ServerResponse): { route: string; send: Send } | undefined => {
    if (req.method !== 'POST' && carriesBody(req)) return undefined;
    const url = req.url ?? '';
    const line = `${req.method} ${url}`;
    let known = unknownLines.get(line);
    if (!known) {
      const asked = chainRoutes.find(req.method, url);
      const made = asked && unknownChains.answer(familyOf(url), asked.chain);
      if (!made) return undefined;
      known = { route: asked.route, made };
      if (url.length <= LONGEST_LINE_HELD) unknownLines.set(line, known);
    }
    const { route, made } = known;
    return { route, send: (head, id) => sendUnknownChain(req, res, made, id, head) };
  };

  return (req, res) => {
    const start = process.hrtime.bigint();
    const entry = cache.knownGet(req);
    if (entry) return answerCounted(req, res, entry.route ?? '(unmatched)', start, (head) => cache.sendKnown(req, res, entry, head));
    const unknown = unknownChain(req, res);
    if (req.method === 'POST' && (unknown || cache.mayKnowPost(req)) && bodies.plain(req)) {
      // As routed, a body that cannot be read is answered before the route reads the chain.
      void bodies.read(req).then((read) => {
        if (!('body' in read)) return viaExpress(req, res);
        if (unknown) return answerCounted(req, res, unknown.route, start, unknown.send);
        const known = cache.knownPost(req, read.body);
        if (known) answerCounted(req, res, known.route ?? '(unmatched)', start, (head) => cache.sendKnown(req, res, known, head));
        else viaExpress(req, res);
      });
      return;
    }
    if (unknown && req.method !== 'POST') answerCounted(req, res, unknown.route, start, unknown.send);
    else viaExpress(req, res);
  };
}
