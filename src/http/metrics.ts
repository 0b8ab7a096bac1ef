import type { Express, NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CounterState, SharedCounters } from '../ops/shared-counters';
import type { Services } from '../service';
import { isRouterLoaded } from '../service/router-engine';
import type { ResponseCache } from './response-cache';

const PREFIX = 'xcm_gateway_';

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
      if (typeof value?.path === 'string') this.routeTemplate = `${this.baseUrl}${value.path}`;
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

/** Every figure /metrics exposes, in one registry per app (tests build many apps in one process). */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly deadlineHits = new Counter({
    name: `${PREFIX}deadline_exceeded_total`,
    help: 'Requests answered 504 because their chain work overran its deadline, by route template',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: `${PREFIX}rate_limit_rejections_total`,
    help: 'Requests refused with 429, by limiter (all, chain) and client (anonymous, keyed)',
    labelNames: ['limiter', 'client'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Figures read from the live objects at scrape time. */
  observe(services: Services, cache: ResponseCache, counters: SharedCounters): void {
    const registers = [this.registry];
    new Gauge({
      name: `${PREFIX}chain_connections`,
      help: 'Chain connections in the pool, by chain and state (open, connecting, idle; idle ones are also open)',
      labelNames: ['chain', 'state'] as const,
      registers,
      collect() {
        this.reset();
        for (const { chain, state, leases } of services.pool.stats()) {
          this.inc({ chain, state });
          if (state === 'open' && leases === 0) this.inc({ chain, state: 'idle' });
        }
      },
    });
    new Counter({
      name: `${PREFIX}chain_connect_attempts_total`,
      help: 'Connects to a chain (all endpoints of one attempt, failover included), by chain',
      labelNames: ['chain'] as const,
      registers,
      collect() {
        this.reset();
        for (const [chain, record] of services.chainActivity.chains()) this.inc({ chain }, record.connectAttempts);
      },
    });
    new Counter({
      name: `${PREFIX}chain_connect_failures_total`,
      help: 'Connects that failed, by chain and reason (timeout, refused, dns, closed, cancelled, other)',
      labelNames: ['chain', 'reason'] as const,
      registers,
      collect() {
        this.reset();
        for (const [chain, record] of services.chainActivity.chains()) {
          for (const [reason, count] of Object.entries(record.failures)) this.inc({ chain, reason }, count);
        }
      },
    });
    new Gauge({
      name: `${PREFIX}response_cache_entries`,
      help: 'Registry answers held serialized in memory',
      registers,
      collect() {
        this.set(cache.size);
      },
    });
    new Gauge({
      name: `${PREFIX}response_cache_bytes`,
      help: 'Bytes of the registry answers held in memory',
      registers,
      collect() {
        this.set(cache.bytes);
      },
    });
    new Gauge({
      name: `${PREFIX}router_engine_loaded`,
      help: '1 once xcm-router has been loaded (on the first router request), else 0',
      registers,
      collect() {
        this.set(isRouterLoaded() ? 1 : 0);
      },
    });
    const states: CounterState[] = ['local', 'redis', 'fallback'];
    new Gauge({
      name: `${PREFIX}rate_limit_counter_store`,
      help: 'Where rate-limit counters live: 1 for the current state (local, redis, fallback = Redis unreachable)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        for (const state of states) this.set({ state }, counters.state === state ? 1 : 0);
      },
    });
  }

  /** One child per (route, method, status): prom-client then skips hashing a label object on every answer. */
  private readonly series = new Map<string, { requests: { inc(): void }; duration: { observe(v: number): void } }>();

  /** Counts and times one answered request; route templates keep the label set bounded. */
  record(route: string, method: string | undefined, status: number, start: bigint): void {
    const key = `${route} ${method} ${status}`;
    let found = this.series.get(key);
    if (!found) {
      const labels = [route, method ?? '', String(status)] as const;
      found = { requests: this.requests.labels(...labels), duration: this.duration.labels(...labels) };
      this.series.set(key, found);
    }
    found.requests.inc();
    found.duration.observe(Number(process.hrtime.bigint() - start) / 1e9);
    if (status === 504) this.deadlineHits.inc({ route });
  }

  /** Counts and times every request once it is answered. */
  middleware(app: Express) {
    recordRouteTemplates(app);
    return (req: Request, res: Response, next: NextFunction): void => {
      const start = process.hrtime.bigint();
      res.on('finish', () => this.record(routeLabel(req), req.method, res.statusCode, start));
      next();
    };
  }

  route(app: Express): void {
    app.get('/metrics', async (_req, res) => {
      res.type(this.registry.contentType).send(await this.registry.metrics());
    });
  }
}
