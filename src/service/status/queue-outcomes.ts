// What a chain's message queue says it did with a message, in every queue pallet a chain may still
// run (docs/status.md has the table):
//
// - `messageQueue.Processed { id, success }` / `ProcessingFailed { id, error }` (polkadot-sdk 1.5
//   and later on parachains, 0.9.43 and later on relays): `id` is the SetTopic when the message has
//   one, else its blake2-256 hash.
// - `xcmpQueue.Success` / `Fail` (sibling messages before that): `message_hash` (blake2-256 of the
//   message, what the sender's `XcmpMessageSent` named) and, from polkadot-sdk 1.0, `message_id`
//   (the SetTopic, as above); before 1.0 only an `Option` of the hash. `BadVersion` / `BadFormat`:
//   the message was not executed.
// - `dmpQueue.ExecutedDownward` (downward messages before that): `message_hash` and `message_id`
//   from 1.0, only `message_id` (the hash) before; `cumulusXcm.ExecutedDownward(id, outcome)` on
//   parachains that execute downward messages without a queue.
// - `ump.ExecutedUpward(id, outcome)` (upward messages on relays before 0.9.43): the hash of the
//   upward message, what the sender's `UpwardMessageSent` named.
//
// An outcome is matched by any id it carries. `WeightExhausted` and `OverweightEnqueued` leave a
// message in its queue (it runs later, or by hand): they settle nothing.
import type { Codec } from '@polkadot/types-codec/types';
import { field, hexOf, idOf, maybeField, type EnumCodec, type EventCodec } from './event-fields';

/** A queue is done with a message: every id it names it by, and why it failed when it did. */
export interface QueueOutcome {
  kind: 'outcome';
  ids: string[];
  failure?: string;
}

const isEnum = (codec: Codec): codec is EnumCodec => typeof (codec as Partial<EnumCodec>).type === 'string' && 'value' in codec && !(codec instanceof Map);

/**
 * The XCM error an outcome carries, whatever its version: v3 `Incomplete(weight, error)` /
 * `Error(error)`, v4 `Incomplete { used, error }` / `Error { error }`, v5's `InstructionError { index, error }`.
 */
function xcmError(codec: Codec): string {
  let at: Codec | undefined = codec;
  for (let depth = 0; at && depth < 4; depth++) {
    if (isEnum(at)) return at.type;
    at = at instanceof Map ? (at.get('error') as Codec | undefined) : Array.isArray(at) ? (at.at(-1) as Codec | undefined) : undefined;
  }
  return 'an error the metadata does not describe';
}

/** `Complete` is success; `Incomplete` and `Error` fail with their XCM error. */
function outcomeFailure(outcome: Codec): string | undefined {
  if (!isEnum(outcome)) throw new Error('an XCM outcome that is not an enum');
  return outcome.type === 'Complete' ? undefined : xcmError(outcome.value);
}

const outcome = (ids: string[], failure?: string): QueueOutcome => ({ kind: 'outcome', ids, ...(failure === undefined ? {} : { failure }) });

/**
 * How an older queue's event settles its message: it ran (`success`), it ran to the outcome or the
 * XCM error it carries, or it was refused before running (the event's name is the reason).
 */
type Settles = 'success' | 'outcome' | 'error' | 'refused';

// Relays named the UMP pallet Ump, some test networks ParasUmp.
const OLDER_QUEUES: Readonly<Record<string, Settles>> = {
  'xcmpQueue.Success': 'success',
  'xcmpQueue.Fail': 'error',
  'xcmpQueue.BadVersion': 'refused',
  'xcmpQueue.BadFormat': 'refused',
  'dmpQueue.ExecutedDownward': 'outcome',
  'dmpQueue.InvalidFormat': 'refused',
  'dmpQueue.UnsupportedVersion': 'refused',
  'cumulusXcm.ExecutedDownward': 'outcome',
  'cumulusXcm.InvalidFormat': 'refused',
  'cumulusXcm.UnsupportedVersion': 'refused',
  'ump.ExecutedUpward': 'outcome',
  'ump.InvalidFormat': 'refused',
  'ump.UnsupportedVersion': 'refused',
  'parasUmp.ExecutedUpward': 'outcome',
  'parasUmp.InvalidFormat': 'refused',
  'parasUmp.UnsupportedVersion': 'refused',
};

/**
 * Every id an older queue's event names its message by, whichever its release declared: `id`,
 * `message_id`, `message_hash` (an `Option` in some), or the first of its unnamed fields.
 */
function idsOf(event: EventCodec): string[] {
  const named = ['id', 'message_id', 'message_hash'].map((name) => maybeField(event, name));
  const codecs = named.some((c) => c !== undefined) ? named : [maybeField(event, 'id', 0)];
  return [...new Set(codecs.map(idOf).filter((id): id is string => id !== undefined))];
}

/** The outcome an event reports, or undefined for events that settle no message. */
export function queueOutcome(name: string, event: EventCodec): QueueOutcome | undefined {
  switch (name) {
    case 'messageQueue.Processed':
      return outcome([hexOf(field(event, 'id'))], field(event, 'success').toJSON() === true ? undefined : 'processed without success');
    case 'messageQueue.ProcessingFailed':
      return outcome([hexOf(field(event, 'id'))], (field(event, 'error') as EnumCodec).type);
  }
  const settles = OLDER_QUEUES[name];
  if (!settles) return undefined;
  // Unnamed fields: the id first, then the outcome or the error.
  if (settles === 'outcome') return outcome(idsOf(event), outcomeFailure(field(event, 'outcome', 1)));
  if (settles === 'error') return outcome(idsOf(event), xcmError(field(event, 'error', 1)));
  return outcome(idsOf(event), settles === 'refused' ? event.method : undefined);
}
