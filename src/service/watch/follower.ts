// Following a watch: the transfer read as `POST /x-transfer/status` reads it, resumed from the
// watch's recorded progress, and one event made for each change of the answer. Between the blocks
// that can settle it, a watch only waits in the status service's head watcher index (`wait`): it
// holds its record, its snapshot (where it stands) and that index entry, not a journey, a reader or
// a timer of its own. A block offered to it is read from the snapshot (`track` with `offered`), the
// answer recorded, and the journey dropped again. Progress and events are recorded through the
// backend's compare-and-set `advance`, so a watch another process took over is let go at once.
import type { Logger } from 'pino';
import type { StatusService, StatusAnswer, JourneySnapshot, Offered, Tracking, Waiting } from '../status';
import type { FollowWork, WatchBackend } from './backend';
import type { Watch, WatchEvent, WatchProgress } from './model';

/**
 * With a backend shared by processes (Redis), a waiting watch's position (its cursor moved past the
 * blocks the head watcher checked for it) is recorded at most this often: a process that takes the
 * watch over re-reads at most this long of blocks. One write per watch and interval, made by one
 * timer for all the watches of a process. In memory nobody else resumes the watch: the follower
 * keeps its position itself, and records progress only when the answer changes or the cursor moves
 * on a block it read.
 */
export const SAVE_EVERY_MS = 30_000;

export interface FollowerOptions {
  status: Pick<StatusService, 'track' | 'wait'>;
  backend: Pick<WatchBackend, 'advance'>;
  logger: Logger;
  /** The wait after the first chain failure in a row, doubled after each (jittered), up to `maxBackoffMs`. */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** How often a waiting watch's position is recorded (SAVE_EVERY_MS with Redis); never when absent. */
  saveEveryMs?: number;
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

/**
 * Where a read leaves the watch, holding the legs of its answer rather than a copy of them: a
 * watch keeps both (its status and where it carries on), and a journey reads a snapshot's legs
 * only through a copy of its own.
 */
export function resumeOf(tracking: Pick<Tracking, 'snapshot'>, answer: StatusAnswer): JourneySnapshot {
  return { ...tracking.snapshot(), legs: answer.legs };
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
  /** Set once an advance was refused or failed: nothing more is recorded. */
  lost = false;

  constructor(
    private readonly watch: Watch,
    public progress: WatchProgress,
    private readonly backend: Pick<WatchBackend, 'advance'>,
    private readonly onLost: (reason: unknown) => void,
  ) {}

  /** Waits for what was queued; rejects as the advance did. */
  get settled(): Promise<void> {
    return this.#chain;
  }

  /**
   * Takes the answer as read now: an event when it changed (a final answer always has: `final` is
   * part of the change), `ended: 'final'` once it is final, else the cursor when it moved.
   */
  take(tracking: Pick<Tracking, 'answer' | 'snapshot' | 'settledAt'>): void {
    const answer = tracking.answer();
    const changed = changeOf(answer) !== changeOf(this.progress.status);
    const resume = resumeOf(tracking, answer);
    if (!changed && !answer.final && JSON.stringify(resume) === JSON.stringify(this.progress.resume)) return;
    const events = changed ? [eventOf(this.watch, this.progress.events, `transfer.${answer.status}`, answer, tracking.settledAt())] : [];
    this.#record({ status: answer, resume, events: this.progress.events + events.length, ...(answer.final ? { ended: 'final' } : {}) }, events);
  }

  /** Records where a waiting watch stands, when it moved (the answer is unchanged). */
  save(resume: JourneySnapshot): void {
    if (JSON.stringify(resume) !== JSON.stringify(this.progress.resume)) this.#record({ ...this.progress, resume }, []);
  }

  /** Following stopped at WATCH_TIMEOUT_MS: the last event says so, with the answer as last read. */
  timeout(): void {
    const events = [eventOf(this.watch, this.progress.events, 'transfer.timeout', this.progress.status)];
    this.#record({ ...this.progress, events: this.progress.events + 1, ended: 'timeout' }, events);
  }

  #record(next: WatchProgress, events: WatchEvent[]): void {
    if (this.progress.ended) return;
    this.progress = next;
    this.#chain = this.#chain.then(async () => {
      if (this.lost) return;
      // Not recorded: removed, ended, or another process made these events first.
      if (!(await this.backend.advance(this.watch.id, next, events))) this.#lose(new Error('the watch is no longer this process\'s to follow'));
    });
    // A failed advance (the store unreachable) ends this follow; the backend runs it again later.
    this.#chain.catch((error: unknown) => this.#lose(error));
  }

  #lose(reason: unknown): void {
    this.lost = true;
    this.onLost(reason);
  }
}

/**
 * The positions of waiting watches, recorded by one timer for all of them: each at most every
 * `everyMs` (in the order they started waiting, so the writes spread as the watches did).
 */
