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

  static load(path: string): ApiKeys {
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
    return new ApiKeys(parsed.data);
  }

  get size(): number {
    return this.#byHash.size;
  }

  find(key: string): ApiKey | undefined {
    return this.#byHash.get(hashApiKey(key));
  }
}
