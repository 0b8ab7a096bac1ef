// The slice of a turn long work runs before it gives the event loop back (turns.ts): "has this
// slice run its N ms? then take a turn and start a new slice". Each user keeps its own length.
import { nextTurn } from './turns';

export interface SliceClockOptions {
  /** Takes a turn of the event loop (default `nextTurn`; src/sdk passes the one it is given). */
  turn?: () => Promise<void>;
  /** The time in ms (default `performance.now`): tests pass a fake one. */
  now?: () => number;
  /** The first slice begins after the first turn, not at construction: `over` until then. */
  firstAfterTurn?: boolean;
}

export class SliceClock {
  readonly #turn: () => Promise<void>;
  readonly #now: () => number;
  #startedAt: number;

  constructor(
    readonly ms: number,
    { turn = nextTurn, now = () => performance.now(), firstAfterTurn = false }: SliceClockOptions = {},
  ) {
    this.#turn = turn;
    this.#now = now;
    this.#startedAt = firstAfterTurn ? -Infinity : now();
  }

  /** Whether this slice has run its `ms` (cheap enough to ask per item). */
  over(): boolean {
    return this.#now() - this.#startedAt >= this.ms;
  }

  /** Takes a turn, then starts a new slice. */
  async next(): Promise<void> {
    await this.#turn();
    this.#startedAt = this.#now();
  }
}
