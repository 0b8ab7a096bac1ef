// The watch backend with REDIS_URL: records in Redis (redis-store.ts), shared by every replica, so a
// replica that dies loses nothing.
// - Following: each replica follows the watches its lease holds (redis-leases.ts), renewed as a whole
//   every third of WATCH_LEASE_MS. A replica that stops hands its watches back; one killed with
//   SIGKILL stops renewing, and once its lease lapses another replica takes its watches and carries
//   on from the recorded progress. A watch made here is followed here (when this replica has room).
// - Delivering: a BullMQ queue, `deliver`, one job per event when it becomes its watch's head (job id
//   = event id). A refused try moves the job to delayed until the next try; once the event is
//   settled, the job queues the next. The worker takes a few jobs per delivery slot (at most one per
//   watch) and each waits in this process for its turn at a slot (fair-slots.ts): taking them first
//   come first served would let one owner's hung receivers hold every slot while another's jobs wait
//   in the queue behind them. When the worker is nearly full, an owner or host whose tries stalled
//   and whose backlog here is full puts its jobs back for a while, so that its jobs never fill the
//   worker either.
// The records decide, not the leases or jobs: progress is recorded by compare-and-set and a job that
// finds its event settled or its watch gone does nothing, so two replicas briefly following one watch
// (one stalled past its lease) or a job run twice never make a second, different event or delivery.
import { DelayedError, Queue, WaitingError, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BackendOptions, DeliverWork, FollowWork, Following, Position, WatchBackend, WatchCounts, WatchView } from './backend';
import { DeliveryActivity, deliverySlotsOf, hostOf, type FairSlots, type SlotKey } from './fair-slots';
import type { Watch, WatchEvent, WatchProgress } from './model';
import { Leases, newToken } from './redis-leases';
import { WatchStore, type DeliveryTurn } from './redis-store';
import { sealerFrom, type Sealer } from './sealing';
import { afterTry, failedTry, waiting } from './tries';

interface DeliverJob {
  id: string;
  seq: number;
}

/** Why a follow is stopped. */
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
 * How long a close waits for its followers to stop and its watches to be handed back: what is not
 * handed back by then is taken over a lease later, as after a crash. Shutdown stays within seconds
 * (Kubernetes kills a pod 30 s after SIGTERM).
 */
const HAND_BACK_MS = 5_000;
/** Delivery jobs the worker holds per delivery slot (WATCH_MAX_DELIVERIES): running, or waiting here for a slot. */
const FETCHED_PER_SLOT = 4;
/** How long a job of an owner or host with a full backlog here goes back to Redis (jittered: 0.5 to 1.5 times). */
const BACKLOG_DELAY_MS = 2_000;
/** An owner or host none of whose tries ended for this long is stalled (its receivers hang). */
const STALLED_MS = 2_000;
/** Watches taken per claim script, and positions per script: Redis serves others between batches. */
const CLAIM_BATCH = 1_000;
const POSITIONS_BATCH = 500;

export class RedisBackend implements WatchBackend {
  readonly kind = 'redis' as const;
  readonly #options: BackendOptions;
  readonly #logger: Logger;
  /**
   * Our commands and the queue's: they fail (a few reconnects, or 2 s without an answer) rather
   * than hold a request or a follower while Redis is away.
   */
  readonly #redis: Redis;
  /** The worker's (it blocks waiting for jobs, and waits through a reconnect). */
  readonly #bull: Redis;
  readonly #subscriber: Redis;
  readonly #store: WatchStore;
  readonly #leases: Leases;
  readonly #deliveries: Queue<DeliverJob>;
  readonly #jobOptions: JobsOptions;
  #worker?: Worker<DeliverJob>;
  /** Delivery jobs the worker holds (running, or waiting for a slot), and how many it may. */
  #fetched = 0;
  readonly #fetchedMax: number;
  readonly #activity = new DeliveryActivity();
  #follow?: FollowWork;
  /** This process's follower token, and whether its lease is held (a token whose lease lapsed is replaced). */
  #token = newToken();
  #joined = false;
  /** The watches this process follows: the follow work's handle, or the timer of its next run (it stopped short). */
  readonly #follows = new Map<string, Following | NodeJS.Timeout>();
  /** Follows not yet done, and who waits for the last (close). */
  #running = 0;
  #drained?: () => void;
  #renewal?: NodeJS.Timeout;
  /** The claim in progress, and whether another was asked for meanwhile. */
  #claiming?: Promise<void>;
  #claimAgain = false;
  #closing = false;
  readonly #slots: FairSlots;
  /** Aborts the waits for a delivery slot when closing (their jobs go back to the queue). */
  readonly #stop = new AbortController();

