// Blocks read by hash, shared by the watches made on them: a backend that watches its users'
// transfers makes many watches on one origin block at once, and each read it in full (the block,
// its events, its timestamp). A block's parts are the same for every reader of one hash on one
// connection, so the first reader's read serves the others, while it runs and for a while after.
import { distinctEndpoints } from '../../chains/endpoint';
import type { ChainEvent } from './chain-events';

/** One part of a block: the read under way or done, if any. */
export interface Slot<T> {
  read?: Promise<T>;
}

export interface SharedBlock {
  found: Slot<{ number: number; extrinsics: string[] } | undefined>;
  events: Slot<ChainEvent[]>;
  timestamp: Slot<number>;
}

/**
 * The part in `slot`, read by `start` (the asking reader's own read) unless another reader's read
 * of it is under way or done. A read that failed is forgotten; a reader that only joined it (the
 * failure may be the other reader's deadline or client gone) reads the part itself.
 */
export async function sharedPart<T>(slot: Slot<T>, start: () => Promise<T>): Promise<T> {
  const joined = slot.read !== undefined;
  const read = (slot.read ??= start());
  try {
    return await read;
  } catch (error) {
    if (slot.read === read) slot.read = undefined;
    if (!joined) throw error;
    return sharedPart(slot, start);
  }
}

/** The blocks last read by hash, by connection (chain and endpoints) and hash; at most `max` of them. */
export class SharedBlocks {
  readonly #blocks = new Map<string, SharedBlock>();

  constructor(private readonly max = 16) {}

  /** The shared parts of block `hash` of `chain` reached through `endpoints` (the newest used last out). */
  get(chain: string, endpoints: readonly string[], hash: string): SharedBlock {
    const key = `${chain} ${distinctEndpoints(endpoints).join(' ')} ${hash}`;
    const block = this.#blocks.get(key) ?? { found: {}, events: {}, timestamp: {} };
    this.#blocks.delete(key);
    this.#blocks.set(key, block);
    if (this.#blocks.size > this.max) this.#blocks.delete(this.#blocks.keys().next().value!);
    return block;
  }

  /** Forgets `hash` (a node that did not know it may know it later). */
  forget(chain: string, endpoints: readonly string[], hash: string): void {
    this.#blocks.delete(`${chain} ${distinctEndpoints(endpoints).join(' ')} ${hash}`);
  }

  get size(): number {
    return this.#blocks.size;
  }
}
