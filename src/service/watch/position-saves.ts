// The positions of waiting watches (with Redis), recorded by one timer for all of them.
import type { Logger } from 'pino';
import type { Position } from './backend';

/** A waiting watch whose position can be recorded. */
export interface Positioned {
  position(): Position | undefined;
}

/**
 * The positions of waiting watches, recorded by one timer for all of them, in batches: each at most
 * every `everyMs` (in the order they started waiting, so the writes spread as the watches did).
 */
export class Saves {
  /** Each waiting watch and when its save is due; a Map keeps them in the order they are due. */
  readonly #due = new Map<Positioned, number>();
  #timer?: NodeJS.Timeout;
  /** The batch being recorded: the next waits for it (a slow Redis is not sent a second). */
  #recording = false;

  constructor(
    private readonly everyMs: number,
    private readonly now: () => number,
    private readonly record: (positions: readonly Position[]) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  add(follow: Positioned): void {
    this.#due.set(follow, this.now() + this.everyMs);
    this.#timer ??= setInterval(() => this.#run(), Math.max(1, Math.min(1_000, this.everyMs))).unref();
  }

  delete(follow: Positioned): void {
    this.#due.delete(follow);
    if (this.#due.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #run(): void {
    if (this.#recording) return;
    const now = this.now();
    const positions: Position[] = [];
    for (const [follow, at] of this.#due) {
      if (at > now) break;
      this.#due.delete(follow);
      this.#due.set(follow, now + this.everyMs);
      const position = follow.position();
      if (position) positions.push(position);
    }
    if (positions.length === 0) return;
    this.#recording = true;
    // Best effort: a position not recorded is read again by whoever takes the watch over.
    this.record(positions)
      .catch((error: unknown) => this.logger.debug({ err: error, watches: positions.length }, 'waiting watches\' positions not recorded'))
      .finally(() => (this.#recording = false));
  }
}
