// The watch backend with REDIS_URL: records in Redis (redis-store.ts), work carried by two BullMQ
// queues that every replica serves, so a replica that dies loses nothing.
// - `follow`: one job per open watch (job id = watch id). Its processor runs the follow work for as
//   long as the watch is followed; the job's lock, renewed by the worker, is the lease. A replica
//   killed with SIGKILL stops renewing, its jobs stall, and another replica's worker takes them and
//   carries on from the recorded progress.
// - `deliver`: one job per event when it becomes its watch's head (job id = event id). A refused try
//   moves the job to delayed until the next try; once the event is settled, the job queues the next.
//   The worker takes every job that is due (at most one per watch) and each waits in this process for
//   its turn at a delivery slot (fair-slots.ts): taking them first come first served would let one
//   owner's hung receivers hold every slot while another's jobs wait in the queue behind them.
// The records decide, not the jobs: a job that finds its event settled or its watch gone does
// nothing, so a job run twice (after a stall) never makes a second, different delivery.
import { DelayedError, Queue, WaitingError, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BackendOptions, DeliverWork, FollowWork, Following, WatchBackend, WatchCounts, WatchView } from './backend';
import { FairSlots, hostOf } from './fair-slots';
import type { Watch, WatchEvent, WatchProgress } from './model';
import { WatchStore, type DeliveryTurn } from './redis-store';
import { sealerFrom, type Sealer } from './sealing';
import { afterTry, failedTry, waiting } from './tries';

interface FollowJob {
  id: string;
}

interface DeliverJob {
  id: string;
  seq: number;
}

/** Why a follower's signal aborts: only on `closing` does this process hand its job back at once. */
const CLOSING = 'closing';
const REMOVED = 'removed';
const LEASE_LOST = 'lease lost';

/** Jobs are triggers (the records hold the state): gone once done, retried through Redis errors. */
const jobOptions = (leaseMs: number): JobsOptions => ({
  removeOnComplete: true,
  removeOnFail: true,
  attempts: 1_000_000,
  backoff: { type: 'fixed', delay: leaseMs },
});

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** How long a close waits for BullMQ's workers when Redis is unreachable (see close()). */
const UNREACHABLE_CLOSE_MS = 1_000;
/**
 * How long a close waits for its watches to be handed back (one Redis round trip each, after each
 * follower stopped): what is not handed back by then is taken over a lease later, as after a crash.
 * Shutdown stays within seconds (Kubernetes kills a pod 30 s after SIGTERM).
 */
const HAND_BACK_MS = 5_000;

export class RedisBackend implements WatchBackend {
  readonly kind = 'redis' as const;
  readonly #options: BackendOptions;
  readonly #logger: Logger;
  /**
   * Our commands and the queues': they fail (a few reconnects, or 2 s without an answer) rather
   * than hold a request or a follower while Redis is away.
   */
  readonly #redis: Redis;
  /** The workers' (they block waiting for jobs, and wait through a reconnect). */
  readonly #bull: Redis;
  readonly #subscriber: Redis;
  readonly #store: WatchStore;
  readonly #follows: Queue<FollowJob>;
  readonly #deliveries: Queue<DeliverJob>;
  readonly #jobOptions: JobsOptions;
  #workers?: { follow: Worker<FollowJob>; deliver: Worker<DeliverJob> };
  #closing = false;
  readonly #slots: FairSlots;
  /** Aborts the waits for a delivery slot when closing (their jobs go back to the queue). */
  readonly #stop = new AbortController();

