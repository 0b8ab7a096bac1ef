import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, type AugmentedRequest } from 'express-rate-limit';
import type { Config } from '../config';
import { InvalidApiKeyError, RateLimitExceededError } from '../errors';
import type { ApiKey, ApiKeys } from '../ops/api-keys';
import type { SharedCounters } from '../ops/shared-counters';
import type { Metrics } from './metrics';

const WINDOW_MS = 60_000;

/** Probes and scrapes must never be refused, whoever sends them. */
const EXEMPT = new Set(['/health', '/ready', '/metrics']);

/** Registry lookups answered from bundled data; POSTs elsewhere under a family reach chains. */
const REGISTRY_POSTS = [/^\/assets\/[^/]+\/[^/]+$/, /^\/balance\/[^/]+\/existential-deposit$/, /^\/router\/pairs$/];

/** Whether a request runs chain work (a transfer, a pre-flight query, a balance, a swap). */
export function dialsChains(req: Request): boolean {
  const m = /^\/(?:v5|v2)(\/.*)$/.exec(req.path);
  if (!m) return false;
  const path = m[1].replace(/\/+$/, '');
  if (req.method === 'GET') return path === '/x-transfer/eth-bridge-status';
  return req.method === 'POST' && !REGISTRY_POSTS.some((re) => re.test(path));
}

declare module 'express-serve-static-core' {
  interface Request {
    apiKey?: ApiKey;
  }
}

/** Whether any request can be limited: a limit is on, or API keys may set their own. */
export function rateLimitsApply(config: Config, apiKeys: ApiKeys | undefined): boolean {
  return config.RATE_LIMIT_PER_MINUTE > 0 || config.RATE_LIMIT_CHAIN_PER_MINUTE > 0 || apiKeys !== undefined;
}

export interface RateLimitDeps {
  config: Config;
  counters: SharedCounters;
  metrics: Metrics;
  apiKeys?: ApiKeys;
}

/**
 * Per-client limits over a one-minute window: one for every request, a lower one for requests
 * that dial chains. Clients are told apart by address (X-Forwarded-For only from TRUST_PROXY)
 * or, with an X-API-Key, by key; keyed clients get the key's limits.
 */
export function rateLimits({ config, counters, metrics, apiKeys }: RateLimitDeps): RequestHandler {
  const limiter = (name: 'all' | 'chain', anonymous: number, keyed: (key: ApiKey) => number, scope: string) =>
    rateLimit({
      windowMs: WINDOW_MS,
      limit: (req: Request) => (req.apiKey ? keyed(req.apiKey) : anonymous),
      skip: (req: Request) => (req.apiKey ? keyed(req.apiKey) : anonymous) === 0,
      keyGenerator: (req: Request) => (req.apiKey ? `key:${req.apiKey.name}` : `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`),
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      identifier: name,
      store: counters.store(`xcm-gateway:rl:${name}:`),
      // Forwarded headers from untrusted hops are ignored on purpose (TRUST_PROXY says whose count).
      validate: { xForwardedForHeader: false },
      handler: (req: Request, _res: Response, next: NextFunction) => {
        const info = (req as AugmentedRequest).rateLimit;
        const retryAfter = Math.max(1, Math.ceil(((info.resetTime?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
        req.rateLimited = true;
        metrics.rateLimited.inc({ limiter: name, client: req.apiKey ? 'keyed' : 'anonymous' });
        next(new RateLimitExceededError(info.limit, scope, retryAfter));
      },
    });
  const all = limiter('all', config.RATE_LIMIT_PER_MINUTE, (k) => k.perMinute, 'total');
  const chain = limiter('chain', config.RATE_LIMIT_CHAIN_PER_MINUTE, (k) => k.chainPerMinute, 'chain-dialling');
  // A limit that is off for everyone (0, and no API keys that set their own) costs nothing per request.
  const allLimited = config.RATE_LIMIT_PER_MINUTE > 0 || apiKeys !== undefined;
  const chainLimited = config.RATE_LIMIT_CHAIN_PER_MINUTE > 0 || apiKeys !== undefined;

  return (req, res, next) => {
    if (EXEMPT.has(req.path)) {
      next();
      return;
    }
    const key = req.headers['x-api-key'];
    if (key !== undefined && apiKeys) {
      req.apiKey = typeof key === 'string' ? apiKeys.find(key) : undefined;
      if (!req.apiKey) {
        next(new InvalidApiKeyError());
        return;
      }
    }
    const afterAll = (error?: unknown) => {
      if (error !== undefined || !dialsChains(req) || !chainLimited) next(error);
      else void chain(req, res, next);
    };
    if (allLimited) void all(req, res, afterAll);
    else afterAll();
  };
}
