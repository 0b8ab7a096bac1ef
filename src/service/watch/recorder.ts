// A watch's record: the event made for each change of its answer (its body fixed when made), the
// progress kept compact, and the Recorder that records both through the backend's compare-and-set
// `advance`, one at a time, in order (a watch another process took over is let go at once).
import type { JourneySnapshot, StatusAnswer, Tracking } from '../status';
import type { WatchBackend } from './backend';
import { compact, type Watch, type WatchEvent, type WatchProgress } from './model';

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

/** `progress` compacted (see `compact`), its snapshot's legs still those of its answer (JSON would copy them). */
export function compactProgress(progress: WatchProgress): WatchProgress {
  const resume = progress.resume as JourneySnapshot | undefined;
  if (resume?.legs !== progress.status.legs) return compact(progress);
  const copy = compact({ ...progress, resume: { ...resume, legs: [] } });
  (copy.resume as JourneySnapshot).legs = copy.status.legs;
  return copy;
}

/**
 * Where a read leaves the watch, holding the legs of its answer rather than a copy of them: a
 * watch keeps both (its status and where it carries on), and a journey carries on from a snapshot
 * with a copy of its legs' array, replacing legs, never changing one in place.
 */
export function resumeOf(tracking: Pick<Tracking, 'snapshot'>, answer: StatusAnswer): JourneySnapshot {
  return { ...tracking.snapshot(), legs: answer.legs };
}

/** The watch's recorded state, and what records it: one `advance` at a time, in order. */
export abstract class Recorder {
  #chain?: Promise<void>;
  /** Set once an advance was refused or failed: nothing more is recorded. */
  lost = false;

  constructor(
    protected readonly watch: Watch,
    public progress: WatchProgress,
    private readonly backend: Pick<WatchBackend, 'advance'>,
  ) {}

  /** An advance was refused or failed: following stops. */
  protected abstract onLost(reason: unknown): void;

  /** Whether an advance is queued or running. */
  protected get recording(): boolean {
    return this.#chain !== undefined;
  }

  /** Waits for what was queued; rejects as the advance did. */
  get settled(): Promise<void> {
    return this.#chain ?? Promise.resolve();
  }

  /**
   * Takes the answer as read now: an event when it changed (a final answer always has: `final` is
   * part of the change), `ended: 'final'` once it is final, else the cursor when it moved.
   */
  protected take(tracking: Pick<Tracking, 'answer' | 'snapshot' | 'settledAt'>): void {
    const answer = tracking.answer();
    const changed = changeOf(answer) !== changeOf(this.progress.status);
    const resume = resumeOf(tracking, answer);
    if (!changed && !answer.final && JSON.stringify(resume) === JSON.stringify(this.progress.resume)) return;
    const events = changed ? [eventOf(this.watch, this.progress.events, `transfer.${answer.status}`, answer, tracking.settledAt())] : [];
    this.#record({ status: answer, resume, events: this.progress.events + events.length, ...(answer.final ? { ended: 'final' } : {}) }, events);
  }

  /** Following stopped at WATCH_TIMEOUT_MS: the last event says so, with the answer as last read. */
  protected timeout(): void {
    const events = [eventOf(this.watch, this.progress.events, 'transfer.timeout', this.progress.status)];
    this.#record({ ...this.progress, events: this.progress.events + 1, ended: 'timeout' }, events);
  }

  #record(recorded: WatchProgress, events: WatchEvent[]): void {
    if (this.progress.ended) return;
    const next = compactProgress(recorded);
    this.progress = next;
    const chain = this.settled.then(async () => {
      if (this.lost) return;
      // Not recorded: removed, ended, or another process made these events first.
      if (!(await this.backend.advance(this.watch.id, next, events))) this.#lose(new Error('the watch is no longer this process\'s to follow'));
    });
    this.#chain = chain;
    chain.then(
      // Nothing queued: a parked watch holds no promise.
      () => {
        if (this.#chain === chain) this.#chain = undefined;
      },
      // A failed advance (the store unreachable) ends this follow; the backend runs it again later.
      (error: unknown) => this.#lose(error),
    );
  }

  #lose(reason: unknown): void {
    if (this.lost) return;
    this.lost = true;
    this.onLost(reason);
  }
}
