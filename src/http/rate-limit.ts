import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, type AugmentedRequest } from 'express-rate-limit';
import proxyaddr from 'proxy-addr';
import type { Config } from '../config';
import { InvalidApiKeyError, RateLimitExceededError } from '../errors';
import type { ApiKey, ApiKeys } from '../ops/api-keys';
import type { SharedCounters } from '../ops/shared-counters';
import type { Metrics } from '../ops/metrics';
import { pathOf, routedPath } from './routed-path';

const WINDOW_MS = 60_000;

/** Probes and scrapes must never be refused, whoever sends them (compared as routed). */
const EXEMPT = new Set(['/health', '/ready', '/metrics']);

/** Registry lookups answered from bundled data (and /evm-approve, built from it); POSTs elsewhere under a family reach chains. */
const REGISTRY_POSTS = [/^\/assets\/[^/]+\/[^/]+$/, /^\/balance\/[^/]+\/existential-deposit$/, /^\/router\/pairs$/, /^\/evm-approve$/];

/**
 * Whether a request runs chain work (a transfer, a pre-flight query, a balance, a swap), judged
 * on the routed path. A HEAD runs the GET route (Express answers it with the GET handler).
 */
export function dialsChains(req: Pick<Request, 'method' | 'path'>): boolean {
  const m = /^\/(?:v5|v2)(\/.*)$/.exec(routedPath(req.path));
  if (!m) return false;
  const path = m[1];
  if (req.method === 'GET' || req.method === 'HEAD') return path === '/x-transfer/eth-bridge-status' || path === '/x-transfer/para-eth-fees';
  return req.method === 'POST' && !REGISTRY_POSTS.some((re) => re.test(path));
}

/** Whom a count is for: the key, else the client address (an IPv6 client by its /56). Chain connections a client names are budgeted by the same name. */
export const clientKey = (apiKey: ApiKey | undefined, ip: string): string => (apiKey ? `key:${apiKey.name}` : `ip:${ipKeyGenerator(ip)}`);

declare module 'express-serve-static-core' {
  interface Request {
    apiKey?: ApiKey;
  }
}

export interface RateLimitDeps {
  config: Config;
  counters: SharedCounters;
  metrics: Metrics;
  apiKeys?: ApiKeys;
}

/** Express's compiled TRUST_PROXY (`app.get('trust proxy fn')`): which hops' X-Forwarded-For count. */
export type TrustProxy = (address: string, hop: number) => boolean;

export interface RateLimits {
  /** Counts every request (and chain-dialling ones again); answers 401 and 429. */
  middleware: RequestHandler;
  /** Whether any request can be limited (else `countCached` has nothing to do). */
  readonly apply: boolean;
  /**
   * Counts a cached registry lookup answered before Express, exactly as the middleware would (same
   * store, key and limit), and gives the RateLimit headers it would set, as [name, value, ...].
   * Undefined when the request must go through Express instead: an API key to check, or a client
   * at its limit (the count is given back, and Express counts it again and answers 429).
   */
  countCached(req: IncomingMessage, trust: TrustProxy): Promise<string[] | undefined>;
}

/** express-rate-limit's draft-8 partition key, `base64(hex(sha256(key))[0..12])`; memoised (bounded). */
const partitionKeys = new Map<string, string>();
function partitionKey(key: string): string {
  let found = partitionKeys.get(key);
  if (found === undefined) {
    found = Buffer.from(createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');
    if (partitionKeys.size >= 10_000) partitionKeys.clear();
    partitionKeys.set(key, found);
  }
  return found;
}

/**
 * Per-client limits over a one-minute window: one for every request, a lower one for requests
 * that dial chains. Clients are told apart by address (X-Forwarded-For only from TRUST_PROXY)
 * or, with an X-API-Key, by key; keyed clients get the key's limits.
 */
export function rateLimits({ config, counters, metrics, apiKeys }: RateLimitDeps): RateLimits {
  /** The key a request sent: none, a known one, or `invalid` (answered 401). */
  const apiKeyOf = (sent: string | string[] | undefined): ApiKey | 'invalid' | undefined => {
    if (sent === undefined || !apiKeys) return undefined;
    return (typeof sent === 'string' ? apiKeys.find(sent) : undefined) ?? 'invalid';
  };
  const stores = { all: counters.store('xcm-gateway:rl:all:'), chain: counters.store('xcm-gateway:rl:chain:') };
  const limiter = (name: 'all' | 'chain', anonymous: number, keyed: (key: ApiKey) => number, scope: string) =>
    rateLimit({
      windowMs: WINDOW_MS,
      limit: (req: Request) => (req.apiKey ? keyed(req.apiKey) : anonymous),
      skip: (req: Request) => (req.apiKey ? keyed(req.apiKey) : anonymous) === 0,
      keyGenerator: (req: Request) => clientKey(req.apiKey, req.ip ?? 'unknown'),
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      identifier: name,
      store: stores[name],
      // Forwarded headers from untrusted hops are ignored on purpose (TRUST_PROXY says whose count).
      // The IPv6 check greps keyGenerator's source for `ipKeyGenerator`; ours calls it inside clientKey.
      validate: { xForwardedForHeader: false, keyGeneratorIpFallback: false },
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

  const middleware: RequestHandler = (req, res, next) => {
    if (EXEMPT.has(routedPath(req.path))) {
      next();
      return;
    }
    const apiKey = apiKeyOf(req.headers['x-api-key']);
    if (apiKey === 'invalid') {
      next(new InvalidApiKeyError());
      return;
    }
    req.apiKey = apiKey;
    const afterAll = (error?: unknown) => {
      if (error !== undefined || !dialsChains(req) || !chainLimited) next(error);
      else void chain(req, res, next);
    };
    if (allLimited) void all(req, res, afterAll);
    else afterAll();
  };

  const countCached = async (req: IncomingMessage, trust: TrustProxy): Promise<string[] | undefined> => {
    const apiKey = apiKeyOf(req.headers['x-api-key']);
    if (apiKey === 'invalid') return undefined;
    if (chainLimited && dialsChains({ method: req.method ?? 'GET', path: pathOf(req.url ?? '/') })) return undefined;
    const limit = apiKey ? apiKey.perMinute : config.RATE_LIMIT_PER_MINUTE;
    if (!allLimited || limit === 0) return [];
    const key = clientKey(apiKey, proxyaddr(req, trust));
    const { totalHits, resetTime } = await stores.all.increment(key);
    if (totalHits > limit) {
      await stores.all.decrement(key);
      return undefined;
    }
    const reset = resetTime ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : WINDOW_MS / 1000;
    return ['RateLimit', `"all"; r=${limit - totalHits}; t=${reset}`, 'RateLimit-Policy', `"all"; q=${limit}; w=${WINDOW_MS / 1000}; pk=:${partitionKey(key)}:`];
  };

  return { middleware, apply: allLimited || chainLimited, countCached };
}
