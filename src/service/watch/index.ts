// Watches (POST /x-transfer/watch): a transfer followed on the client's behalf, and a signed webhook
// for each change of its status. This door makes, shows and ends watches; the follower (follower.ts)
// reads the chains, the sender delivers, the backend (memory, or Redis shared by replicas) keeps
// watches and their queues and hands this process its share of the work.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import { AddressRefusedError, type AddressGuard } from '../../chains/address-guard';
import { asClient } from '../../chains/clients';
import { ApiError, TooManyLookupsError } from '../../errors';
import type { WatchRequest } from '../../schemas/watch';
import { crossesBridge, type StatusAnswer, type StatusService } from '../status';
import type { BackendKind, WatchBackend, WatchCounts } from './backend';
import { senderFrom, type DeliveryObserver, type DeliveryTry } from './delivery';
import { follower, SAVE_EVERY_MS } from './follower';
import { compactProgress, firstEvents, resumeOf } from './recorder';
import { MemoryBackend } from './memory-backend';
import { RedisBackend } from './redis-backend';
import { compact, type Delivery, type DeliveryResult, type Watch, type WatchEvent, type WatchProgress } from './model';
import { retryPolicyFrom } from './retry';
import { sealerFrom } from './sealing';
import { newSecret } from './signing';

export type { BackendKind, WatchCounts } from './backend';
export type { DeliveryObserver, DeliveryTry } from './delivery';

/** What `POST /x-transfer/watch` answers (201). */
export interface CreatedWatch {
  id: string;
  /** The signing secret: the client's, or one made for it. */
  secret: string;
  status: StatusAnswer;
}

/** What `GET /x-transfer/watch/:id` answers: never the secret. */
export interface WatchAnswer {
  id: string;
  status: StatusAnswer;
  /** `following` until the watch ends: `final`, `timeout` or `deleted`. */
  state: 'following' | 'final' | 'timeout' | 'deleted';
  createdAt: string;
  expiresAt: string;
  webhook: { url: string };
  deliveries: DeliveryAnswer[];
}

export interface DeliveryAnswer {
  eventId: string;
  type: string;
  state: Delivery['state'];
  attempts: number;
  lastCode?: number;
  lastError?: string;
  lastAt?: string;
  nextAt?: string;
}

/** Sends one event (the webhook sender): never rejects. */
export type Send = (watch: Watch, event: WatchEvent, cut?: AbortSignal) => Promise<DeliveryResult>;

/** The watch service the config asks for: watches in Redis with REDIS_URL, else in memory. */
export function createWatchService(config: Config, status: StatusService, guard: AddressGuard, logger: Logger): WatchService {
  const observers: DeliveryObserver[] = [];
  const sender = senderFrom(config, guard, { tried: (report: DeliveryTry) => observers.forEach((o) => o.tried(report)) });
  const options = {
    maxWatches: config.MAX_WATCHES,
    maxWatchesPerClient: config.MAX_WATCHES_PER_CLIENT,
    maxDeliveries: config.WATCH_MAX_DELIVERIES,
    maxDeliveriesPerClient: config.WATCH_MAX_DELIVERIES_PER_CLIENT,
    maxDeliveriesPerHost: config.WATCH_MAX_DELIVERIES_PER_HOST,
    deliveryCutMs: config.WATCH_DELIVERY_CUT_MS,
    retainMs: config.WATCH_RETAIN_MS,
    retainPerClient: config.WATCH_RETAIN_PER_CLIENT,
    retainBytesPerClient: config.WATCH_RETAIN_BYTES_PER_CLIENT,
    leaseMs: config.WATCH_LEASE_MS,
    retry: retryPolicyFrom(config),
  };
  const backend = config.REDIS_URL ? new RedisBackend(config.REDIS_URL, options, logger, undefined, sealerFrom(config)) : new MemoryBackend(options);
  return new WatchService(
    { status, guard, config, logger, backend, send: (watch, event, cut) => sender.send(watch.webhook, event, cut), closeSender: () => sender.close() },
    observers,
  );
}

