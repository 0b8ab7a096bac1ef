// A message on a chain after the origin: found by its id (the SetTopic the routers append and carry
// through hops, or the hash the origin sent it under) in the outcome a queue reports for it
// (`messageQueue.Processed`, `xcmpQueue.Success`, `dmpQueue.ExecutedDownward`, ...: queue-outcomes.ts),
// with what happened while it was processed: the events since the previous message's outcome in the
// same phase, among them `AssetsTrapped` when its assets were left in the holding register.
import type { Leg, MessageFailure } from './answer';
import { samePhase, type ChainEvent } from './chain-events';

export interface MessageOutcome {
  state: 'success' | 'failed';
  /** The events of its processing, in order, its outcome last. */
  events: string[];
  error?: MessageFailure;
  trapped?: { hash: string };
}

const isOutcome = (event: ChainEvent): boolean => event.fact?.kind === 'outcome';

/**
 * Where each message's first outcome is in a block's events, made once per block's events (read
 * once, shared, never changed): a settling block wakes every watch it settles, and each looked
 * through all of its events for its own message.
 */
const outcomes = new WeakMap<readonly ChainEvent[], Map<string, number>>();

function outcomeAt(events: readonly ChainEvent[], id: string): number {
  let at = outcomes.get(events);
  if (!at) {
    const index = new Map<string, number>();
    events.forEach((event, i) => {
      if (event.fact?.kind === 'outcome') for (const message of event.fact.ids) if (!index.has(message)) index.set(message, i);
    });
    outcomes.set(events, (at = index));
  }
  return at.get(id) ?? -1;
}

/** What became of message `id` in a block's events, or undefined when the block did not process it. */
export function findMessage(events: readonly ChainEvent[], id: string): MessageOutcome | undefined {
  const at = outcomeAt(events, id);
  const outcome = events[at];
  if (outcome?.fact?.kind !== 'outcome') return undefined;
  let start = at;
  while (start > 0 && samePhase(events[start - 1]!.phase, outcome.phase) && !isOutcome(events[start - 1]!)) start--;
  const segment = events.slice(start, at + 1);
  const trap = segment.find((e) => e.fact?.kind === 'trapped')?.fact;
  const trapped = trap?.kind === 'trapped' ? { hash: trap.hash } : undefined;
  const { failure } = outcome.fact;
  const error: MessageFailure | undefined = failure === undefined ? undefined : { reason: failure };
  return { state: error || trapped ? 'failed' : 'success', events: segment.map((e) => e.name), ...(error ? { error } : {}), ...(trapped ? { trapped } : {}) };
}

/** A pending leg, filled with where and how its message was processed. */
export function reachedLeg(leg: Leg, block: { number: number; hash: string }, outcome: MessageOutcome): Leg {
  return { chain: leg.chain, role: leg.role, state: outcome.state, blockNumber: block.number, blockHash: block.hash, events: outcome.events, ...(outcome.error ? { error: outcome.error } : {}), ...(outcome.trapped ? { trapped: outcome.trapped } : {}) };
}
