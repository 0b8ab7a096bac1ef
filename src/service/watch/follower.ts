// Following a watch: the transfer read as `POST /x-transfer/status` reads it, resumed from the
// watch's recorded progress, and one event made for each change of the answer. Between the blocks
// that can settle it, a watch is parked: it holds one `Follow` (its record and snapshot), its entry
// in the status service's head watcher index (`wait`) and its place in the process's deadlines, no
// journey, reader, promise, timer or abort signal. The index calls it back when a block for it
// comes; the block is read from the snapshot (`track` with `offered`), the answer recorded, and the
// watch parked again. Progress and events are recorded through the backend's compare-and-set
// `advance` (recorder.ts), so a watch another process took over is let go at once; with Redis the
// positions of waiting watches are recorded in batches (position-saves.ts).
import type { Logger } from 'pino';
import { asClient } from '../../chains/clients';
import type { StatusService, JourneySnapshot, Notified, Offered, Waiting } from '../status';
import { Deadlines, type Expiring } from './deadlines';
import type { FollowWork, Following, Position, WatchBackend } from './backend';
import { FairSlots, type Slot, type SlotKey, type Waiter } from './fair-slots';
import type { Watch, WatchProgress } from './model';
import { Saves } from './position-saves';
import { Recorder } from './recorder';
import { Slices } from './slices';

/**
 * With a backend shared by processes (Redis), a waiting watch's position (its cursor moved past the
 * blocks the head watcher checked for it) is recorded at most this often: a process that takes the
 * watch over re-reads at most this long of blocks. Made by one timer for all the watches of a
 * process, in batches (`recordPositions`: one script per 500 watches). In memory nobody else
 * resumes the watch: the follower keeps its position itself, and records progress only when the
 * answer changes or the cursor moves on a block it read.
 */
export const SAVE_EVERY_MS = 30_000;

/**
 * Runs (reads of a block for a watch, and their records) at once in a process, and of one owner's
 * watches. Parked watches are woken together when a head watcher starts, fails or comes back, and
 * when a process takes many watches over: read all at once, each run's garbage together passed the
 * heap bound's room (the V8 pages a peak takes stay resident). Two cores read no faster with more.
 */
export const MAX_RUNS = 128;
export const MAX_RUNS_PER_CLIENT = 64;

export interface FollowerOptions {
  status: Pick<StatusService, 'track' | 'wait'>;
  backend: Pick<WatchBackend, 'advance' | 'recordPositions'>;
  logger: Logger;
  /** The wait after the first chain failure in a row, doubled after each (jittered), up to `maxBackoffMs`. */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** How often a waiting watch's position is recorded (SAVE_EVERY_MS with Redis); never when absent. */
  saveEveryMs?: number;
  /** Runs at once, in all and per owner (MAX_RUNS, MAX_RUNS_PER_CLIENT). */
  maxRuns?: { total: number; perOwner: number };
  /** How long records are taken back to back in one turn of the event loop (SLICE_MS). */
  sliceMs?: number;
  /** Epoch ms now (tests need not move it: they set short timeouts). */
  now?: () => number;
}
/** What every follow of a process shares. */
interface Shared {
  options: FollowerOptions;
  now: () => number;
  deadlines: Deadlines;
  saves?: Saves;
  /** A slot per run, shared between owners (the host is not used). */
  runs: FairSlots;
  slices: Slices;
}

/**
 * One followed watch. It runs (reads, records) only while there is something to read: between the
 * blocks that can settle it, it is parked in its head watcher's index (`#waiting`), which calls
 * `#offer` when a block for it comes. A parked watch holds this object, its index entry and its
 * place in the process's deadlines: no promise, timer, abort controller or suspended function.
 */
class Follow extends Recorder implements Following, Expiring, Notified, Waiter {
  /** Where the watch carries on: held as is (a snapshot is replaced, never changed), not as its JSON. */
  #resume?: JourneySnapshot;
  /** The block offered to it that the next read starts from. */
  #offered?: Offered;
  #waiting?: Waiting;
  /** Aborts the reads and waits of one run (stopped, lost, expired); none while parked. */
  #halt?: AbortController;
  /** `queued`: waiting for a run slot (holding none of a run's objects yet). */
  #state: 'queued' | 'running' | 'parked' | 'pausing' | 'done' = 'queued';
  #pause?: NodeJS.Timeout;
  #started = false;
  #expired = false;
  #failures = 0;
  /** Stopped by the backend (removed, lost, closing). */
  #stopped = false;
  /** Kept by the process's Deadlines. */
  deadlineAt = -1;
  /** The watch's, copied: the deadlines heap reads it on every sift (a getter showed in profiles); a watch's expiry is fixed when it is made. */
  readonly expiresAt: number;

