// Reading an event's fields from polkadot.js codecs, whatever the runtime's era: named fields
// (`message_id`) or the unnamed ones of older runtimes (`ExecutedUpward(id, outcome)`), and ids
// that are plain hashes or `Option`s of one.
import type { Codec } from '@polkadot/types-codec/types';

export interface EnumCodec extends Codec {
  readonly type: string;
  readonly value: Codec;
}

export interface EventCodec extends Codec {
  readonly section: string;
  readonly method: string;
  readonly data: Codec[] & { readonly meta: { readonly fields: { readonly name: { unwrapOr(fallback: string): { toString(): string } } }[] } };
}

const namesOf = (event: EventCodec): string[] => event.data.meta.fields.map((f) => f.name.unwrapOr('').toString());

/**
 * A field by its name in the metadata, or by `position` when the event's fields are unnamed;
 * undefined when the event has no such field (an older shape).
 */
export function maybeField(event: EventCodec, name: string, position?: number): Codec | undefined {
  const names = namesOf(event);
  const at = names.some((n) => n !== '') ? names.indexOf(name) : (position ?? -1);
  return at < 0 ? undefined : event.data[at];
}

/** A field the event must have (see maybeField); its absence is an event that does not decode as expected. */
export function field(event: EventCodec, name: string, position?: number): Codec {
  const value = maybeField(event, name, position);
  if (!value) throw new Error(`${event.section}.${event.method} has no field ${name}`);
  return value;
}

export const hexOf = (codec: Codec): string => codec.toHex().toLowerCase();

interface OptionCodec extends Codec {
  readonly isSome: boolean;
  unwrap(): Codec;
}

const isOption = (codec: Codec): codec is OptionCodec => typeof (codec as Partial<OptionCodec>).unwrap === 'function' && typeof (codec as Partial<OptionCodec>).isSome === 'boolean';

/** A message id or hash: `[u8; 32]`, `H256`, or an `Option` of one (undefined when None). */
export function idOf(codec: Codec | undefined): string | undefined {
  if (!codec) return undefined;
  if (isOption(codec)) return codec.isSome ? hexOf(codec.unwrap()) : undefined;
  return hexOf(codec);
}