  /** `sealer`: seals webhook secrets and URLs in Redis (none: stored in clear). */
  constructor(redisUrl: string, options: BackendOptions, logger: Logger, prefix = 'xcmgw:watch:', sealer: Sealer = sealerFrom({})) {
    this.#options = options;
    this.#logger = logger.child({ origin: 'watch-redis' });
    this.#jobOptions = jobOptions(options.leaseMs);
    this.#fetchedMax = Math.min(options.maxWatches, options.maxDeliveries * FETCHED_PER_SLOT);
    this.#slots = deliverySlotsOf(options);
    const retryStrategy = (attempt: number) => this.#reconnect(attempt);
    this.#redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 2_000, commandTimeout: 2_000, retryStrategy });
    // BullMQ's worker duplicates this one for its blocking connection: the strategy goes along.
    this.#bull = new Redis(redisUrl, { maxRetriesPerRequest: null, retryStrategy });
    // ioredis re-subscribes on its own after a reconnect without handling the answer: a connection
    // lost meanwhile would be an unhandled rejection. This client subscribes at each `ready` instead.
    this.#subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null, retryStrategy, autoResubscribe: false });
    for (const client of [this.#redis, this.#bull, this.#subscriber]) client.on('error', (error: Error) => this.#logger.debug({ err: error.message }, 'redis client error'));
    this.#store = new WatchStore(this.#redis, prefix, { retainMs: options.retainMs, retainPerClient: options.retainPerClient, retainBytesPerClient: options.retainBytesPerClient, sealer });
    this.#leases = new Leases(this.#redis, prefix);
    this.#deliveries = new Queue<DeliverJob>('deliver', { connection: this.#redis, prefix: `${prefix}bull` });
    this.#deliveries.on('error', (error: Error) => this.#logger.debug({ err: error.message }, 'watch queue error'));
    // A removal reaches the process that follows the watch, wherever it runs; watches left
    // unfollowed (made without a follower, handed back) are taken at once by a replica with room.
    const channels = [this.#store.removedChannel, this.#leases.unfollowedChannel];
    this.#subscriber.on('ready', () => {
      this.#subscriber.subscribe(...channels).catch((error: unknown) => this.#logger.warn({ err: message(error) }, 'watch channels unavailable'));
    });
    this.#subscriber.on('message', (channel: string, id: string) => {
      if (channel === this.#store.removedChannel) this.#drop(id, REMOVED);
      else this.#claim();
    });
  }