export interface WatchServiceDeps {
  status: Pick<StatusService, 'track' | 'wait'>;
  backend: WatchBackend;
  guard: AddressGuard;
  send: Send;
  /** Closes the sender's kept receiver connections, once the backend has stopped. */
  closeSender?: () => void;
  config: Pick<Config, 'WATCH_TIMEOUT_MS' | 'WATCH_BRIDGE_TIMEOUT_MS' | 'WATCH_RETRY_FIRST_MS' | 'WATCH_RETRY_MAX_MS' | 'MAX_WATCHES' | 'MAX_WATCHES_PER_CLIENT'>;
  logger: Logger;
}

/** 144 random bits, url-safe: 24 characters (schemas/watch.ts checks the form). */
const newWatchId = (): string => randomBytes(18).toString('base64url');

const notFound = (): ApiError => new ApiError(404, 'WatchNotFoundError', 'No such watch (or not yours): ids are answered only to the client that made them');

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

export class WatchService {
  readonly #deps: WatchServiceDeps;
  readonly #observers: DeliveryObserver[];

  /** `observers`: whom the sender tells of each try (filled by `observe`). */
  constructor(deps: WatchServiceDeps, observers: DeliveryObserver[] = []) {
    this.#deps = deps;
    this.#observers = observers;
    const { backend, status, logger, config, send } = deps;
    // Only a backend shared by processes needs a waiting watch's position recorded: another takes it over.
    const saveEveryMs = backend.kind === 'redis' ? SAVE_EVERY_MS : undefined;
    const follow = follower({ status, backend, logger, firstBackoffMs: config.WATCH_RETRY_FIRST_MS, maxBackoffMs: config.WATCH_RETRY_MAX_MS, saveEveryMs });
    // The work runs outside any request (BullMQ workers, the memory backend's queue and timers):
    // on behalf of the watch's owner, whose connection and lookup budgets it spends (the follower
    // runs each of its reads so).
    backend.start(
      follow,
      // The backend's attempt number is its own business: the sender signs every try alike.
      (watch, event, _attempt, cut) => asClient(watch.owner, () => send(watch, event, cut)),
    );
  }

  /** Where watches live (memory: they end with the process). */
  /** Whether webhook receivers on this machine (or the operator's network) are called. */
  get localReceivers(): boolean {
    return this.#deps.guard.allowPrivate || this.#deps.guard.allowLoopback;
  }

  get kind(): BackendKind {
    return this.#deps.backend.kind;
  }

  /** Tells `observer` of every webhook try (metrics). */
  observe(observer: DeliveryObserver): void {
    this.#observers.push(observer);
  }

  counts(): Promise<WatchCounts> {
    return this.#deps.backend.counts();
  }

  /**
   * Makes a watch for `owner` (the client key): the webhook's host checked, the status read now as
   * `POST /x-transfer/status` reads it, then stored within MAX_WATCHES (503) and
   * MAX_WATCHES_PER_CLIENT (429), which count every watch followed or owing webhooks.
   */
  async create(request: WatchRequest, owner: string): Promise<CreatedWatch> {
    const { status, backend, config } = this.#deps;
    await this.#checkHost(request.webhook.url);
    const tracking = await status.track(request.status, new AbortController().signal);
    let answer: StatusAnswer;
    let progress: WatchProgress;
    let settledAt: number | undefined;
    try {
      answer = tracking.answer();
      settledAt = tracking.settledAt();
      progress = { status: answer, resume: resumeOf(tracking, answer), events: 0 };
    } finally {
      tracking.release();
    }
    const createdAt = Date.now();
    const watch: Watch = compact({
      id: newWatchId(),
      owner,
      request: request.status,
      webhook: { url: request.webhook.url, secret: request.webhook.secret ?? newSecret() },
      createdAt,
      expiresAt: createdAt + (crossesBridge(request.status) ? config.WATCH_BRIDGE_TIMEOUT_MS : config.WATCH_TIMEOUT_MS),
    });
    const events = firstEvents(watch, answer, settledAt);
    const added = await this.#store(() => backend.add(watch, compactProgress({ ...progress, events: events.length, ...(answer.final ? { ended: 'final' } : {}) }), events));
    if (added === 'MAX_WATCHES') {
      throw new ApiError(503, 'TooManyWatchesError', `${config.MAX_WATCHES} watches (MAX_WATCHES) are followed or owe webhooks on this service; retry later`, undefined, { 'Retry-After': '60' });
    }
    if (added === 'MAX_WATCHES_PER_CLIENT') {
      throw new ApiError(429, 'TooManyWatchesError', `You have ${config.MAX_WATCHES_PER_CLIENT} watches followed or owing webhooks (MAX_WATCHES_PER_CLIENT); end one (DELETE) or wait for one to end and its webhooks to be delivered`);
    }
    return { id: watch.id, secret: watch.webhook.secret, status: answer };
  }