class Saves {
  /** Each waiting watch's save and when it is due; a Map keeps them in the order they are due. */
  readonly #due = new Map<() => void, number>();
  #timer?: NodeJS.Timeout;

  constructor(
    private readonly everyMs: number,
    private readonly now: () => number,
  ) {}

  add(save: () => void): void {
    this.#due.set(save, this.now() + this.everyMs);
    this.#timer ??= setInterval(() => this.#run(), Math.max(1, Math.min(1_000, this.everyMs))).unref();
  }

  delete(save: () => void): void {
    this.#due.delete(save);
    if (this.#due.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #run(): void {
    const now = this.now();
    for (const [save, at] of this.#due) {
      if (at > now) break;
      this.#due.delete(save);
      this.#due.set(save, now + this.everyMs);
      save();
    }
  }
}

/** The backend's `FollowWork`: follows one watch until it ends, the signal aborts, or it is lost. */
export function follower(options: FollowerOptions): FollowWork {
  const now = options.now ?? Date.now;
  const saves = options.saveEveryMs ? new Saves(options.saveEveryMs, now) : undefined;
  return async (watch, progress, signal) => {
    // One controller for all the reads and waits of this watch: aborted when the backend stops it,
    // when it is lost, or at its expiry (which then records the timeout).
    const halt = new AbortController();
    const stop = (): void => halt.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) stop();
    const recorder = new Recorder(watch, progress, options.backend, (reason) => halt.abort(reason));
    let expired = false;
    const expiry = setTimeout(() => {
      expired = true;
      halt.abort(new Error('the watch expired'));
    }, Math.max(0, watch.expiresAt - now())).unref();
    let resume = progress.resume as JourneySnapshot | undefined;
    let offered: Offered | undefined;
    let waiting: Waiting | undefined;
    // Not while a block offered to it is read: past that block, its position would skip it.
    const save = (): void => {
      if (waiting && resume && !offered) recorder.save(waiting.caughtUp(resume));
    };
    const leave = (caughtUp: boolean): void => {
      if (!waiting) return;
      saves?.delete(save);
      if (caughtUp && resume) resume = waiting.caughtUp(resume);
      waiting.close();
      waiting = undefined;
    };
    // One read, its answer taken; in a function of its own so that the loop, suspended while the
    // watch waits, holds no register that still points at the read's journey and reader.
    const read = async (): Promise<boolean> => {
      const tracking = await options.status.track(watch.request, halt.signal, resume, offered);
      offered = undefined;
      try {
        recorder.take(tracking);
        resume = recorder.progress.resume as JourneySnapshot;
        return tracking.watching();
      } finally {
        tracking.release();
      }
    };
    let failures = 0;
    let started = false;
    try {
      while (!recorder.progress.ended && !recorder.lost && !signal.aborted) {
        if (expired || watch.expiresAt - now() <= 0) {
          recorder.timeout();
          break;
        }
        // Held as is (a snapshot is replaced, never changed), not as its JSON: a waiting watch keeps it.
        const before = resume;
        let waited = false;
        try {
          // A watch that starts waiting where its recorded read stopped (a watch just made: the read
          // that made it) joins first; when the head watcher checks every block from its cursor on,
          // it reads nothing before the next block offered. Else it reads after joining.
          if (!started && resume?.cursor?.next !== undefined && !waiting) {
            waiting = await options.status.wait(watch.request, resume, halt.signal);
            saves?.add(save);
          }
          const watching = !started && waiting?.covered ? true : await read();
          started = true;
          if (waiting && !(watching && resume && waiting.holds(resume))) leave(false);
          if (watching && resume && !recorder.progress.ended) {
            if (!waiting) {
              waiting = await options.status.wait(watch.request, resume, halt.signal);
              saves?.add(save);
            }
            waited = true;
            try {
              offered = await waiting.next(halt.signal);
            } catch (error) {
              // The head watch failed (or closed): carry on past the blocks it checked.
              leave(true);
              throw error;
            }
          }
          failures = 0;
        } catch (error) {
          offered = undefined;
          leave(false);
          if (halt.signal.aborted) continue;
          failures++;
          options.logger.warn({ watch: watch.id, failures, err: error }, 'following a watch failed; trying again later');
        }
        await recorder.settled.catch(() => undefined);
        // A read that ended without moving on (a chain failure, or nothing left to read in its
        // budget) waits before the next, longer each time in a row.
        if (!recorder.progress.ended && (failures > 0 || (!waited && JSON.stringify(resume) === JSON.stringify(before)))) {
          const backoff = Math.min(options.maxBackoffMs, options.firstBackoffMs * 2 ** Math.min(Math.max(failures - 1, 0), 20));
          await pause(backoff / 2 + Math.random() * (backoff / 2), halt.signal);
        }
      }
    } finally {
      leave(false);
      clearTimeout(expiry);
      signal.removeEventListener('abort', stop);
    }
    await recorder.settled.catch(() => undefined);
  };
}
