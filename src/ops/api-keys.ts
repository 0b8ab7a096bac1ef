import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config';

/** A client with a key gets its own limits (requests per minute; 0 means unlimited). */
export interface ApiKey {
  /** Names the client in logs, metrics and rate-limit counters; never the key itself. */
  name: string;
  perMinute: number;
  chainPerMinute: number;
}

const keyFile = z
  .array(
    z
      .object({
        name: z.string().regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - (at most 64)'),
        sha256: z.string().regex(/^[0-9a-f]{64}$/i, 'the SHA-256 of the key, 64 hex digits'),
        perMinute: z.number().int().min(0),
        chainPerMinute: z.number().int().min(0),
      })
      .strict(),
  )
  .refine((keys) => new Set(keys.map((k) => k.name)).size === keys.length, 'names must be unique');

/** The limits of a client without a key (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_CHAIN_PER_MINUTE; 0 means off). */
export interface AnonymousLimits {
  perMinute: number;
  chainPerMinute: number;
}

const ANONYMOUS_NAMES = { perMinute: 'RATE_LIMIT_PER_MINUTE', chainPerMinute: 'RATE_LIMIT_CHAIN_PER_MINUTE' } as const;

/** 0 is no limit, on both sides. */
const asLimit = (perMinute: number): number => (perMinute === 0 ? Infinity : perMinute);

/** Why `key` would lower a limit instead of raising it, one line per limit. */
function belowAnonymous(key: ApiKey, anonymous: AnonymousLimits): string[] {
  return (['perMinute', 'chainPerMinute'] as const)
    .filter((limit) => asLimit(key[limit]) < asLimit(anonymous[limit]))
    .map((limit) => {
      const shown = anonymous[limit] === 0 ? '0 (no limit)' : String(anonymous[limit]);
      return `key '${key.name}': ${limit} ${key[limit]} is below ${ANONYMOUS_NAMES[limit]} ${shown}; a key can only raise a limit (its client would get more by sending no key)`;
    });
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * The keys of `API_KEYS_FILE`: a JSON array of `{ name, sha256, perMinute, chainPerMinute }`.
 * Only hashes are stored, so the file is no secret worth stealing; a request's key is hashed and
 * looked up.
 */
export class ApiKeys {
  readonly #byHash: Map<string, ApiKey>;

  constructor(keys: (ApiKey & { sha256: string })[]) {
    this.#byHash = new Map(keys.map(({ sha256, ...key }) => [sha256.toLowerCase(), key]));
  }

  /**
   * Reads the file. A key's limit replaces the anonymous one for whoever sends it, so a key below
   * the anonymous limit would limit nothing: its client gets more by sending no key. Such a key
   * stops the start, named, rather than giving an operator a cap that does not hold.
   */
  static load(path: string, anonymous: AnonymousLimits): ApiKeys {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new ConfigError(`Invalid configuration: API_KEYS_FILE: cannot read ${path} as JSON (${(error as Error).message})`);
    }
    const parsed = keyFile.safeParse(raw);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`);
      throw new ConfigError(`Invalid configuration: API_KEYS_FILE: ${lines.join('; ')}`);
    }
    const below = parsed.data.flatMap((key) => belowAnonymous(key, anonymous));
    if (below.length > 0) throw new ConfigError(`Invalid configuration: API_KEYS_FILE: ${below.join('; ')}`);
    return new ApiKeys(parsed.data);
  }

  get size(): number {
    return this.#byHash.size;
  }

  find(key: string): ApiKey | undefined {
    return this.#byHash.get(hashApiKey(key));
  }
}
