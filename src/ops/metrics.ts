// Every figure /metrics exposes, in one prom-client registry. What it observes (the connection
// pool, chain activity, the response cache, the router) it reads through MetricsSources, which the
// HTTP layer fills in: ops imports neither http nor service.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ChainActivity } from './chain-activity';
import { RequestFigures } from './request-figures';
import type { CounterState, SharedCounters } from './shared-counters';

const PREFIX = 'xcm_gateway_';

/** What the figures read at scrape time. */
export interface MetricsSources {
  /** Chain connections, one entry per connection (open or connecting) with its borrow count. */
  connections(): Iterable<{ chain: string; state: string; leases: number }>;
  chainActivity: Pick<ChainActivity, 'chains'>;
  /** Answers held by the response cache. */
  cache: { readonly size: number; readonly bytes: number };
  /** Whether xcm-router has been loaded. */
  routerLoaded(): boolean;
  counters: Pick<SharedCounters, 'state'>;
  /** Watches: how many are followed, ended and queued for delivery (in the backend, all replicas with Redis). */
  watches: { counts(): Promise<{ open: number; ended: number; queued: number }> };
}

/** One webhook try, as the watch service reports it. */
export interface WebhookTry {
  /** `delivered`, or why not (`rejected`, `redirected`, `timeout`, `refused`, `failed`). */
  outcome: string;
  /** Epoch ms of the block that settled the change the event tells, when known. */
  settledAt?: number;
}

/** Every figure /metrics exposes, in one registry per app (tests build many apps in one process). */
export class Metrics {
  readonly registry = new Registry();
  /** Answers by route template, method and status: `xcm_gateway_http_requests_total` and `..._duration_seconds`. */
  private readonly answers = new RequestFigures(
    this.registry,
    { requests: `${PREFIX}http_requests_total`, duration: `${PREFIX}http_request_duration_seconds` },
    [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
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

  readonly routeChecks = new Counter({
    name: `${PREFIX}route_checks_total`,
    help: 'Call data checked hop by hop before it is answered, by outcome (passed, warned, refused) and origin chain',
    labelNames: ['outcome', 'origin'] as const,
    registers: [this.registry],
  });

  readonly webhookTries = new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: 'Webhook tries by outcome (delivered, rejected, redirected, timeout, refused, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookLatency = new Histogram({
    name: `${PREFIX}webhook_delivery_latency_seconds`,
    help: 'From the block that settled a change (its timestamp) to the 2xx of the webhook telling it',
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Figures read from the live objects at scrape time. */
  /** Counts one webhook try; a delivery also times its latency from the settling block. */
  webhookTried({ outcome, settledAt }: WebhookTry): void {
    this.webhookTries.inc({ outcome });
    if (outcome === 'delivered' && settledAt !== undefined) this.webhookLatency.observe(Math.max(0, Date.now() - settledAt) / 1000);
  }

  observe({ connections, chainActivity, cache, routerLoaded, counters, watches }: MetricsSources): void {
    const registers = [this.registry];
    new Gauge({
      name: `${PREFIX}chain_connections`,
      help: 'Chain connections in the pool, by chain and state (open, connecting, idle; idle ones are also open)',
      labelNames: ['chain', 'state'] as const,
      registers,
      collect() {
        this.reset();
        for (const { chain, state, leases } of connections()) {
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
        for (const [chain, record] of chainActivity.chains()) this.inc({ chain }, record.connectAttempts);
      },
    });
    new Counter({
      name: `${PREFIX}chain_connect_failures_total`,
      help: 'Connects that failed, by chain and reason (timeout, refused, dns, closed, cancelled, other)',
      labelNames: ['chain', 'reason'] as const,
      registers,
      collect() {
        this.reset();
        for (const [chain, record] of chainActivity.chains()) {
          for (const [reason, count] of Object.entries(record.failures)) this.inc({ chain, reason }, count);
        }
      },
    });
    new Counter({
      name: `${PREFIX}chain_runtimes_total`,
      help: 'Connects by where their decoded runtime came from (decoded: a metadata decode; shared: a registry connection\'s; cached: an earlier decode of the same answers), by chain',
      labelNames: ['chain', 'runtime'] as const,
      registers,
      collect() {
        this.reset();
        for (const [chain, record] of chainActivity.chains()) {
          for (const [runtime, count] of Object.entries(record.runtimes)) this.inc({ chain, runtime }, count);
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
        this.set(routerLoaded() ? 1 : 0);
      },
    });
    // A backend that cannot answer (Redis away) leaves the gauges as they were: the scrape still succeeds.
    const watchCount = (gauge: Gauge, key: 'open' | 'queued') => async (): Promise<void> => {
      const counts = await watches.counts().catch(() => undefined);
      if (counts) gauge.set(counts[key]);
    };
    new Gauge({
      name: `${PREFIX}watches_open`,
      help: 'Watches still followed',
      registers,
      collect() {
        return watchCount(this, 'open')();
      },
    });
    new Gauge({
      name: `${PREFIX}webhook_queue_depth`,
      help: 'Webhook events waiting for (or between) delivery tries',
      registers,
      collect() {
        return watchCount(this, 'queued')();
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

  /** Counts and times one answered request; route templates keep the label set bounded. */
  record(route: string, method: string | undefined, status: number, start: bigint): void {
    this.answers.record(route, method ?? '', status, Number(process.hrtime.bigint() - start) / 1e9);
    if (status === 504) this.deadlineHits.inc({ route });
  }
}
