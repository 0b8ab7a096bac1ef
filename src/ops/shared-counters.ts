import { Redis } from 'ioredis';
import { MemoryStore, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from 'pino';

/**
 * Where rate-limit counters live: `local` (no REDIS_URL: this replica counts alone), `redis`
 * (shared by every replica), `fallback` (REDIS_URL set but Redis unreachable: each replica
 * counts alone until Redis is back).
 */
export type CounterState = 'local' | 'redis' | 'fallback';

/**
 * The Redis connection behind the rate limiters, and the stores built on it. Redis is a
 * convenience, never a dependency: while it is unreachable every store counts in memory, and
 * the switch back happens on its own when the client reconnects.
 */
export class SharedCounters {
  readonly #client?: Redis;
  readonly #logger: Logger;
  readonly #stores: FailoverStore[] = [];
  #state: CounterState;
  #warned = false;
  #closed = false;
  /** Counts Redis connections made and lost: a load that ends after its connection is gone changes nothing. */
  #connection = 0;

  constructor(redisUrl: string | undefined, logger: Logger) {
    this.#logger = logger.child({ origin: 'redis' });
    this.#state = redisUrl ? 'fallback' : 'local';
    if (!redisUrl) return;
    this.#client = new Redis(redisUrl, {
      // Fail commands at once while disconnected: a request must not wait for Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 250, 2_000),
    });
    this.#client.on('ready', () => {
      // Shared once every limiter's scripts are loaded on this connection: until then a request is
      // counted here (a store not loaded counts in memory, which still holds the fallback's counts).
      const connection = ++this.#connection;
      void Promise.all(this.#stores.map((store) => store.attach())).then((loaded) => {
        if (connection !== this.#connection || this.#closed || !loaded.every(Boolean)) return;
        this.#warned = false;
        this.#logger.info('rate-limit counters are shared through Redis');
        this.#state = 'redis';
      });
    });
    this.#client.on('close', () => this.#unreachable());
    // ioredis reports every failed reconnect; only the first after a loss is worth a warning.
    this.#client.on('error', (error: Error) => {
      this.#logger.debug({ err: error.message }, 'redis client error');
      this.#unreachable();
    });
  }

  get state(): CounterState {
    return this.#state;
  }

  /** A store for one limiter; `prefix` keeps each limiter's keys apart in Redis. */
  store(prefix: string): Store {
    const store = new FailoverStore(prefix, this.#client, () => this.#state === 'redis');
    this.#stores.push(store);
    return store;
  }

  close(): Promise<void> {
    this.#closed = true;
    for (const store of this.#stores) store.shutdown();
    // Counters are disposable: no QUIT handshake (it would wait on a Redis that may be gone).
    this.#client?.disconnect();
    return Promise.resolve();
  }

  /** One warning per loss (also when Redis is down from the start), then per-replica counting. */
  #unreachable(): void {
    if (this.#closed) return;
    this.#connection++;
    if (!this.#warned) {
      this.#warned = true;
      this.#logger.warn('Redis is unreachable: rate limits are counted per replica until it returns');
    }
    this.#state = 'fallback';
  }
}

/** Counts in Redis while it is reachable and its scripts are loaded, in memory otherwise. */
class FailoverStore implements Store {
  readonly localKeys = false;
  readonly #memory = new MemoryStore();
  readonly #redis?: RedisStore;
  #options?: Options;
  /** Whether the Redis store's scripts are loaded on the current connection. */
  #loaded = false;

  constructor(
    readonly prefix: string,
    client: Redis | undefined,
    private readonly redisUp: () => boolean,
  ) {
    if (client) {
      this.#redis = new RedisStore({
        prefix,
        sendCommand: (command: string, ...args: string[]) => client.call(command, ...args) as Promise<RedisReply>,
      });
    }
  }

  init(options: Options): void {
    this.#options = options;
    this.#memory.init(options);
    if (this.redisUp()) void this.attach();
  }

  /** (Re)loads the Redis store's scripts on a fresh connection: whether they loaded (a store not yet given its options has nothing to load). */
  attach(): Promise<boolean> {
    if (!this.#redis || !this.#options) return Promise.resolve(true);
    this.#loaded = false;
    return this.#redis.init(this.#options).then(
      () => (this.#loaded = true),
      () => false, // still unreachable: the next 'ready' tries again
    );
  }

  async increment(key: string): Promise<IncrementResponse> {
    if (this.#redis && this.#loaded && this.redisUp()) {
      try {
        return await this.#redis.increment(key);
      } catch {
        // Lost between the check and the command: this request is counted here instead.
      }
    }
    return this.#memory.increment(key);
  }

  async decrement(key: string): Promise<void> {
    if (this.#redis && this.#loaded && this.redisUp()) await this.#redis.decrement(key).catch(() => undefined);
    else await this.#memory.decrement(key);
  }

  async resetKey(key: string): Promise<void> {
    await this.#memory.resetKey(key);
    if (this.#redis && this.#loaded && this.redisUp()) await this.#redis.resetKey(key).catch(() => undefined);
  }

  shutdown(): void {
    void this.#memory.shutdown();
  }
}