  async add(watch: Watch, progress: WatchProgress, events: WatchEvent[]): Promise<'added' | 'MAX_WATCHES' | 'MAX_WATCHES_PER_CLIENT'> {
    // BullMQ refuses job ids with a colon or made of digits only (an event's job id starts with the watch's).
    if (!/^[\w.-]*[A-Za-z_.-][\w.-]*$/.test(watch.id)) throw new Error(`watch id ${JSON.stringify(watch.id)} is not a job id`);
    // Followed here when this process follows watches and has room; else by whichever replica takes it.
    const by = this.#follow && this.#joined && !this.#closing && this.#follows.size < this.#options.maxWatches ? this.#token : '';
    const answer = await this.#store.add(watch, progress, events, events.map(waiting), this.#options, by);
    if (answer === 'MAX_WATCHES' || answer === 'MAX_WATCHES_PER_CLIENT') return answer;
    try {
      if (events.length > 0) await this.#queueDelivery(watch.id, 0);
    } catch (error) {
      // A watch the client is told failed must not hold a place or be followed.
      await this.#store.remove(watch.id).catch(() => undefined);
      throw error;
    }
    if (progress.ended) return 'added';
    if (answer === 'added' && by === this.#token) this.#begin(watch.id, watch, progress);
    else await this.#redis.publish(this.#leases.unfollowedChannel, '').catch(() => 0);
    return 'added';
  }

  async get(id: string): Promise<WatchView | undefined> {
    return this.#store.view(id);
  }

  async remove(id: string): Promise<boolean> {
    const head = await this.#store.remove(id);
    if (head < 0) return false;
    await this.#redis.publish(this.#store.removedChannel, id);
    // A waiting or delayed job goes now; an active one finds its watch gone and ends.
    await this.#deliveries.remove(`${id}.${head}`).catch(() => 0);
    return true;
  }

  async advance(id: string, progress: WatchProgress, events: WatchEvent[]): Promise<boolean> {
    const head = await this.#store.advance(id, progress, events, events.map(waiting));
    if (head === -1) return false;
    if (head >= 0) await this.#queueDelivery(id, head);
    return true;
  }

  async recordPositions(positions: readonly Position[]): Promise<void> {
    for (let i = 0; i < positions.length; i += POSITIONS_BATCH) await this.#store.positions(positions.slice(i, i + POSITIONS_BATCH));
  }

  async counts(): Promise<WatchCounts> {
    return this.#store.counts();
  }

  start(follow: FollowWork, deliver: DeliverWork): void {
    if (this.#follow || this.#closing) return;
    this.#follow = follow;
    const lease = this.#options.leaseMs;
    // The lock of a delivery job is renewed at half of the lease while this process runs; another
    // replica's stalled check (every lease/3) takes a job whose lock has lapsed.
    this.#worker = new Worker<DeliverJob>('deliver', (job, token) => this.#deliver(deliver, job, token), {
      connection: this.#bull,
      prefix: this.#store.prefix + 'bull',
      lockDuration: lease,
      stalledInterval: Math.max(1, Math.round(lease / 3)),
      maxStalledCount: 1_000_000,
      // Jobs taken at once, each waiting here for its slot (fair between owners and hosts): a few
      // times the slots. Taking every job due at once (10,000 webhooks due together) left the heap's
      // peak, and so the RSS, 40 kB a job higher.
      concurrency: this.#fetchedMax,
    });
    // Errors come one per job and per reconnect.
    this.#worker.on('error', (error: Error) => this.#logger.debug({ err: error.message }, 'watch worker error'));
    // The lease is renewed (and lapsed ones reaped, unfollowed watches taken) every third of it.
    this.#renewal = setInterval(() => this.#claim(), Math.max(1, Math.round(lease / 3))).unref();
    this.#claim();
    void this.#requeue().catch((error: unknown) => this.#logger.warn({ err: message(error) }, 'watch requeue failed'));
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    clearInterval(this.#renewal);
    this.#stop.abort(new Error(CLOSING));
    const clients = [this.#redis, this.#bull, this.#subscriber];
    // Redis away: nothing can be handed back (a lease later another replica takes the watches, as
    // after a crash), and the queue's commands would wait for it: the clients are disconnected
    // first and stop reconnecting (#reconnect).
    const reachable = clients.every((client) => client.status === 'ready');
    if (!reachable) for (const client of clients) client.disconnect();
    // Followers stop first, so that another replica carries on from what they recorded.
    const stopped = new Promise<void>((resolve) => (this.#drained = resolve));
    for (const id of [...this.#follows.keys()]) this.#drop(id, CLOSING);
    if (this.#running === 0) this.#drained?.();
    const handedBack = (async () => {
      await stopped;
      await this.#claiming;
      if (!reachable) return;
      if ((await this.#leases.handBack(this.#token)) > 0) await this.#redis.publish(this.#leases.unfollowedChannel, '');
    })().catch((error: unknown) => this.#logger.warn({ err: message(error) }, 'watches not handed back: another replica takes them a lease later'));
    const closed = Promise.all([handedBack, this.#worker?.close(), this.#deliveries.close()]).catch(() => undefined);
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
   * An event recorded whose job was not queued (the process died, or Redis went away, in between)
   * is queued again at start. Queueing again is harmless (a job id that exists is not added twice).
   */
  async #requeue(): Promise<void> {
    await this.#store.adoptFollowed();
    const { open, pending } = await this.#store.live();
    const ids = [...open, ...pending];
    for (let i = 0; i < ids.length; i += 500) {
      const heads = await this.#store.heads(ids.slice(i, i + 500));
      const due = [...heads].filter(([, h]) => h.head < h.events);
      await this.#deliveries.addBulk(due.map(([id, h]) => ({ name: 'deliver', data: { id, seq: h.head }, opts: { ...this.#jobOptions, jobId: `${id}.${h.head}` } })));
    }
  }

  /** Renews the lease and takes unfollowed watches while there is room: one claim at a time, another after it when asked meanwhile. */
  #claim(): void {
    if (this.#closing || !this.#follow) return;
    if (this.#claiming) {
      this.#claimAgain = true;
      return;
    }
    this.#claiming = this.#claimAll()
      .catch((error: unknown) => this.#logger.debug({ err: message(error) }, 'watch lease not renewed'))
      .finally(() => {
        this.#claiming = undefined;
        if (this.#claimAgain) {
          this.#claimAgain = false;
          this.#claim();
        }
      });
  }

  async #claimAll(): Promise<void> {
    if (!this.#joined) {
      // Open watches an earlier version followed as BullMQ jobs are left for whoever has room.
      const adopted = await this.#leases.adopt();
      if (adopted > 0) this.#logger.info({ watches: adopted }, 'watches without a lease left for a replica to take');
    }
    for (;;) {
      const room = Math.max(0, Math.min(CLAIM_BATCH, this.#options.maxWatches - this.#follows.size));
      const taken = await this.#leases.claim(this.#token, this.#options.leaseMs, room, !this.#joined);
      if (taken === 'lost') return this.#lose();
      this.#joined = true;
      if (taken.length > 0) await this.#take(taken);
      if (taken.length < room || room === 0 || this.#closing) return;
    }
  }

  /** The lease lapsed and another replica reaped it: its watches are no longer this process's. */
  #lose(): void {
    this.#logger.warn({ watches: this.#follows.size }, 'watch lease lost: other replicas take its watches');
    for (const id of [...this.#follows.keys()]) this.#drop(id, LEASE_LOST);
    this.#token = newToken();
    this.#joined = false;
    this.#claimAgain = true;
  }

  /** Starts following the watches just claimed, from their recorded progress. */
  async #take(ids: string[]): Promise<void> {
    const [current, heads] = await Promise.all([this.#store.followingAll(ids), this.#store.heads(ids)]);
    // An advance whose event was recorded but not queued (Redis went away in between) is queued now.
    const due = [...heads].filter(([, h]) => h.head < h.events);
    await Promise.all(due.map(([id, h]) => this.#queueDelivery(id, h.head)));
    if (this.#closing) return;
    for (const [id, { watch, progress }] of current) if (!this.#follows.has(id)) this.#begin(id, watch, progress);
  }

  /** Follows one watch until it ends, is dropped, or stops short (then again a lease later). */
  #begin(id: string, watch: Watch, progress: WatchProgress): void {
    const work = this.#follow;
    if (!work || this.#closing) return;
    this.#running += 1;
    let finished = false;
    const following: Following = work(watch, progress, () => {
      finished = true;
      this.#running -= 1;
      if (this.#closing && this.#running === 0) this.#drained?.();
      // Dropped (removed, lost, closing), or taken again since.
      if (this.#follows.get(id) !== following) return;
      this.#follows.delete(id);
      void this.#again(id);
    });
    if (!finished) this.#follows.set(id, following);
  }

  /** A follow that stopped without ending its watch runs again a lease later, if the watch is still followed then. */
  async #again(id: string): Promise<void> {
    const current = await this.#store.following(id).catch(() => null);
    if (current === undefined || this.#closing || this.#follows.has(id)) return;
    const token = this.#token;
    const timer = setTimeout(() => {
      if (this.#follows.get(id) !== timer) return;
      this.#follows.delete(id);
      // Not when the lease was lost meanwhile: the watch is another replica's to take.
      void this.#store.following(id).then(
        (now) => now && token === this.#token && !this.#follows.has(id) && this.#begin(id, now.watch, now.progress),
        () => void this.#again(id),
      );
    }, this.#options.leaseMs).unref();
    this.#follows.set(id, timer);
  }

  /** Stops following `id` here (its follow is told why; a run waiting for the lease is cancelled). */
  #drop(id: string, reason: string): void {
    const held = this.#follows.get(id);
    if (held === undefined) return;
    this.#follows.delete(id);
    if ('stop' in held) held.stop(new Error(reason));
    else clearTimeout(held);
  }

  async #deliver(work: DeliverWork, job: Job<DeliverJob>, token: string | undefined): Promise<void> {
    this.#fetched += 1;
    try {
      await this.#deliverJob(work, job, token);
    } finally {
      this.#fetched -= 1;
    }
  }

  async #deliverJob(work: DeliverWork, job: Job<DeliverJob>, token: string | undefined): Promise<void> {
    const { id, seq } = job.data;
    let turn = await this.#turn(id, seq);
    if (!turn) return;
    const key = { owner: turn.watch.owner, host: hostOf(turn.watch.webhook.url) };
    let tried = false;
    this.#activity.enter(key);
    try {
      let slot = this.#slots.tryAcquire(key);
      const waited = !slot;
      if (!slot) {
        // The worker holds a bounded number of jobs: when it is nearly full, an owner or host whose
        // tries are stalled (none ended for a while) and that has as many waiting as it may run puts
        // this one back in Redis for a while, so that its backlog cannot fill the worker and keep
        // another owner's jobs in Redis behind it. Receivers that answer are never put back (their
        // jobs would go back and forth while the worker fills again at once).
        // A job waiting here looks again every STALLED_MS.
        while (!slot) {
          if (this.#backedUp(key)) {
            await job.moveToDelayed(Date.now() + BACKLOG_DELAY_MS / 2 + Math.random() * BACKLOG_DELAY_MS, token);
            throw new DelayedError();
          }
          slot = await this.#slots.acquire(key, AbortSignal.any([this.#stop.signal, AbortSignal.timeout(STALLED_MS)])).catch(() => undefined);
          if (!slot && this.#stop.signal.aborted) {
            // Closing: handed back for another replica (or this one, restarted).
            await job.moveToWait(token);
            throw new WaitingError();
          }
        }
      }
      try {
        // The watch may have been removed, or its event recorded elsewhere, while this job waited.
        if (waited) turn = await this.#turn(id, seq);
        tried = turn !== undefined;
        if (turn) await this.#try(work, job, token, turn, slot.cut);
      } finally {
        slot.release();
      }
    } finally {
      this.#activity.leave(key, tried);
    }
  }

  /** Whether the key's stalled backlog is filling the worker (then its jobs go back to Redis for a while). */
  #backedUp(key: SlotKey): boolean {
    const { perOwner, perHost } = this.#slots.limits;
    return this.#fetched > this.#fetchedMax * 0.75 && this.#slots.backlog(key) >= Math.min(perOwner, perHost) && this.#activity.stalled(key, STALLED_MS);
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

  async #try(work: DeliverWork, job: Job<DeliverJob>, token: string | undefined, turn: DeliveryTurn, cut: AbortSignal | undefined): Promise<void> {
    const { id, seq } = job.data;
    const startedAt = Date.now();
    const result = await work(turn.watch, turn.event, turn.delivery.attempts + 1, cut).catch(failedTry);
    this.#slots.tried(hostOf(turn.watch.webhook.url), result);
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
