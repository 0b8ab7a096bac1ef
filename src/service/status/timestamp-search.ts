// Where to start reading a later chain: a message is processed after it was sent, so nothing older
// than the block whose timestamp is at or just before the sending block's needs reading. Found by a
// binary search over `Timestamp.Now` (about log2(span) block reads).
import { ChainResponseError } from '../../errors';
import type { BlockRef } from './chain-reads';
import type { ChainReader } from './reader';

/**
 * The number of the latest block of `chain` stamped at or before `since` (ms), searched among the
 * `span` blocks below the finalized head; the oldest of them when all are newer (`beyond`: the
 * message may have been processed before them). With the head.
 */
export async function startBlock(reader: ChainReader, chain: string, since: number, span: number): Promise<{ start: number; head: BlockRef; beyond?: true }> {
  const head = await reader.head(chain);
  const stampOf = async (n: number): Promise<number> => {
    const block = n === head.number ? reader.block(chain, head) : await reader.blockAt(chain, n);
    // The finalized head's ancestors exist; a chain that says otherwise cannot be searched.
    if (!block) throw new ChainResponseError(chain, `has no block ${n} below its finalized head ${head.number}`);
    return block.timestamp();
  };
  let low = Math.max(0, head.number - span);
  let high = head.number;
  if ((await stampOf(high)) <= since) return { start: high, head };
  if ((await stampOf(low)) > since) return low === 0 ? { start: low, head } : { start: low, head, beyond: true };
  // Invariant: block `low` is at or before `since`, block `high` after it.
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if ((await stampOf(mid)) <= since) low = mid;
    else high = mid;
  }
  return { start: low, head };
}
