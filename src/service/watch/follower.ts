// Following a watch: the transfer read as `POST /x-transfer/status` reads it, resumed from the
// watch's recorded progress, followed with the status service's shared head watchers, and one event
// made for each change of the answer. Progress and events are recorded through the backend's
// compare-and-set `advance`, so a watch another process took over is let go at once.
import type { Logger } from 'pino';
import type { StatusService, StatusAnswer, JourneySnapshot, Tracking } from '../status';
import type { FollowWork, WatchBackend } from './backend';
import type { Watch, WatchEvent, WatchProgress } from './model';

/**
 * Progress that only moved the cursor is recorded at most this often: a process that takes the
 * watch over re-reads at most this long of blocks (one write per watch and interval, not per block).
 */
const SAVE_EVERY_MS = 30_000;

export interface FollowerOptions {
  status: Pick<StatusService, 'track'>;
  backend: Pick<WatchBackend, 'advance'>;
  logger: Logger;
  /** The wait after the first chain failure in a row, doubled after each (jittered), up to `maxBackoffMs`. */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** Epoch ms now (tests need not move it: they set short timeouts). */
  now?: () => number;
}

/** What tells one answer from the next: its status and each leg's state and block. */
export function changeOf(answer: StatusAnswer): string {
  return JSON.stringify([answer.status, answer.final, answer.legs.map((leg) => [leg.chain, leg.state, leg.blockHash ?? null])]);
}

/**
 * The event for the `seq`th change: its body fixed now, so that every try sends the same bytes.
 * `settledAt` (the block's timestamp) starts the delivery latency; it is taken no earlier than the
 * watch (a block settled before the watch was made is not the service's delay) and no later than
 * now (a node's clock may run ahead).
 */
export function eventOf(watch: Watch, seq: number, type: string, data: StatusAnswer, settledAt?: number): WatchEvent {
  const now = Date.now();
  const body = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
  const start = settledAt === undefined ? undefined : Math.min(now, Math.max(watch.createdAt, settledAt));
  return { id: `${watch.id}.${seq}`, seq, type, body, ...(start !== undefined ? { settledAt: start } : {}) };
}

/**
 * The first event of a new watch: the answer when it is made, unless the extrinsic is not in a
 * block yet (a `not-found` that is not final): there is nothing to tell until it is.
 */
export function firstEvents(watch: Watch, answer: StatusAnswer, settledAt?: number): WatchEvent[] {
  return answer.status === 'not-found' && !answer.final ? [] : [eventOf(watch, 0, `transfer.${answer.status}`, answer, settledAt)];
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(handle);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const handle = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The watch's recorded state, and what records it: one `advance` at a time, in order. */
class Recorder {
  #chain: Promise<void> = Promise.resolve();
  #saved = 0;

  constructor(
    private readonly watch: Watch,
    public progress: WatchProgress,
    private readonly backend: Pick<WatchBackend, 'advance'>,
    private readonly lost: AbortController,
    private readonly now: () => number,
  ) {}

  /** Waits for what was queued; rejects as the advance did. */
  get settled(): Promise<void> {
    return this.#chain;
  }

  /**
   * Takes the answer as it is now (synchronously: the journey moves on): an event when it changed
   * (a final answer always has: `final` is part of the change), `ended: 'final'` once it is final,
   * else the cursor when it moved and SAVE_EVERY_MS passed (or `force`).
   */
  take(tracking: Pick<Tracking, 'answer' | 'snapshot' | 'settledAt'>, force = false): void {
    const answer = tracking.answer();
    const changed = changeOf(answer) !== changeOf(this.progress.status);
    if (!changed && !answer.final && !force && this.now() - this.#saved < SAVE_EVERY_MS) return;
    const resume = tracking.snapshot();
    if (!changed && !answer.final && JSON.stringify(resume) === JSON.stringify(this.progress.resume)) return;
    const events = changed ? [eventOf(this.watch, this.progress.events, `transfer.${answer.status}`, answer, tracking.settledAt())] : [];
    this.#record({ status: answer, resume, events: this.progress.events + events.length, ...(answer.final ? { ended: 'final' } : {}) }, events);
  }

  /** Following stopped at WATCH_TIMEOUT_MS: the last event says so, with the answer as last read. */
  timeout(): void {
    const events = [eventOf(this.watch, this.progress.events, 'transfer.timeout', this.progress.status)];
    this.#record({ ...this.progress, events: this.progress.events + 1, ended: 'timeout' }, events);
  }

  #record(next: WatchProgress, events: WatchEvent[]): void {
    if (this.progress.ended) return;
    this.progress = next;
    this.#saved = this.now();
    this.#chain = this.#chain.then(async () => {
      if (this.lost.signal.aborted) return;
      // Not recorded: removed, ended, or another process made these events first.
      if (!(await this.backend.advance(this.watch.id, next, events))) this.lost.abort(new Error('the watch is no longer this process\'s to follow'));
    });
    // A failed advance (the store unreachable) ends this follow; the backend runs it again later.
    this.#chain.catch((error: unknown) => this.lost.abort(error));
  }
}

/** The backend's `FollowWork`: follows one watch until it ends, the signal aborts, or it is lost. */
export function follower(options: FollowerOptions): FollowWork {
  const now = options.now ?? Date.now;
  return async (watch, progress, signal) => {
    const lost = new AbortController();
    const recorder = new Recorder(watch, progress, options.backend, lost, now);
    const stopped = AbortSignal.any([signal, lost.signal]);
    let failures = 0;
    while (!stopped.aborted && !recorder.progress.ended) {
      const left = watch.expiresAt - now();
      if (left <= 0) {
        recorder.timeout();
        break;
      }
      const expiry = AbortSignal.timeout(left);
      const round = AbortSignal.any([stopped, expiry]);
      const before = JSON.stringify(recorder.progress.resume);
      let tracking: Tracking | undefined;
      try {
        tracking = await options.status.track(watch.request, round, recorder.progress.resume as JourneySnapshot | undefined);
        const current = tracking;
        recorder.take(current, true);
        const saving = setInterval(() => recorder.take(current), SAVE_EVERY_MS);
        try {
          await current.follow(() => recorder.take(current));
        } finally {
          clearInterval(saving);
        }
        recorder.take(current, true);
        failures = 0;
      } catch (error) {
        if (stopped.aborted || expiry.aborted) continue;
        failures++;
        options.logger.warn({ watch: watch.id, failures, err: error }, 'following a watch failed; trying again later');
      } finally {
        tracking?.release();
      }
      await recorder.settled.catch(() => undefined);
      // A read that ended without moving on (a chain failure, or nothing left to read in its
      // budget) waits before the next, longer each time in a row.
      if (!recorder.progress.ended && (failures > 0 || JSON.stringify(recorder.progress.resume) === before)) {
        const backoff = Math.min(options.maxBackoffMs, options.firstBackoffMs * 2 ** Math.min(Math.max(failures - 1, 0), 20));
        await pause(backoff / 2 + Math.random() * (backoff / 2), AbortSignal.any([stopped, expiry]));
      }
    }
    await recorder.settled.catch(() => undefined);
  };
}
