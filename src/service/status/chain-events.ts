// A block's `System.Events`, decoded with the chain's own metadata and read into the few facts
// tracking needs. The bytes come from a chain node: anything that does not decode, or decodes with
// bytes left over, is a 502 naming the chain, never a crash. Records are decoded one at a time,
// counted against the request's budget first, yielding to the event loop between slices.
import type { Codec, Registry } from '@polkadot/types-codec/types';
import { ChainResponseError } from '../../errors';
import { quote } from '../../chains/address-guard';
import { announcedItems, type ReadBudget } from '../sdk-calls';
import type { DispatchFailure } from './answer';
import { field, hexOf, idOf, maybeField, type EnumCodec, type EventCodec } from './event-fields';
import { queueOutcome, type QueueOutcome } from './queue-outcomes';

export type Phase = { apply: number } | 'initialization' | 'finalization';

/** What tracking reads from an event; events it does not read carry only their name. */
export type EventFact =
  | { kind: 'extrinsic-success' }
  | { kind: 'extrinsic-failed'; error: DispatchFailure }
  /** pallet-xcm's `Sent`; runtimes before XCM topics (mid-2023) name no message id in it. */
  | { kind: 'sent'; messageId?: string; destination: unknown }
  /** XCMP / UMP sent a message: its hash, what the receiver's older queue events name it by. */
  | { kind: 'message-sent'; messageId?: string }
  | QueueOutcome
  | { kind: 'trapped'; hash: string };

export interface ChainEvent {
  phase: Phase;
  /** `section.Method` as polkadot.js names it (`xcmPallet.Sent`). */
  name: string;
  fact?: EventFact;
}

export const samePhase = (a: Phase, b: Phase): boolean => (typeof a === 'object' && typeof b === 'object' ? a.apply === b.apply : a === b);

// polkadot.js codecs, as far as this file reads them.
interface PhaseCodec extends Codec {
  readonly isApplyExtrinsic: boolean;
  readonly asApplyExtrinsic: { toNumber(): number };
  readonly isInitialization: boolean;
}
interface RecordCodec extends Codec {
  readonly phase: PhaseCodec;
  readonly event: EventCodec;
}
interface ModuleErrorCodec extends Codec {
  readonly index: { toNumber(): number };
  readonly error: Codec;
}

/** The metadata's type of one record of `System.Events` (a Vec of the runtime's EventRecord), per registry. */
const recordTypes = new WeakMap<Registry, string>();

function recordType(registry: Registry, chain: string): string {
  let type = recordTypes.get(registry);
  if (type === undefined) {
    const system = registry.metadata.pallets.find((p) => p.name.eq('System'));
    const entry = system?.storage.unwrapOr(undefined)?.items.find((i) => i.name.eq('Events'));
    if (!entry) throw new ChainResponseError(chain, 'has no System.Events in its metadata');
    const events = registry.lookup.getSiType(entry.type.asPlain).def;
    if (!events.isSequence) throw new ChainResponseError(chain, 'has a System.Events that is not a list of records in its metadata');
    type = registry.createLookupType(events.asSequence.type);
    recordTypes.set(registry, type);
  }
  return type;
}

/**
 * What decoding one event record weighs in REQUEST_MAX_CHAIN_ITEMS: polkadot.js takes about 0.1 to
 * 0.4 ms a record (measured on the test chains' metadata), a hundred times more than hashing one
 * extrinsic; 25 keeps a request's decoding under a second while a block of 4,000 events still reads.
 */
export const EVENT_RECORD_WEIGHT = 25;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Decodes `System.Events` of one block; the whole value must decode, nothing left over. The
 * records are counted against `budget` before any is decoded.
 */
export async function decodeEvents(registry: Registry, chain: string, bytes: Uint8Array, budget: ReadBudget): Promise<ChainEvent[]> {
  const type = recordType(registry, chain);
  const undecodable = (error: unknown): ChainResponseError =>
    error instanceof ChainResponseError ? error : new ChainResponseError(chain, `sent System.Events that do not decode with its metadata: ${quote(messageOf(error))}`);
  let count: number;
  let offset: number;
  try {
    ({ count, offset } = announcedItems(bytes, 0));
  } catch (error) {
    throw undecodable(error);
  }
  budget.items(chain, count, 'event records', EVENT_RECORD_WEIGHT);
  const events: ChainEvent[] = [];
  for (let i = 0; i < count; i++) {
    if (budget.due()) await budget.pause(chain);
    try {
      const record = registry.createType(type, bytes.subarray(offset)) as unknown as RecordCodec;
      offset += record.encodedLength;
      events.push(readEvent(registry, record));
    } catch (error) {
      throw undecodable(error);
    }
  }
  if (offset !== bytes.length) throw undecodable(new Error(`${bytes.length - offset} of ${bytes.length} bytes left over`));
  return events;
}

function phaseOf(phase: PhaseCodec): Phase {
  if (phase.isApplyExtrinsic) return { apply: phase.asApplyExtrinsic.toNumber() };
  return phase.isInitialization ? 'initialization' : 'finalization';
}

function readEvent(registry: Registry, record: RecordCodec): ChainEvent {
  const { event } = record;
  const name = `${event.section}.${event.method}`;
  return { phase: phaseOf(record.phase), name, fact: factOf(registry, name, event) };
}

function factOf(registry: Registry, name: string, event: EventCodec): EventFact | undefined {
  switch (name) {
    case 'system.ExtrinsicSuccess':
      return { kind: 'extrinsic-success' };
    case 'system.ExtrinsicFailed':
      return { kind: 'extrinsic-failed', error: dispatchFailure(registry, field(event, 'dispatch_error') as EnumCodec) };
    case 'xcmPallet.Sent':
    case 'polkadotXcm.Sent': {
      // Before topics: `Sent(origin, destination, message)`, unnamed and without an id.
      const id = maybeField(event, 'message_id');
      return { kind: 'sent', ...(id ? { messageId: hexOf(id) } : {}), destination: field(event, 'destination', 1).toJSON() };
    }
    // The hash is an `Option` in some releases (always for UpwardMessageSent).
    case 'xcmpQueue.XcmpMessageSent':
    case 'parachainSystem.UpwardMessageSent':
      return { kind: 'message-sent', messageId: idOf(field(event, 'message_hash', 0)) };
    case 'xcmPallet.AssetsTrapped':
    case 'polkadotXcm.AssetsTrapped':
      return { kind: 'trapped', hash: hexOf(field(event, 'hash', 0)) };
    default:
      return queueOutcome(name, event);
  }
}

/** A dispatch error as a person reads it: a module error by its pallet and name from the metadata. */
function dispatchFailure(registry: Registry, error: EnumCodec): DispatchFailure {
  if (error.type !== 'Module') {
    const inner = error.value as Partial<EnumCodec>;
    return { name: error.type, message: typeof inner.type === 'string' ? inner.type : error.type };
  }
  const module = error.value as ModuleErrorCodec;
  const index = module.index.toNumber();
  const pallet = registry.metadata.pallets.find((p) => p.index.toNumber() === index)?.name.toString();
  try {
    const meta = registry.findMetaError(module as unknown as Parameters<Registry['findMetaError']>[0]);
    return { pallet: pallet ?? meta.section, name: meta.name, message: meta.docs.join(' ').trim() || meta.name };
  } catch {
    // An index the metadata does not know: say what the chain sent.
    return { pallet, name: `Module(${index}, ${module.error.toHex()})`, message: 'an error the chain metadata does not describe' };
  }
}
