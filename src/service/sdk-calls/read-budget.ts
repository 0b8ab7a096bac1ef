// What one request may make the service read from chain nodes and decode: bytes of answers and
// decoded items (extrinsics hashed, event records, metadata types), all chains together. Each bound
// holds per frame and per block elsewhere; this one holds per request, so that a node sending
// blocks of the largest accepted size, again and again, costs one request a bounded amount of CPU.
// Past a bound the request answers 502 naming the chain and the bound.
import { answerBudgets, type AnswerBudget } from '../../chains/answer-budget';
import { SliceClock } from '../../chains/slice-clock';
import type { Config } from '../../config';
import { ChainResponseError } from '../../errors';

export interface ReadLimits {
  /** REQUEST_MAX_CHAIN_BYTES */
  maxBytes: number;
  /** REQUEST_MAX_CHAIN_ITEMS */
  maxItems: number;
}

export interface ReadSpent {
  bytes: number;
  items: number;
}

/** The request budget the configuration sets. */
export const readLimits = (config: Config): ReadLimits => ({ maxBytes: config.REQUEST_MAX_CHAIN_BYTES, maxItems: config.REQUEST_MAX_CHAIN_ITEMS });

/**
 * The longest a decode runs before it lets the event loop turn (other requests, /health). 10 ms:
 * its items take 0.1-0.4 ms each (an event record), so a slice decodes tens of them and the turn,
 * with its checks of the request's end and budget, costs little beside them.
 */
const SLICE_MS = 10;

export class ReadBudget {
  #bytes = 0;
  #items = 0;
  #largest = 0;
  readonly #slice = new SliceClock(SLICE_MS);
  /** What the sockets ask of an answer's length before it is parsed: the answers it does not fit are counted as read. */
  readonly #answers: AnswerBudget = {
    fits: (chars) => {
      if (this.#bytes + chars <= this.limits.maxBytes) return true;
      this.#bytes += chars;
      return false;
    },
  };

  /** `signal`: the request's; a decode under way stops when it aborts (its deadline, the client gone). */
  constructor(
    readonly limits: ReadLimits,
    private readonly signal?: AbortSignal,
  ) {}

  get spent(): ReadSpent {
    return { bytes: this.#bytes, items: this.#items };
  }

  /** The bytes left before the bound, and the largest single answer counted so far. */
  get room(): { bytes: number; largest: number } {
    return { bytes: Math.max(0, this.limits.maxBytes - this.#bytes), largest: this.#largest };
  }

  /** Counts `n` bytes `chain` sent (one answer); throws the 502 once the request's bytes are spent. */
  bytes(chain: string, n: number): void {
    this.#bytes += n;
    this.#largest = Math.max(this.#largest, n);
    if (this.#bytes > this.limits.maxBytes) {
      throw new ChainResponseError(chain, `sent more than ${this.limits.maxBytes} bytes for this one request (REQUEST_MAX_CHAIN_BYTES); the request stopped there`);
    }
  }

  /**
   * Counts `n` items of `chain` about to be decoded (before the work), each weighing `weight` (what
   * decoding one costs next to hashing an extrinsic); throws the 502 past the bound.
   */
  items(chain: string, n: number, what: string, weight = 1): void {
    this.#items += n * weight;
    if (this.#items > this.limits.maxItems) {
      throw new ChainResponseError(chain, `sent more than ${this.limits.maxItems} items to decode for this one request (REQUEST_MAX_CHAIN_ITEMS; ${n} ${what} at once${weight > 1 ? `, ${weight} items each` : ''}); the request stopped there`);
    }
  }

  /**
   * Runs `call` (chain calls) with its answers measured by the sockets before they are parsed
   * (chains/answer-budget.ts): an answer longer than what is left fails its call, and the 502 is
   * then this budget's, naming REQUEST_MAX_CHAIN_BYTES.
   */
  async reading<T>(chain: string, call: () => Promise<T>): Promise<T> {
    try {
      return await answerBudgets.run(this.#answers, call);
    } catch (error) {
      this.check(chain);
      throw error;
    }
  }

  /** Throws the 502 when nothing is left, before another read is sent. */
  check(chain: string): void {
    this.bytes(chain, 0);
    this.items(chain, 0, 'items');
  }

  /** Whether a decode has run for a slice and should `pause` (cheap enough to ask per item). */
  due(): boolean {
    return this.#slice.over();
  }

  /**
   * Between slices of a long decode: lets the event loop run (other requests, /health; one slice
   * of all the decodes under way per turn), then stops
   * when the request ended meanwhile, or with the 502 when another read of it spent the budget.
   */
  async pause(chain: string): Promise<void> {
    await this.#slice.next();
    this.signal?.throwIfAborted();
    this.check(chain);
  }

  /** Adds what another budget spent (a block a head watcher read for this request). */
  add(chain: string, spent: ReadSpent): void {
    this.bytes(chain, spent.bytes);
    this.items(chain, spent.items, 'items');
  }
}

/**
 * About how many bytes `value` took as JSON: strings by length, other leaves a few bytes, walked
 * without recursion (a node's answer may be deeply nested) and given up once over `limit`.
 */
export function jsonBytes(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (v === null || typeof v !== 'object') total += 8;
    else if (Array.isArray(v)) {
      total += 2 + v.length;
      for (const item of v) stack.push(item);
    } else {
      for (const [key, item] of Object.entries(v)) {
        total += key.length + 4;
        stack.push(item);
      }
    }
  }
  return total;
}

/**
 * The number of items a SCALE sequence at `offset` of `bytes` announces (its compact length), and
 * where its first item starts: read before decoding, so the count is charged before the work.
 * Each item takes at least one byte, so a count the bytes cannot hold is refused here.
 */
export function announcedItems(bytes: Uint8Array, offset: number): { count: number; offset: number } {
  const first = bytes[offset];
  if (first === undefined) throw new Error(`no length at byte ${offset}`);
  const mode = first & 0b11;
  const length = mode === 0 ? 1 : mode === 1 ? 2 : mode === 2 ? 4 : (first >> 2) + 5;
  if (offset + length > bytes.length) throw new Error(`a length of ${length} bytes cut short at byte ${offset}`);
  let count = 0;
  for (let i = length - 1; i >= (mode === 3 ? 1 : 0); i--) count = count * 256 + bytes[offset + i]!;
  if (mode !== 3) count = Math.floor(count / 4);
  const start = offset + length;
  if (count > bytes.length - start) throw new Error(`${count} items cannot fit in the ${bytes.length - start} bytes left`);
  return { count, offset: start };
}