  /** The watch, if `owner` made it (anyone else is told it does not exist). */
  async get(id: string, owner: string): Promise<WatchAnswer> {
    const view = await this.#store(() => this.#deps.backend.get(id));
    if (!view || view.watch.owner !== owner) throw notFound();
    const { watch, progress, deliveries } = view;
    return {
      id: watch.id,
      status: progress.status,
      state: progress.ended ?? 'following',
      createdAt: iso(watch.createdAt)!,
      expiresAt: iso(watch.expiresAt)!,
      webhook: { url: watch.webhook.url },
      deliveries: deliveries.map((d) => ({
        eventId: d.eventId,
        type: d.type,
        state: d.state,
        attempts: d.attempts,
        ...(d.lastCode !== undefined ? { lastCode: d.lastCode } : {}),
        ...(d.lastError !== undefined ? { lastError: d.lastError } : {}),
        ...(d.lastAt !== undefined ? { lastAt: iso(d.lastAt) } : {}),
        ...(d.nextAt !== undefined ? { nextAt: iso(d.nextAt) } : {}),
      })),
    };
  }

  /** Ends the watch, if `owner` made it: following stops, undelivered events are cancelled. */
  async remove(id: string, owner: string): Promise<void> {
    const { backend } = this.#deps;
    const view = await this.#store(() => backend.get(id));
    if (!view || view.watch.owner !== owner || !(await this.#store(() => backend.remove(id)))) throw notFound();
  }

  async close(): Promise<void> {
    await this.#deps.backend.close();
    this.#deps.closeSender?.();
  }

  /** A backend call; a store that fails (Redis unreachable) is a 503 the client may retry, not a 500. */
  async #store<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.#deps.logger.warn({ err: error }, 'the watch store failed');
      throw new ApiError(503, 'WatchStoreUnavailableError', 'Watches cannot be read or stored right now; retry shortly', undefined, { 'Retry-After': '5' });
    }
  }

  /**
   * The webhook's host resolves, and passes the guard overrides pass: every address public, unless
   * the operator allows private ones. The message names the host, never the URL (it may carry a
   * token). The sender checks again at each new connection (names can change their answer).
   */
  async #checkHost(url: string): Promise<void> {
    const { guard } = this.#deps;
    const host = new URL(url).hostname;
    try {
      await guard.addressesOf(host);
    } catch (error) {
      if (error instanceof TooManyLookupsError) throw error;
      const refused = error instanceof AddressRefusedError;
      const why = refused ? ' (its operator allows private receivers with ALLOW_PRIVATE_OVERRIDES=true; the sandbox allows those on its own machine)' : '';
      throw new ApiError(400, 'ValidationError', `webhook.url: ${(error as Error).message}, which this service does not call${why}`, [
        { path: 'body.webhook.url', message: refused ? 'must point at a public address' : 'must name a host that resolves' },
      ]);
    }
  }
}
