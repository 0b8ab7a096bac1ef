// Slices of the event loop's turns for the records of the watches one block settles. Their reads
// finish together (they wait for the same block's parts): their records taken back to back held the
// loop for all of them at once (37-86 ms of CPU at 500 watches a block), and one record a turn left
// each behind the socket work of every webhook before it. Records are taken back to back for up to
// a slice's length; the rest wait for the next turn (turns.ts), together.
import { SliceClock } from '../../chains/slice-clock';

/**
 * How long records are taken back to back in one turn. 5 ms, half a decode's slice: one slice is
 * shared by all the records a block settles, and their webhooks' socket work waits behind it.
 */
export const SLICE_MS = 5;

export class Slices {
  /** Its first slice begins at the first turn, not when the follower is made. */
  readonly #clock: SliceClock;
  /** The next turn, which every record that found the slice spent waits for. */
  #next?: Promise<void>;
  /** A slice just began: its first record is taken whatever the time (a slice of 0 ms takes one). */
  #fresh = false;

  constructor(ms: number = SLICE_MS) {
    this.#clock = new SliceClock(ms, { firstAfterTurn: true });
  }

  /** Whether a record may be taken now; else wait for `next` and ask again. */
  enter(): boolean {
    if (this.#fresh) {
      this.#fresh = false;
      return true;
    }
    return !this.#clock.over();
  }

  /** Resolves in the next turn, when a new slice begins. */
  next(): Promise<void> {
    this.#next ??= this.#clock.next().then(() => {
      this.#next = undefined;
      this.#fresh = true;
    });
    return this.#next;
  }
}
