// What a chain's message queue says it did with a message, in every queue pallet a chain may still
// run (docs/status.md has the table):
//
// - `messageQueue.Processed { id, success }` / `ProcessingFailed { id, error }` (polkadot-sdk 1.7
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

const ids = (...codecs: (Codec | undefined)[]): string[] => [...new Set(codecs.map(idOf).filter((id): id is string => id !== undefined))];

const outcome = (ids: string[], failure?: string): QueueOutcome => ({ kind: 'outcome', ids, ...(failure === undefined ? {} : { failure }) });

/** The outcome an event reports, or undefined for events that settle no message. */
export function queueOutcome(name: string, event: EventCodec): QueueOutcome | undefined {
  switch (name) {
    case 'messageQueue.Processed':
      return outcome([hexOf(field(event, 'id'))], field(event, 'success').toJSON() === true ? undefined : 'processed without success');
    case 'messageQueue.ProcessingFailed':
      return outcome([hexOf(field(event, 'id'))], (field(event, 'error') as EnumCodec).type);
    case 'xcmpQueue.Success':
      return outcome(ids(maybeField(event, 'message_id'), field(event, 'message_hash', 0)));
    case 'xcmpQueue.Fail':
      return outcome(ids(maybeField(event, 'message_id'), field(event, 'message_hash', 0)), xcmError(field(event, 'error', 1)));
    case 'xcmpQueue.BadVersion':
    case 'xcmpQueue.BadFormat':
      return outcome(ids(field(event, 'message_hash', 0)), event.method);
    case 'dmpQueue.ExecutedDownward':
      return outcome(ids(field(event, 'message_id', 0), maybeField(event, 'message_hash')), outcomeFailure(field(event, 'outcome', 1)));
    case 'dmpQueue.InvalidFormat':
    case 'dmpQueue.UnsupportedVersion':
      return outcome(ids(maybeField(event, 'message_id', 0), maybeField(event, 'message_hash')), event.method);
    // Relays named the pallet Ump, some test networks ParasUmp.
    case 'ump.ExecutedUpward':
    case 'parasUmp.ExecutedUpward':
    case 'cumulusXcm.ExecutedDownward':
      return outcome(ids(field(event, 'id', 0)), outcomeFailure(field(event, 'outcome', 1)));
    case 'ump.InvalidFormat':
    case 'ump.UnsupportedVersion':
    case 'parasUmp.InvalidFormat':
    case 'parasUmp.UnsupportedVersion':
    case 'cumulusXcm.InvalidFormat':
    case 'cumulusXcm.UnsupportedVersion':
      return outcome(ids(field(event, 'id', 0)), event.method);
    default:
      return undefined;
  }
}
