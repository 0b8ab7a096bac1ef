// Where watches live and who works on them. Two backends keep the same promises: `memory` (the
// embedded default: watches end with the process) and `redis` (REDIS_URL: BullMQ queues shared by
// every replica; a replica that dies loses nothing). The watch service (index.ts) decides what to
// follow and what to send; a backend stores, hands out work, and schedules retries.
import type { Delivery, DeliveryResult, Watch, WatchEvent, WatchProgress } from './model';

export type BackendKind = 'memory' | 'redis';

/** What `GET /x-transfer/watch/:id` shows. */
export interface WatchView {
  watch: Watch;
  progress: WatchProgress;
  /** One per event made so far, in seq order. */
  deliveries: Delivery[];
}

export interface WatchCounts {
  /** Watches still followed. */
  open: number;
  /** Watches whose following ended, kept readable until their retention passes. */
  ended: number;
  /** Events waiting for (or between) delivery tries. */
  queued: number;
}

/** When a failed try is tried again, and when trying stops (the event is then `failed`). */
export interface RetryPolicy {
  /**
   * Delay before try `attempt + 1`, after `attempt` (1-based) tries failed; jittered. `slow`: the
   * last try had no answer in time, and the receiver is tried again at a slower pace.
   */
  delayMs(attempt: number, slow?: boolean): number;
  /** Tries stop once this long has passed since the first. */
  giveUpAfterMs: number;
}

/** A watch being followed: `stop` ends following early (deleted, lost, the process closing). */
export interface Following {
  stop(reason: unknown): void;
}

/**
 * Starts following one watch until it ends (then `progress.ended` is recorded through `advance`)
 * or is stopped, and calls `done` once when it has stopped, for whatever reason. Not a promise: a
 * watch waiting for its next block holds no promise, listener or signal for its backend. Recorded
 * progress is what another process resumes from.
 */
export type FollowWork = (watch: Watch, progress: WatchProgress, done: () => void) => Following;

/**
 * One try to deliver `event`; never rejects. `attempt` is 1 for the first try. `cut` aborts when the
 * backend cuts the try (WATCH_DELIVERY_CUT_MS): it then ends at once as unanswered (`slow`).
 */
export type DeliverWork = (watch: Watch, event: WatchEvent, attempt: number, cut?: AbortSignal) => Promise<DeliveryResult>;

/**
 * Where a waiting watch stands: the next block to read on the chain its cursor is on, recorded only if
 * it still has `events` events and is not ended (a later progress with its own cursor replaces it).
 */
export interface Position {
  id: string;
  events: number;
  chain: string;
  next: number;
}

export interface WatchBackend {
  readonly kind: BackendKind;
  /**
   * Stores a new watch with its first progress and events (made at once when the transfer has
   * already moved), atomically against the bounds: refused with the bound's name when full. A watch
   * counts against them while it is followed or owes a delivery, one already final included.
   */
  add(watch: Watch, progress: WatchProgress, events: WatchEvent[]): Promise<'added' | 'MAX_WATCHES' | 'MAX_WATCHES_PER_CLIENT'>;
  /** The watch, its progress and deliveries; undefined when unknown, removed or past retention. */
  get(id: string): Promise<WatchView | undefined>;
  /** Ends a watch now: following stops (in whichever process follows it), undelivered events are cancelled. */
  remove(id: string): Promise<boolean>;
  /**
   * Records progress and the events it made, only if the watch is still at `progress.events -
   * events.length` events and not ended (compare and set, so two processes never make two different
   * events with one id); false when not recorded (the caller stops following). Events are queued for
   * delivery, each after the one before it is delivered (or failed for good).
   */
  advance(id: string, progress: WatchProgress, events: WatchEvent[]): Promise<boolean>;
  /**
   * Records where waiting watches stand, many at once (a backend shared by processes: another takes
   * them over from there). Best effort: a position not recorded is read again after a takeover.
   */
  recordPositions?(positions: readonly Position[]): Promise<void>;
  counts(): Promise<WatchCounts>;
  /** Starts handing this process watches to follow (each to one process at a time) and events to deliver. */
  start(follow: FollowWork, deliver: DeliverWork): void;
  /** Stops taking work, lets go of what this process held (another process takes it) and disconnects. */
  close(): Promise<void>;
}

/** What both backends are given (from the WATCH_* and MAX_WATCHES* settings). */
export interface BackendOptions {
  /** MAX_WATCHES: watches followed or owing deliveries, in all. */
  maxWatches: number;
  /** MAX_WATCHES_PER_CLIENT: the same, per owner. */
  maxWatchesPerClient: number;
  /** WATCH_MAX_DELIVERIES: tries in flight at once in this process. */
  maxDeliveries: number;
  /** WATCH_MAX_DELIVERIES_PER_CLIENT: of those, tries for one owner's watches. */
  maxDeliveriesPerClient: number;
  /** WATCH_MAX_DELIVERIES_PER_HOST: of those, tries to one receiver host. */
  maxDeliveriesPerHost: number;
  /** WATCH_DELIVERY_CUT_MS: a try not yet known slow, this old, is cut while another owner's waits for a slot (none: never cut). */
  deliveryCutMs?: number;
  /** WATCH_RETAIN_MS: how long an ended watch stays readable once its deliveries are settled. */
  retainMs: number;
  /** WATCH_RETAIN_PER_CLIENT: of those, records kept per owner (the oldest are forgotten first). */
  retainPerClient: number;
  /** WATCH_RETAIN_BYTES_PER_CLIENT: the bytes of those records per owner (their JSON). */
  retainBytesPerClient: number;
  /**
   * WATCH_LEASE_MS: with Redis, how long a silent process keeps its watches; in both backends, how
   * long a follow work that returned or threw without ending its watch waits before it runs again.
   */
  leaseMs: number;
  retry: RetryPolicy;
}
