import { Resolver } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

const DAY_MS = 86_400_000;

const ms = (fallback: number) => z.coerce.number().int().positive().max(3_600_000).default(fallback);

/** Requests per minute and client; 0 turns the limit off. */
const perMinute = (fallback: number) => z.coerce.number().int().min(0).max(1_000_000_000).default(fallback);

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * The proxies whose X-Forwarded-For counts, in Express's `trust proxy` terms: empty (none, the
 * default), a hop count, or a comma-separated list of addresses, CIDR ranges and the names
 * loopback, linklocal, uniquelocal. `true` (trust anyone) is refused: clients could then pick
 * their own address and escape the rate limits.
 */
const trustProxy = z
  .string()
  .default('')
  .transform((v) => v.trim())
  .refine(
    (v) => v === '' || /^\d+$/.test(v) || v.split(',').every((t) => PROXY_NAMES.has(t.trim()) || isAddressOrRange(t.trim())),
    'must be a hop count or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal',
  )
  .transform((v): string | number | false => (v === '' ? false : /^\d+$/.test(v) ? Number(v) : v));

function isAddressOrRange(token: string): boolean {
  if (ipaddr.isValid(token)) return true;
  try {
    ipaddr.parseCIDR(token);
    return true;
  } catch {
    return false;
  }
}
const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
/** `64mb` -> bytes (a bare number is bytes). */
export const bytesOf = (size: string): number => {
  const [, digits, unit = 'b'] = /^(\d+)([a-z]*)$/i.exec(size) ?? [];
  return Number(digits) * (UNITS[unit.toLowerCase()] ?? 1);
};

/** A 256-bit key, as 64 hex digits or the base64 of 32 bytes (`openssl rand -base64 32`). */
export const encryptionKeyBytes = (key: string): Buffer => (/^[0-9a-f]{64}$/i.test(key) ? Buffer.from(key, 'hex') : Buffer.from(key, 'base64'));
/** Empty is unset (compose passes `${WATCH_ENCRYPTION_KEY_PREVIOUS:-}` as ''). */
const encryptionKey = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .string()
    .trim()
    .refine((k) => /^[0-9a-f]{64}$/i.test(k) || (/^[A-Za-z0-9+/]{43}=$/.test(k) && encryptionKeyBytes(k).length === 32), 'must be 32 bytes: 64 hex digits or base64 (openssl rand -base64 32)')
    .optional(),
);

const wsUrl = z
  .string()
  .url()
  .refine((u) => /^wss?:\/\//i.test(u) && !/^wss?:\/\/[^/]*@/i.test(u), 'must be a ws:// or wss:// URL without credentials');

/**
 * The operator's own endpoints for some chains, dialled in place of the registry's (the sandbox
 * points the chains it runs at its local nodes this way): a JSON object from chain name to a URL
 * or a list of URLs. The operator chose them, so private and loopback addresses are allowed here,
 * whatever ALLOW_PRIVATE_OVERRIDES says of callers' overrides.
 */
const chainEndpoints = z
  .string()
  .default('{}')
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object such as {"Polkadot":"wss://node.example/polkadot"}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'must be a chain name'), z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(wsUrl, 'must be a URL or a list of URLs').min(1, 'must name an endpoint').max(8))));

/**
 * Name servers for the names clients choose: comma-separated `ip`, `ip:port` or `[ipv6]:port`;
 * unset (the default) for the system's (/etc/resolv.conf).
 */
