import type { RequestListener } from 'node:http';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { createOps, type Ops } from '../ops';
import { asClient, type Services } from '../service';
import { isRouterLoaded } from '../service/router';
import { FAMILIES, type Family } from '../schemas/family';
import type { RouteContext } from './context';
import { cachedLane } from './cached-lane';
import { ChainRoutes } from './chain-routes';
import { cors } from './cors';
import { errorHandler, notFoundHandler, type RouteEntry } from './errors';
import { JsonBodies } from './json-body';
import { metricsMiddleware, metricsRoute } from './metrics';
import { clientKey, rateLimits } from './rate-limit';
import { requestLog } from './request-log';
import { COMPRESS_MIN_BYTES, ResponseCache } from './response-cache';
import { docsRoutes } from './routes/docs';
import { statusRoute } from './routes/status';
import { FAMILY_ROUTES } from './routes';

export interface AppDeps {
  config: Config;
  logger: Logger;
  services: Services;
  /** Metrics, rate-limit counters and API keys; built from the config when not given (the caller then cannot close a Redis client). */
  ops?: Ops;
  /** Serving the sandbox's emulated chains (`npm run sandbox`): /status says `mode: 'sandbox'`. */
  sandbox?: boolean;
  /** Markdown /docs shows first (the sandbox's: that the page talks to it, and its dev accounts). */
  docsNote?: string;
}

/** What nearly every client sends, which `req.is('application/json')` (type-is: a full media-type parse) takes. */
const COMMON_JSON = /^application\/json(?:; ?charset=utf-8)?$/i;

/** A POST carries JSON; an empty POST is let through so that schemas name the missing fields. */
function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (req.method === 'POST' && hasBody && !COMMON_JSON.test(req.headers['content-type'] ?? '') && !req.is('application/json')) {
    next(new ApiError(415, 'UnsupportedMediaTypeError', 'POST bodies must be JSON with Content-Type: application/json'));
    return;
  }
  next();
}

export function familyRouter(family: Family, ctx: Omit<RouteContext, 'family'>): Router {
  const router = Router();
  const routeCtx: RouteContext = { ...ctx, family };
  for (const register of FAMILY_ROUTES) register(router, routeCtx);
  return router;
}

/** The routes a router declares, read from Express's own route table. */
function declaredRoutes(router: Router, prefix = ''): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const layer of router.stack) {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
    if (!route) continue;
    for (const method of Object.keys(route.methods)) entries.push({ method, path: prefix + route.path });
  }
  return entries;
}

/** The server's request listener (tests send their requests to it too), with the routes the app declares. */
export type AppListener = RequestListener & { readonly routes: readonly RouteEntry[] };

/**
 * Builds the Express app and puts the cached lane in front of it: the listener answers repeated
 * lookups from the response cache and hands every other request to the app.
 */
export function createApp({ config, logger, services, ops = createOps(config, logger), sandbox = false, docsNote }: AppDeps): AppListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', config.TRUST_PROXY);

  app.use(requestLog(logger));
  app.use(metricsMiddleware(ops.metrics, app));
  app.use(cors(config.CORS_ORIGIN));
  const limits = rateLimits({ config, counters: ops.counters, metrics: ops.metrics, apiKeys: ops.apiKeys });
  app.use(limits.middleware);
  app.use(requireJson);
  const bodies = new JsonBodies(config.BODY_LIMIT);
  app.use(bodies.middleware);
  // Chain work runs on behalf of the client the rate limits count: connections it names are its own.
  app.use((req, _res, next) => asClient(clientKey(req.apiKey, req.ip ?? 'unknown'), next));
  // Cached registry answers are sent before routing, with their own compressed variants; other
  // answers of 1 kB or more are compressed on the fly.
  const cache = new ResponseCache(config.CACHE_MAX_BYTES);
  app.use(cache.answerKnown);
  app.use(compression({ threshold: COMPRESS_MIN_BYTES }));

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', (_req, res) => {
    const ready = services.ready();
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'shutting down' });
  });
  docsRoutes(app, docsNote);
  ops.metrics.observe({
    connections: () => services.pool.stats(),
    chainActivity: services.chainActivity,
    cache,
    routerLoaded: isRouterLoaded,
    counters: ops.counters,
    watches: services.watches,
  });
  services.routeCheck.observe({ checked: (outcome, origin) => ops.metrics.routeChecks.inc({ outcome, origin }) });
  services.watches.observe({ tried: ({ event, outcome }) => ops.metrics.webhookTried({ outcome, settledAt: event.settledAt }) });
  metricsRoute(ops.metrics, app);
  statusRoute(app, { config, services, cache, ops, sandbox });

  const routes = declaredRoutes(app.router);
  const chainRoutes = new ChainRoutes();
  for (const family of FAMILIES) {
    const router = familyRouter(family, { services, cache, config, logger, chainRoutes });
    app.use(`/${family}`, router);
    routes.push(...declaredRoutes(router, `/${family}`));
  }
  app.locals.routes = routes;

  app.use(notFoundHandler);
  app.use(errorHandler(logger));

  const listener = cachedLane(app, { cache, bodies, limits, logger, metrics: ops.metrics, corsOrigin: config.CORS_ORIGIN, chainRoutes });
  return Object.assign(listener, { routes });
}
