import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Express } from 'express';
import type { Config } from '../../config';
import type { Ops } from '../../ops';
import type { Services } from '../../service';
import { isRouterLoaded } from '../../service/router';
import type { ResponseCache } from '../response-cache';
import { projectRoot } from '../../project-root';

const REDIS_STATE = { local: 'not configured', redis: 'connected', fallback: 'unreachable' } as const;

/** Where watches are kept, said plainly: in memory they do not outlive the process. */
const WATCHES_KEPT = { memory: 'in memory: watches end with the process', redis: 'in Redis: shared by replicas, kept across restarts' } as const;

/**
 * `GET /status`: what an operator checks with curl. Figures only: no configuration values that
 * could carry secrets (REDIS_URL) and no caller-supplied endpoints (they belong to other clients).
 */
export function statusRoute(app: Express, deps: { config: Config; services: Services; cache: ResponseCache; ops: Ops; sandbox: boolean }): void {
  const { version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
  const { config, services, cache, ops } = deps;

  app.get('/status', async (_req, res) => {
    const open = new Map<string, { open: number; connecting: number }>();
    for (const { chain, state } of services.pool.stats()) {
      const counts = open.get(chain) ?? { open: 0, connecting: 0 };
      counts[state]++;
      open.set(chain, counts);
    }
    const chains: Record<string, unknown> = {};
    for (const [chain, record] of [...services.chainActivity.chains()].sort(([a], [b]) => a.localeCompare(b))) {
      const connections = open.get(chain) ?? { open: 0, connecting: 0 };
      const connected = connections.open > 0;
      chains[chain] = {
        connected,
        connectedSince: connected ? (record.connectedAt?.toISOString() ?? null) : null,
        endpoint: connected ? (record.endpoint ?? null) : null,
        connections,
        requestsServed: record.requestsServed,
        connectAttempts: record.connectAttempts,
        lastFailure: record.lastFailure ? { reason: record.lastFailure.reason, at: record.lastFailure.at.toISOString() } : null,
      };
    }
    // Counts are left out (null) when the backend cannot answer now: /status still answers.
    const watchCounts = await services.watches.counts().catch(() => null);
    res.json({
      service: 'xcm-gateway',
      // The sandbox serves emulated chains (npm run sandbox): never to be taken for a live service.
      mode: deps.sandbox ? 'sandbox' : 'live',
      version,
      runtime: `Node.js ${process.version}`,
      startedAt: ops.startedAt.toISOString(),
      uptimeSeconds: Math.floor((Date.now() - ops.startedAt.getTime()) / 1000),
      ready: services.ready(),
      chains,
      rateLimits: {
        perMinute: config.RATE_LIMIT_PER_MINUTE,
        chainPerMinute: config.RATE_LIMIT_CHAIN_PER_MINUTE,
        apiKeys: ops.apiKeys?.size ?? 0,
        counters: ops.counters.state,
      },
      redis: REDIS_STATE[ops.counters.state],
      cache: { entries: cache.size, bytes: cache.bytes },
      router: { loaded: isRouterLoaded() },
      watches: { backend: services.watches.kind, kept: WATCHES_KEPT[services.watches.kind], localReceivers: services.watches.localReceivers, counts: watchCounts },
    });
  });
}