const dnsServers = z
  .string()
  .transform((v) => v.split(',').map((t) => t.trim()).filter((t) => t !== ''))
  .refine((servers) => {
    try {
      new Resolver().setServers(servers);
      return true;
    } catch {
      return false;
    }
  }, 'must be a comma-separated list of name servers: ip, ip:port or [ipv6]:port')
  .optional();

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3001),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)?$/i, 'must be a size such as 100kb or 1mb')
    .default('100kb'),
  CONNECT_TIMEOUT_MS: ms(10_000),
  REQUEST_TIMEOUT_MS: ms(30_000),
  IDLE_TIMEOUT_MS: ms(300_000),
  // A connection to endpoints a client named closes this soon after its last use (at most IDLE_TIMEOUT_MS):
  // what a client held at its nodes goes soon after it leaves. See docs/security.md "Fair connections".
  CLIENT_IDLE_TIMEOUT_MS: ms(500),
  MAX_CHAINS: z.coerce.number().int().positive().max(1000).default(32),
  // Connections to endpoints clients name (apiOverrides, ?endpoint=), apart from MAX_CHAINS: see README "Fair connections".
  MAX_OVERRIDE_CONNECTIONS: z.coerce.number().int().positive().max(1000).default(8),
  // Less than half of MAX_OVERRIDE_CONNECTIONS (loadConfig checks): two clients never fill the total.
  MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: z.coerce.number().int().positive().max(1000).default(3),
  MAX_OVERRIDE_CONNECTIONS_PER_HOST: z.coerce.number().int().positive().max(1000).default(4),
  // Names clients choose (apiOverrides and webhook hosts), resolved with c-ares, off the thread pool:
  // see docs/security.md "Name lookups".
  DNS_TIMEOUT_MS: ms(2_000),
  DNS_MAX_LOOKUPS_PER_CLIENT: z.coerce.number().int().positive().max(1000).default(4),
  DNS_SERVERS: dnsServers,
  SHUTDOWN_GRACE_MS: ms(10_000),
  ALLOW_PRIVATE_OVERRIDES: bool.default(false),
  CORS_ORIGIN: z.string().min(1).default('*'),
  /** Ethereum JSON-RPC for Snowbridge fee quotes; unset means the registry's public endpoint. */
  ETHEREUM_RPC_URL: z.string().url().refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL').optional(),
  /** Endpoints per chain in place of the registry's (JSON); see `chainEndpoints`. */
  CHAIN_ENDPOINTS: chainEndpoints,
  // ---- operations: rate limits, shared counters, API keys ----
  RATE_LIMIT_PER_MINUTE: perMinute(600),
  RATE_LIMIT_CHAIN_PER_MINUTE: perMinute(60),
  TRUST_PROXY: trustProxy,
  API_KEYS_FILE: z.string().min(1).optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  // Chain sockets and the HTTP server (issue 9): see docs/security.md.
  CHAIN_MAX_FRAME_BYTES: z.coerce.number().int().min(1024).max(256 * 1024 * 1024).default(16 * 1024 * 1024),
  MAX_METADATA_DECODING: z.coerce.number().int().positive().max(64).default(2),
  // Runtimes a client's nodes make the service decode per minute (0: no bound): docs/security.md "Decoded runtimes".
  METADATA_DECODES_PER_CLIENT_PER_MINUTE: perMinute(6),
  /** Route shapes whose proven answer is kept to build the next transfer of that shape without the SDK; 0 turns it off. */
  BUILD_TEMPLATES: z.coerce.number().int().min(0).max(100_000).default(1000),
  HEADERS_TIMEOUT_MS: ms(10_000),
  HTTP_REQUEST_TIMEOUT_MS: ms(30_000),
  KEEP_ALIVE_TIMEOUT_MS: ms(65_000),
  HTTP_WRITE_TIMEOUT_MS: ms(30_000),
  MAX_REQUESTS_PER_SOCKET: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  CACHE_MAX_BYTES: z
    .string()
    .regex(/^\d+(b|kb|mb|gb)?$/i, 'must be a size such as 64mb')
    .default('64mb')
    .transform(bytesOf),
  // Following transfers (POST /x-transfer/status): see docs/status.md.
  TRACK_LOOKBACK_BLOCKS: z.coerce.number().int().positive().max(600).default(100),
  TRACK_MAX_BLOCKS: z.coerce.number().int().positive().max(100_000).default(600),
  TRACK_TIMEOUT_MS: ms(180_000),
  TRACK_MAX_STREAMS: z.coerce.number().int().positive().max(100_000).default(200),
  // Watches and their webhooks (POST /x-transfer/watch): see docs/watches.md.
  WATCH_TIMEOUT_MS: z.coerce.number().int().positive().max(7 * DAY_MS).default(3_600_000),
  WATCH_BRIDGE_TIMEOUT_MS: z.coerce.number().int().positive().max(7 * DAY_MS).default(DAY_MS),
  WATCH_RETRY_FIRST_MS: ms(5_000),
  WATCH_RETRY_MAX_MS: ms(3_600_000),
  WATCH_RETRY_FOR_MS: z.coerce.number().int().positive().max(7 * DAY_MS).default(DAY_MS),
  WATCH_DELIVERY_TIMEOUT_MS: ms(10_000),
  WATCH_DELIVERY_CUT_MS: ms(2_000),
  WATCH_MAX_DELIVERIES: z.coerce.number().int().positive().max(10_000).default(64),
  WATCH_MAX_DELIVERIES_PER_CLIENT: z.coerce.number().int().positive().max(10_000).default(16),
  WATCH_MAX_DELIVERIES_PER_HOST: z.coerce.number().int().positive().max(10_000).default(16),
  WATCH_RETAIN_MS: z.coerce.number().int().positive().max(30 * DAY_MS).default(DAY_MS),
  WATCH_LEASE_MS: ms(30_000),
  WATCH_RETAIN_PER_CLIENT: z.coerce.number().int().positive().max(1_000_000).default(500),
  WATCH_RETAIN_BYTES_PER_CLIENT: z
    .string()
    .regex(/^\d+(b|kb|mb|gb)?$/i, 'must be a size such as 2mb')
    .default('2mb')
    .transform(bytesOf)
    .refine((n) => n >= 1024, 'must be at least 1kb'),
  // Sealing webhook secrets and URLs in Redis (AES-256-GCM); the previous key still opens records during a rotation.
  WATCH_ENCRYPTION_KEY: encryptionKey,
  WATCH_ENCRYPTION_KEY_PREVIOUS: encryptionKey,
  MAX_WATCHES: z.coerce.number().int().positive().max(1_000_000).default(20_000),
  MAX_WATCHES_PER_CLIENT: z.coerce.number().int().positive().max(1_000_000).default(100),
  // Work one request may make nodes cause (a status lookback, a metadata read, an events decode):
  // see README "Security and limits".
  REQUEST_MAX_CHAIN_BYTES: z
    .string()
    .regex(/^\d+(b|kb|mb|gb)?$/i, 'must be a size such as 64mb')
    .default('64mb')
    .transform(bytesOf)
    .refine((n) => n >= 1024, 'must be at least 1kb'),
  REQUEST_MAX_CHAIN_ITEMS: z.coerce.number().int().positive().max(100_000_000).default(100_000),
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** Reads the configuration from the environment; a bad value names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  const { MAX_OVERRIDE_CONNECTIONS: total, MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: perClient } = parsed.data;
  if (total <= 2 * perClient) {
    throw new ConfigError(`Invalid configuration: MAX_OVERRIDE_CONNECTIONS (${total}) must be more than twice MAX_OVERRIDE_CONNECTIONS_PER_CLIENT (${perClient}), so that two clients can never lock a third out`);
  }
  return parsed.data;
}

/** Every variable the service reads (deployment manifests are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);