  /** `sealer`: seals webhook secrets and URLs in Redis (none: stored in clear). */
  constructor(redisUrl: string, options: BackendOptions, logger: Logger, prefix = 'xcmgw:watch:', sealer: Sealer = sealerFrom({})) {
    this.#options = options;
    this.#logger = logger.child({ origin: 'watch-redis' });
    this.#jobOptions = jobOptions(options.leaseMs);
    this.#slots = new FairSlots({ total: options.maxDeliveries, perOwner: options.maxDeliveriesPerClient, perHost: options.maxDeliveriesPerHost });
    const retryStrategy = (attempt: number) => this.#reconnect(attempt);
    this.#redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 2_000, commandTimeout: 2_000, retryStrategy });
    // BullMQ's workers duplicate this one for their blocking connections: the strategy goes along.
    this.#bull = new Redis(redisUrl, { maxRetriesPerRequest: null, retryStrategy });
    // ioredis re-subscribes on its own after a reconnect without handling the answer: a connection
    // lost meanwhile would be an unhandled rejection. This client subscribes at each `ready` instead.
    this.#subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null, retryStrategy, autoResubscribe: false });
    for (const client of [this.#redis, this.#bull, this.#subscriber]) client.on('error', (error: Error) => this.#logger.debug({ err: error.message }, 'redis client error'));
    this.#store = new WatchStore(this.#redis, prefix, { retainMs: options.retainMs, retainPerClient: options.retainPerClient, retainBytesPerClient: options.retainBytesPerClient, sealer });
    const queue = { connection: this.#redis, prefix: `${prefix}bull` };
    this.#follows = new Queue<FollowJob>('follow', queue);
    this.#deliveries = new Queue<DeliverJob>('deliver', queue);
    for (const q of [this.#follows, this.#deliveries]) q.on('error', (error: Error) => this.#logger.debug({ err: error.message }, 'watch queue error'));
    // A removal reaches the process that follows the watch, wherever it runs.
    this.#subscriber.on('ready', () => {
      this.#subscriber.subscribe(this.#store.removedChannel).catch((error: unknown) => this.#logger.warn({ err: message(error) }, 'watch removal channel unavailable'));
    });
    this.#subscriber.on('message', (_channel: string, id: string) => this.#workers?.follow.cancelJob(id, REMOVED));
  }

  async add(watch: Watch, progress: WatchProgress, events: WatchEvent[]): Promise<'added' | 'MAX_WATCHES' | 'MAX_WATCHES_PER_CLIENT'> {
    // BullMQ refuses job ids with a colon or made of digits only.
    if (!/^[\w.-]*[A-Za-z_.-][\w.-]*$/.test(watch.id)) throw new Error(`watch id ${JSON.stringify(watch.id)} is not a job id`);
    const answer = await this.#store.add(watch, progress, events, events.map(waiting), this.#options);
    if (answer !== 'added') return answer === 'MAX_WATCHES' ? 'MAX_WATCHES' : 'MAX_WATCHES_PER_CLIENT';
    try {
      if (!progress.ended) await this.#follows.add('follow', { id: watch.id }, { ...this.#jobOptions, jobId: watch.id });
      if (events.length > 0) await this.#queueDelivery(watch.id, 0);
    } catch (error) {
      // A watch the client is told failed must not hold a place or be followed.
      await this.#store.remove(watch.id).catch(() => undefined);
      throw error;
    }
    return 'added';
  }

  async get(id: string): Promise<WatchView | undefined> {
    return this.#store.view(id);
  }

  async remove(id: string): Promise<boolean> {
    const head = await this.#store.remove(id);
    if (head < 0) return false;
    await this.#redis.publish(this.#store.removedChannel, id);
    // Waiting and delayed jobs go now; an active one finds its watch gone and ends.
    await Promise.all([this.#follows.remove(id), this.#deliveries.remove(`${id}.${head}`)].map((p) => p.catch(() => 0)));
    return true;
  }

  async advance(id: string, progress: WatchProgress, events: WatchEvent[]): Promise<boolean> {
    const head = await this.#store.advance(id, progress, events, events.map(waiting));
    if (head === -1) return false;
    if (head >= 0) await this.#queueDelivery(id, head);
    return true;
  }

  async counts(): Promise<WatchCounts> {
    return this.#store.counts();
  }

  start(follow: FollowWork, deliver: DeliverWork): void {
    if (this.#workers || this.#closing) return;
    const lease = this.#options.leaseMs;
    // The lock is the lease: renewed at half of it while this process runs; another replica's
    // stalled check (every lease/3) takes a job whose lock has lapsed (measured: 0.9 to 1.35 leases
    // after a SIGKILL, docs/watches.md).
    const common = { connection: this.#bull, prefix: this.#store.prefix + 'bull', lockDuration: lease, stalledInterval: Math.max(1, Math.round(lease / 3)), maxStalledCount: 1_000_000 };
    const workers = {
      follow: new Worker<FollowJob>('follow', (job, token, signal) => this.#follow(follow, job, token, signal), { ...common, concurrency: this.#options.maxWatches }),
      // Jobs wait for a slot in this process: as many as there can be watches, one job each.
      deliver: new Worker<DeliverJob>('deliver', (job, token) => this.#deliver(deliver, job, token), { ...common, concurrency: this.#options.maxWatches }),
    };
    // Errors come one per job and per reconnect (a lost lock is told below, once per renewal).
    for (const worker of [workers.follow, workers.deliver]) worker.on('error', (error: Error) => this.#logger.debug({ err: error.message }, 'watch worker error'));
    // A lock this process could not renew may already be another's: its follower stops.
    workers.follow.on('lockRenewalFailed', (ids: string[]) => {
      if (this.#closing) return;
      this.#logger.warn({ watches: ids.length }, 'watch leases lost: another replica may follow them');
      for (const id of ids) workers.follow.cancelJob(id, LEASE_LOST);
    });
    this.#workers = workers;
    void this.#requeue().catch((error: unknown) => this.#logger.warn({ err: message(error) }, 'watch requeue failed'));
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#stop.abort(new Error(CLOSING));
    const clients = [this.#redis, this.#bull, this.#subscriber];
    // Redis away: nothing can be handed back (a lease later the jobs' locks lapse and another
    // replica takes them, as after a crash), and the queues' commands would wait for it: the
    // clients are disconnected first and stop reconnecting (#reconnect).
    const reachable = clients.every((client) => client.status === 'ready');
    if (!reachable) for (const client of clients) client.disconnect();
    const workers = this.#workers ? [this.#workers.follow, this.#workers.deliver] : [];
    this.#workers?.follow.cancelAllJobs(CLOSING);
    const closed = Promise.all([...workers.map((w) => w.close()), this.#follows.close(), this.#deliveries.close()]).catch(() => undefined);
    // A worker's close never resolves while Redis is unreachable (taskforcesh/bullmq#4656).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, reachable ? Math.min(this.#options.leaseMs, HAND_BACK_MS) : UNREACHABLE_CLOSE_MS)))]);
    clearTimeout(timer);
    for (const client of clients) client.disconnect();
  }

  /** Reconnects until close(): then a lost connection stays lost, so that closing never waits for Redis. */
  #reconnect(attempt: number): number | null {
    return this.#closing ? null : Math.min(attempt * 200, 2_000);
  }

  async #queueDelivery(id: string, seq: number): Promise<void> {
    await this.#deliveries.add('deliver', { id, seq }, { ...this.#jobOptions, jobId: `${id}.${seq}` });
  }

  /**
   * A job is queued after its record is written; a process that died in between left a watch
   * without its job. Queueing again is harmless (a job id that exists is not added twice).
   */
  async #requeue(): Promise<void> {
    await this.#store.adoptFollowed();
    const { open, pending } = await this.#store.live();
    for (let i = 0; i < open.length; i += 500) {
      await this.#follows.addBulk(open.slice(i, i + 500).map((id) => ({ name: 'follow', data: { id }, opts: { ...this.#jobOptions, jobId: id } })));
    }
    const ids = [...open, ...pending];
    for (let i = 0; i < ids.length; i += 500) {
      const heads = await this.#store.heads(ids.slice(i, i + 500));
      const due = [...heads].filter(([, h]) => h.head < h.events);
      await this.#deliveries.addBulk(due.map(([id, h]) => ({ name: 'deliver', data: { id, seq: h.head }, opts: { ...this.#jobOptions, jobId: `${id}.${h.head}` } })));
    }
  }

  async #follow(work: FollowWork, job: Job<FollowJob>, token: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const { id } = job.data;
    const current = await this.#store.following(id);
    if (!current) return;
    // An advance whose event was recorded but not queued (Redis went away in between) made the
    // follow work fail: its head is queued again when it runs again.
    const head = (await this.#store.heads([id])).get(id);
    if (head && head.head < head.events) await this.#queueDelivery(id, head.head);
    const stop = signal ?? new AbortController().signal;
    // The worker may hand out a job while it closes, after the followers were told to stop.
    if (!stop.aborted && !this.#closing) {
      // The job runs for as long as the watch is followed (its lock is the lease).
      await new Promise<void>((resolve) => {
        let following: Following | undefined;
        const abort = (): void => following?.stop(stop.reason);
        stop.addEventListener('abort', abort, { once: true });
        following = work(current.watch, current.progress, () => {
          stop.removeEventListener('abort', abort);
          resolve();
        });
        if (stop.aborted) following.stop(stop.reason);
      });
    }
    if (stop.aborted || this.#closing) {
      if (this.#closing) {
        // Handed back now, for another replica (or this one, restarted) to take.
        await job.moveToWait(token);
        throw new WaitingError();
      }
      if (stop.reason === LEASE_LOST) throw new Error(`watch ${id}: ${LEASE_LOST}`);
      return;
    }
    if (!(await this.#store.following(id))) return;
    // Stopped short of the end: followed again after the lease.
    await job.moveToDelayed(Date.now() + this.#options.leaseMs, token);
    throw new DelayedError();
  }

  async #deliver(work: DeliverWork, job: Job<DeliverJob>, token: string | undefined): Promise<void> {
    const { id, seq } = job.data;
    let turn = await this.#turn(id, seq);
    if (!turn) return;
    const key = { owner: turn.watch.owner, host: hostOf(turn.watch.webhook.url) };
    let release = this.#slots.tryAcquire(key);
    const waited = !release;
    if (!release) {
      release = await this.#slots.acquire(key, this.#stop.signal).catch(() => undefined);
      if (!release) {
        // Closing: handed back for another replica (or this one, restarted).
        await job.moveToWait(token);
        throw new WaitingError();
      }
    }
    try {
      // The watch may have been removed, or its event recorded elsewhere, while this job waited.
      if (waited) turn = await this.#turn(id, seq);
      if (turn) await this.#try(work, job, token, turn);
    } finally {
      release();
    }
  }

  /** Where the job's watch stands, when its event is still the head to try (a settled head's next event is queued). */
  async #turn(id: string, seq: number): Promise<DeliveryTurn | undefined> {
    const turn = await this.#store.turn(id, seq);
    if (!turn || turn.head < seq) return undefined;
    if (turn.head > seq) {
      // Settled by a run that stopped before queueing the next event.
      if (turn.head < turn.events) await this.#queueDelivery(id, turn.head);
      return undefined;
    }
    return turn;
  }

  async #try(work: DeliverWork, job: Job<DeliverJob>, token: string | undefined, turn: DeliveryTurn): Promise<void> {
    const { id, seq } = job.data;
    const startedAt = Date.now();
    const result = await work(turn.watch, turn.event, turn.delivery.attempts + 1).catch(failedTry);
    const next = afterTry(turn.delivery, result, this.#options.retry, job.timestamp, startedAt);
    const after = await this.#store.record(id, seq, next, next.state !== 'retrying');
    if (after === -1) return;
    if (next.state === 'retrying') {
      await job.moveToDelayed(next.nextAt ?? startedAt, token);
      throw new DelayedError();
    }
    if (after >= 0) await this.#queueDelivery(id, after);
  }
}
