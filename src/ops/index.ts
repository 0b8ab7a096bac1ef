import type { Logger } from 'pino';
import type { Config } from '../config';
import { Metrics } from '../http/metrics';
import { ApiKeys } from './api-keys';
import { SharedCounters } from './shared-counters';

/** What operators see and what protects the service: metrics, rate-limit counters, API keys. */
export interface Ops {
  metrics: Metrics;
  counters: SharedCounters;
  apiKeys?: ApiKeys;
  startedAt: Date;
  close(): Promise<void>;
}

/** Reads API_KEYS_FILE (a bad file stops the start) and connects to REDIS_URL if set. */
export function createOps(config: Config, logger: Logger): Ops {
  const anonymous = { perMinute: config.RATE_LIMIT_PER_MINUTE, chainPerMinute: config.RATE_LIMIT_CHAIN_PER_MINUTE };
  const apiKeys = config.API_KEYS_FILE ? ApiKeys.load(config.API_KEYS_FILE, anonymous) : undefined;
  const counters = new SharedCounters(config.REDIS_URL, logger);
  return { metrics: new Metrics(), counters, apiKeys, startedAt: new Date(), close: () => counters.close() };
}
