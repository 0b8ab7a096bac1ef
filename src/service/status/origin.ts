// The origin leg: the extrinsic found by its hash in a block (the one given, or among the last
// TRACK_LOOKBACK_BLOCKS finalized ones), its outcome and the message it sent, read from the events
// of its phase.
import { ChainResponseError } from '../../errors';
import type { Leg } from './answer';
import { samePhase } from './chain-events';
import type { BlockView, ChainReader } from './reader';

export interface Origin {
  leg: Leg;
  /** The message's id: the `Sent` event's `message_id` (its SetTopic), else the hash XCMP/UMP report. */
  messageId?: string;
  /** Where the origin sent the message (the `Sent` event's destination, polkadot.js JSON). */
  sentTo?: unknown;
  /**
   * A relay that named no message (runtimes before the executor's `Sent`, Kusama 1.0.0) but ran
   * the transfer's XCM (`xcmPallet.Attempted`): its block, which the parachain's validation data
   * names as the downward message's `sent_at`.
   */
  downwardFrom?: number;
}

export const notFoundLeg = (chain: string): Leg => ({ chain, role: 'origin', state: 'not-found', events: [] });

/** The extrinsic `index` of `block`: its outcome, events and message. */
export async function readOrigin(block: BlockView, index: number): Promise<Origin> {
  const phase = { apply: index };
  const events = (await block.events()).filter((e) => samePhase(e.phase, phase));
  const outcome = events.find((e) => e.fact?.kind === 'extrinsic-success' || e.fact?.kind === 'extrinsic-failed')?.fact;
  if (!outcome) throw new ChainResponseError(block.chain, `has no ExtrinsicSuccess or ExtrinsicFailed for extrinsic ${index} of block ${block.number}`);
  const leg: Leg = {
    chain: block.chain,
    role: 'origin',
    state: outcome.kind === 'extrinsic-failed' ? 'failed' : 'success',
    blockNumber: block.number,
    blockHash: block.hash,
    extrinsicIndex: index,
    events: events.map((e) => e.name),
    ...(outcome.kind === 'extrinsic-failed' ? { error: outcome.error } : {}),
  };
  if (outcome.kind === 'extrinsic-failed') return { leg };
  // The Sent event's id; without one (runtimes before topics), the hash XCMP/UMP sent it under.
  let sent: { messageId?: string; destination: unknown } | undefined;
  let hash: string | undefined;
  for (const { fact } of events) {
    if (fact?.kind === 'sent') sent ??= fact;
    if (fact?.kind === 'message-sent') hash ??= fact.messageId;
  }
  const messageId = sent?.messageId ?? hash;
  const downward = messageId === undefined && events.some((e) => e.name === 'xcmPallet.Attempted');
  return { leg, messageId, sentTo: sent?.destination, ...(downward ? { downwardFrom: block.number } : {}) };
}

/** Where `txHash` is in `block`, or -1. */
export async function indexIn(block: BlockView, txHash: string): Promise<number> {
  return (await block.extrinsics()).indexOf(txHash);
}

/**
 * The newest of the last `lookback` finalized blocks of `chain` that holds `txHash`, newest first
 * (a wallet asks soon after submitting), a batch of blocks at a time; with the head searched from.
 */
export async function lookBack(reader: ChainReader, chain: string, txHash: string, lookback: number) {
  const head = await reader.head(chain);
  const oldest = Math.max(0, head.number - lookback + 1);
  for (let top = head.number, batch = 0; top >= oldest; top -= batch) {
    batch = reader.batch();
    const numbers = Array.from({ length: Math.min(batch, top - oldest + 1) }, (_, i) => top - i);
    const blocks = await Promise.all(numbers.map((n) => (n === head.number ? reader.block(chain, head) : reader.blockAt(chain, n))));
    const indices = await Promise.all(blocks.map((block) => (block ? indexIn(block, txHash) : -1)));
    const at = indices.findIndex((i) => i >= 0);
    if (at >= 0) return { head, found: { block: blocks[at]!, index: indices[at]! } };
  }
  return { head, found: undefined };
}
