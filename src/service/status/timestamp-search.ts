// Where to start reading a later chain: a message is processed after it was sent, so nothing older
// than the block whose timestamp is at or just before the sending block's needs reading. Found by a
// binary search over `Timestamp.Now` (about log2(span) block reads). Genesis has no `Timestamp.Now`
// (the first block's inherent sets it): it is before everything, and a chain younger than the span
// is searched from it.
import { distinctEndpoints } from '../../chains/endpoint';
import { ChainResponseError } from '../../errors';
import type { BlockRef } from './chain-reads';
import type { ChainReader } from './reader';

/**
 * The number of the latest block of `chain` stamped at or before `since` (ms), searched among the
 * `span` blocks below the finalized head (genesis counts as stamped before everything); the oldest
 * of them when all are newer (`beyond`: the message may have been processed before them). With the head.
 */
export async function startBlock(reader: ChainReader, chain: string, since: number, span: number): Promise<{ start: number; head: BlockRef; beyond?: true }> {
  const head = await reader.head(chain);
  const stampOf = async (n: number): Promise<number> => {
    if (n === 0) return -Infinity;
    const block = n === head.number ? reader.block(chain, head) : await reader.blockAt(chain, n);
    // The finalized head's ancestors exist; a chain that says otherwise cannot be searched.
    if (!block) throw new ChainResponseError(chain, `has no block ${n} below its finalized head ${head.number}`);
    return block.timestamp();
  };
  let low = Math.max(0, head.number - span);
  let high = head.number;
  if ((await stampOf(high)) <= since) return { start: high, head };
  if ((await stampOf(low)) > since) return { start: low, head, beyond: true };
  // Invariant: block `low` is at or before `since`, block `high` after it.
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if ((await stampOf(mid)) <= since) low = mid;
    else high = mid;
  }
  return { start: low, head };
}

export type StartSearch = typeof startBlock;

/** How long a search answers the same question again: the watches of one origin block ask it together. */
const SHARED_FOR_MS = 10_000;
/** Searches remembered at most (each a few numbers). */
const MAX_SHARED = 1_000;

/**
 * The searches of this process, shared by chain connection (chain and endpoints), time and span:
 * thousands of watches whose transfers settled in one origin block each moved on to the next chain
 * with the same `since`, and ran the same ~log2(span) block reads. A shared answer is given with the
 * asker's own finalized head (its start is at or below it), so a reader reads as far as it would
 * have; a search that failed is not shared (the asker searches on its own).
 */
export class SharedSearches {
  readonly #made = new Map<string, { at: number; search: ReturnType<StartSearch> }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  readonly search: StartSearch = async (reader, chain, since, span) => {
    const key = `${chain} ${distinctEndpoints(reader.endpoints(chain)).join(' ')} ${since} ${span}`;
    this.#forgetOld();
    const made = this.#made.get(key);
    if (made) {
      const shared = await made.search.catch(() => undefined);
      if (shared) return { ...shared, head: await reader.head(chain) };
      return startBlock(reader, chain, since, span);
    }
    const search = startBlock(reader, chain, since, span);
    this.#made.set(key, { at: this.now(), search });
    search.catch(() => {
      if (this.#made.get(key)?.search === search) this.#made.delete(key);
    });
    return search;
  };

  #forgetOld(): void {
    const oldest = this.now() - SHARED_FOR_MS;
    // In the order they were made: the first still young ends the sweep.
    for (const [key, { at }] of this.#made) {
      if (at > oldest && this.#made.size < MAX_SHARED) break;
      this.#made.delete(key);
    }
  }
}
