// Slices of the event loop's turns for the records of the watches one block settles. Their reads
// finish together (they wait for the same block's parts): their records taken back to back held the
// loop for all of them at once (37-86 ms of CPU at 500 watches a block), and one record a turn left
// each behind the socket work of every webhook before it. Records are taken back to back for up to
// a slice's length; the rest wait for the next turn (turns.ts), together.
import { nextTurn } from '../../chains/turns';

/** How long records are taken back to back in one turn. */
export const SLICE_MS = 5;

export class Slices {
  #endsAt = -Infinity;
  /** The next turn, which every record that found the slice spent waits for. */
  #next?: Promise<void>;
  /** A slice just began: its first record is taken whatever the time (a slice of 0 ms takes one). */
  #fresh = false;

  constructor(private readonly ms: number = SLICE_MS) {}

  /** Whether a record may be taken now; else wait for `next` and ask again. */
  enter(): boolean {
    if (this.#fresh) {
      this.#fresh = false;
      return true;
    }
    return performance.now() < this.#endsAt;
  }

  /** Resolves in the next turn, when a new slice begins. */
  next(): Promise<void> {
    this.#next ??= nextTurn().then(() => {
      this.#next = undefined;
      this.#fresh = true;
      this.#endsAt = performance.now() + this.ms;
    });
    return this.#next;
  }
}
