// Reads a signing payload with the types its proof carries, as a signing device does, to find the
// bytes each part takes. @polkadot-api/merkleize-metadata cuts a proof from whatever decodes and
// ignores bytes left over; a device refuses them. So a part that does not end where its types end
// is the caller's mistake, answered before the proof leaves the service.
import { proof as proofCodec, type LookupEntry, type TypeRef } from '@polkadot-api/merkleize-metadata';

/** A payload that does not read with its types: `offset` is where reading stopped. */
export class PayloadReadError extends Error {
  constructor(
    readonly offset: number,
    reason: string,
  ) {
    super(`at byte ${offset}: ${reason}`);
  }
}

const FIXED_SIZE: Partial<Record<TypeRef['tag'], number>> = {
  bool: 1,
  char: 4,
  u8: 1,
  u16: 2,
  u32: 4,
  u64: 8,
  u128: 16,
  u256: 32,
  i8: 1,
  i16: 2,
  i32: 4,
  i64: 8,
  i128: 16,
  i256: 32,
  void: 0,
};

class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get left(): number {
    return this.bytes.length - this.offset;
  }

  skip(count: number): void {
    if (count > this.left) throw new PayloadReadError(this.offset, `${count} byte(s) needed, ${this.left} left`);
    this.offset += count;
  }

  byte(): number {
    this.skip(1);
    return this.bytes[this.offset - 1];
  }

  /** A SCALE compact integer; beyond 2^53 only its order of magnitude matters (it counts bytes or items). */
  compact(): number {
    const first = this.byte();
    const mode = first & 0b11;
    if (mode === 0) return first >> 2;
    const length = mode === 1 ? 2 : mode === 2 ? 4 : (first >> 2) + 5;
    const start = this.offset - 1;
    this.skip(length - 1);
    let value = 0;
    for (let i = length - 1; i >= (mode === 3 ? 1 : 0); i--) value = value * 256 + this.bytes[start + i];
    return mode === 3 ? value : Math.floor(value / 4);
  }
}

/** The types a proof carries, by type id (an enumeration has one entry per variant it holds). */
class ProofTypes {
  readonly #byId = new Map<number, LookupEntry[]>();

  constructor(leaves: readonly LookupEntry[]) {
    for (const leaf of leaves) this.#byId.set(leaf.typeId, [...(this.#byId.get(leaf.typeId) ?? []), leaf]);
  }

  read(reader: Reader, ref: TypeRef): void {
    if (ref.tag === 'perId') return this.#readDefined(reader, ref.value);
    if (ref.tag === 'str') return reader.skip(reader.compact());
    if (ref.tag.startsWith('compact')) return void reader.compact();
    reader.skip(FIXED_SIZE[ref.tag] ?? 0);
  }

  #readDefined(reader: Reader, typeId: number): void {
    const entries = this.#byId.get(typeId);
    if (!entries) throw new PayloadReadError(reader.offset, `type ${typeId} is not in the proof`);
    const { typeDef } = entries[0];
    switch (typeDef.tag) {
      case 'enumeration': {
        const at = reader.offset;
        const index = reader.byte();
        const variant = entries.find((e) => e.typeDef.tag === 'enumeration' && e.typeDef.value.index === index);
        if (variant?.typeDef.tag !== 'enumeration') throw new PayloadReadError(at, `variant ${index} of type ${typeId} is not in the proof`);
        return variant.typeDef.value.fields.forEach((f) => this.read(reader, f.ty));
      }
      case 'composite':
        return typeDef.value.forEach((f) => this.read(reader, f.ty));
      case 'tuple':
        return typeDef.value.forEach((t) => this.read(reader, t));
      case 'array':
        return this.#repeat(reader, typeDef.value.len, typeDef.value.typeParam);
      case 'sequence':
        return this.#repeat(reader, reader.compact(), typeDef.value);
      case 'bitSequence': {
        const bits = reader.compact();
        const store = typeDef.value.numBytes;
        return reader.skip(Math.ceil(bits / (8 * store)) * store);
      }
    }
  }

  /** `count` items: a type that took no bytes once never takes any, one that did takes at least one each time. */
  #repeat(reader: Reader, count: number, item: TypeRef): void {
    if (count === 0) return;
    const start = reader.offset;
    this.read(reader, item);
    if (reader.offset === start) return;
    if (count - 1 > reader.left) throw new PayloadReadError(start, `${count} items cannot fit in the ${reader.left + reader.offset - start} byte(s) left`);
    for (let i = 1; i < count; i++) this.read(reader, item);
  }
}

/** Where each part of a signing payload ends, read with the types of `proof` (an encoded RFC-0078 proof). */
export interface PayloadEnds {
  call: number;
  includedInExtrinsic: number;
  includedInSignedData: number;
}

function reading(proof: Uint8Array, bytes: Uint8Array) {
  const { leaves, extrinsic } = proofCodec.dec(proof);
  return { types: new ProofTypes(leaves), extrinsic, reader: new Reader(bytes) };
}

/** Where one call ends in `callData`, read with the proof's types. Throws PayloadReadError where it does not read. */
export function callEnd(proof: Uint8Array, callData: Uint8Array): number {
  const { types, extrinsic, reader } = reading(proof, callData);
  types.read(reader, extrinsic.callTy);
  return reader.offset;
}

/**
 * Reads `payload` (call data, then every extension's data in the transaction, then every
 * extension's signed data) with the proof's types. Throws PayloadReadError where it does not read.
 */
export function payloadEnds(proof: Uint8Array, payload: Uint8Array): PayloadEnds {
  const { types, extrinsic, reader } = reading(proof, payload);
  types.read(reader, extrinsic.callTy);
  const call = reader.offset;
  for (const e of extrinsic.signedExtensions) types.read(reader, e.includedInExtrinsic);
  const includedInExtrinsic = reader.offset;
  for (const e of extrinsic.signedExtensions) types.read(reader, e.includedInSignedData);
  return { call, includedInExtrinsic, includedInSignedData: reader.offset };
}
