// The HTTP side of /metrics: each answered request counted under its route template, and the
// /metrics route itself. The figures live in ops (src/ops/metrics.ts).
import type { Express, NextFunction, Request, Response } from 'express';
import type { Metrics } from '../ops/metrics';
import { routedPath } from './routed-path';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set when a rate limiter refused the request (the route never ran). */
    rateLimited?: boolean;
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /** The route template the request matched, recorded when the route was dispatched. */
    routeTemplate?: string;
  }
}

const ROUTE = Symbol('route');
type RoutedRequest = Request & { [ROUTE]?: unknown };

/**
 * Records the template (`/v5/assets/:chain`) when Express dispatches a route: by the time an
 * error answer finishes, Express has already restored `req.baseUrl` to the app's. The accessor
 * sits once on the app's request prototype (Express assigns `req.route`), not on every request.
 * `req.baseUrl` is the mount path as the client spelt it (`/V5`): folded back to the mount path.
 */
function recordRouteTemplates(app: Express): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    enumerable: true,
    get(this: RoutedRequest) {
      return this[ROUTE];
    },
    set(this: RoutedRequest, value: { path?: unknown } | undefined) {
      this[ROUTE] = value;
      if (typeof value?.path === 'string') this.routeTemplate = `${routedPath(this.baseUrl)}${value.path}`;
    },
  });
}

/** The route template a request matched, never the raw path, so that label sets stay bounded. */
export function routeLabel(req: Request): string {
  if (req.rateLimited) return '(rate limited)';
  if (req.routeTemplate) return req.routeTemplate;
  if (req.originalUrl.startsWith('/docs/assets/')) return '/docs/assets/*';
  return '(unmatched)';
}

/** Counts and times every request once it is answered. */
export function metricsMiddleware(metrics: Metrics, app: Express) {
  recordRouteTemplates(app);
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.on('finish', () => metrics.record(routeLabel(req), req.method, res.statusCode, start));
    next();
  };
}

export function metricsRoute(metrics: Metrics, app: Express): void {
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