  constructor(
    watch: Watch,
    progress: WatchProgress,
    private readonly done: () => void,
    private readonly shared: Shared,
  ) {
    super(watch, progress, shared.options.backend);
    this.#resume = progress.resume as JourneySnapshot | undefined;
    this.expiresAt = watch.expiresAt;
  }

  /**
   * A block was offered to the parked watch: it runs to read it. Its head watch failed (or closed):
   * it waits and reads again later, without a run now (every watch on the chain hears it at once).
   */
  offered(): void {
    if (this.#state !== 'parked') return;
    try {
      this.#offered = this.#take();
    } catch (error) {
      this.#failures++;
      // At debug: a chain's failure reaches every watch on it at once (the pool's /status names it).
      this.shared.options.logger.debug({ watch: this.watch.id, failures: this.#failures, err: error }, 'the head watch of a waiting watch failed; reading again later');
      this.#pauseThenRun();
      return;
    }
    if (this.#offered) this.#run();
  }

  start(): void {
    this.shared.deadlines.add(this);
    this.#run();
  }

  stop(reason: unknown): void {
    this.#stopped = true;
    this.#interrupt(reason);
  }

  /** WATCH_TIMEOUT_MS passed: the read in progress stops, and the timeout is recorded. */
  expire(): void {
    this.#expired = true;
    this.#interrupt(new Error('the watch expired'));
  }

  protected onLost(reason: unknown): void {
    this.#interrupt(reason);
  }

  /**
   * Where a parked watch stands, when the head watcher moved it on since it was recorded; none while
   * a block offered to it is read (past that block, its position would skip it) or an advance is on
   * its way (a position must not overtake it).
   */
  position(): Position | undefined {
    if (this.#state !== 'parked' || !this.#waiting || !this.#resume || this.#offered || this.recording || this.#over()) return undefined;
    const resume = this.#waiting.caughtUp(this.#resume);
    const recorded = this.progress.resume as JourneySnapshot | undefined;
    if (resume.cursor?.next === undefined || resume.cursor.next === recorded?.cursor?.next) return undefined;
    // The rest of the progress is shared, as compact as it was.
    this.progress = { ...this.progress, resume };
    return { id: this.watch.id, events: this.progress.events, chain: resume.cursor.chain, next: resume.cursor.next };
  }

  #over(): boolean {
    return this.progress.ended !== undefined || this.lost || this.#stopped;
  }

  /**
   * Stops the run in progress; a parked, pausing or queued watch ends at once (recording its timeout
   * when it expired), with no run: a process closing stops all its watches together.
   */
  #interrupt(reason: unknown): void {
    this.#halt?.abort(reason);
    if (this.#state === 'queued') this.shared.runs.cancel(this.#slot(), this);
    else if (this.#state !== 'parked' && this.#state !== 'pausing') return;
    if (this.#expired && !this.#over()) this.timeout();
    void this.#finish();
  }

  #slot(): SlotKey {
    return { owner: this.watch.owner, host: '' };
  }

  /** Runs from where the watch stands until it parks, pauses or ends, once a run slot is its; one run at a time. */
  #run(): void {
    clearTimeout(this.#pause);
    this.#state = 'queued';
    const slot = this.shared.runs.tryAcquire(this.#slot());
    if (slot) this.grant(slot);
    else this.shared.runs.wait(this.#slot(), this);
  }

  /** A run slot is its (FairSlots): it runs, and gives the slot back when it parks, pauses or ends. */
  grant({ release }: Slot): void {
    this.#state = 'running';
    this.#halt = new AbortController();
    // Started from the head watcher or a timer: the work is done on behalf of the watch's owner.
    void asClient(this.watch.owner, () => this.#steps())
      .catch((error: unknown) => {
        this.shared.options.logger.error({ watch: this.watch.id, err: error }, 'following a watch failed unexpectedly');
        return this.#finish();
      })
      .finally(release);
  }

  async #steps(): Promise<void> {
    const { options, now } = this.shared;
    const halt = this.#halt!.signal;
    while (!this.#over()) {
      if (this.#expired || this.expiresAt - now() <= 0) {
        this.timeout();
        break;
      }
      if (halt.aborted) break;
      const before = this.#resume;
      let waited = false;
      try {
        // A watch that starts waiting where its recorded read stopped (a watch just made: the read
        // that made it) joins first; when the head watcher checks every block from its cursor on,
        // it reads nothing before the next block offered. Else it reads after joining.
        if (!this.#started && this.#resume?.cursor?.next !== undefined && !this.#waiting) await this.#join(halt);
        const watching = !this.#started && this.#waiting?.covered ? true : await this.#read(halt);
        this.#started = true;
        const resume = this.#resume;
        if (this.#waiting && !(watching && resume && this.#waiting.holds(resume))) this.#leave(false);
        if (watching && resume && !this.progress.ended) {
          if (!this.#waiting) await this.#join(halt);
          waited = true;
          await this.settled.catch(() => undefined);
          if (halt.aborted || this.#over()) continue;
          this.#failures = 0;
          if (!this.#wake()) return;
        }
        this.#failures = 0;
      } catch (error) {
        this.#offered = undefined;
        this.#leave(false);
        if (halt.aborted) continue;
        this.#failures++;
        options.logger.warn({ watch: this.watch.id, failures: this.#failures, err: error }, 'following a watch failed; trying again later');
      }
      await this.settled.catch(() => undefined);
      // A read that ended without moving on (a chain failure, or nothing left to read in its
      // budget) waits before the next, longer each time in a row.
      if (!this.progress.ended && !halt.aborted && (this.#failures > 0 || (!waited && JSON.stringify(this.#resume) === JSON.stringify(before)))) {
        this.#pauseThenRun();
        return;
      }
    }
    await this.#finish();
  }

  /** Waits before the next run, longer after each failure in a row (jittered). */
  #pauseThenRun(): void {
    const { firstBackoffMs, maxBackoffMs } = this.shared.options;
    const backoff = Math.min(maxBackoffMs, firstBackoffMs * 2 ** Math.min(Math.max(this.#failures - 1, 0), 20));
    this.#state = 'pausing';
    this.#halt = undefined;
    this.#pause = setTimeout(() => this.#run(), backoff / 2 + Math.random() * (backoff / 2)).unref();
  }

  /** The block offered and not yet read; a failed (or closed) head watch throws, past the blocks it checked. */
  #take(): Offered | undefined {
    const item = this.#waiting?.take();
    if (!(item instanceof Error)) return item;
    this.#leave(true);
    throw item;
  }

  /** Takes the block offered, to read next; else parks until one is (false). */
  #wake(): boolean {
    this.#offered = this.#take();
    if (this.#offered) return true;
    // Nothing to read until a block is offered.
    this.#state = 'parked';
    this.#halt = undefined;
    return false;
  }

  async #join(halt: AbortSignal): Promise<void> {
    this.#waiting = await this.shared.options.status.wait(this.watch.request, this.#resume!, halt, this);
    this.shared.saves?.add(this);
  }

  /** One read, its answer taken within a slice of the event loop's turns (slices.ts). */
  async #read(halt: AbortSignal): Promise<boolean> {
    const tracking = await this.shared.options.status.track(this.watch.request, halt, this.#resume, this.#offered);
    this.#offered = undefined;
    try {
      // Checked and taken in one go: the records let go together take the slice in turn.
      while (!this.shared.slices.enter()) {
        await this.shared.slices.next();
        // Stopped or expired meanwhile: as if the read had been stopped.
        halt.throwIfAborted();
      }
      this.take(tracking);
      this.#resume = this.progress.resume as JourneySnapshot;
      return tracking.watching();
    } finally {
      tracking.release();
    }
  }

  #leave(caughtUp: boolean): void {
    const waiting = this.#waiting;
    if (!waiting) return;
    this.shared.saves?.delete(this);
    if (caughtUp && this.#resume) this.#resume = waiting.caughtUp(this.#resume);
    waiting.close();
    this.#waiting = undefined;
  }

  async #finish(): Promise<void> {
    if (this.#state === 'done') return;
    this.#state = 'done';
    this.#halt = undefined;
    clearTimeout(this.#pause);
    this.#leave(false);
    this.shared.deadlines.delete(this);
    if (this.recording) await this.settled.catch(() => undefined);
    this.done();
  }
}

/** The backend's `FollowWork`: follows one watch until it ends, is stopped, or is lost. */
export function follower(options: FollowerOptions): FollowWork {
  const now = options.now ?? Date.now;
  const { total, perOwner } = options.maxRuns ?? { total: MAX_RUNS, perOwner: MAX_RUNS_PER_CLIENT };
  const record = options.backend.recordPositions?.bind(options.backend);
  const shared: Shared = {
    options,
    now,
    deadlines: new Deadlines(now),
    saves: options.saveEveryMs && record ? new Saves(options.saveEveryMs, now, record, options.logger) : undefined,
    runs: new FairSlots({ total, perOwner, perHost: total }),
    slices: new Slices(options.sliceMs),
  };
  return (watch, progress, done) => {
    const follow = new Follow(watch, progress, done, shared);
    follow.start();
    return follow;
  };
}
