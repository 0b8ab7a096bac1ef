// What a signing device does with an RFC-0078 proof, as a test oracle: check that the proof's types
// hash up to the metadata hash, then read the signing payload with those types alone.
//
// @polkadot-api/merkleize-metadata exports the proof's codec (the library's proof decoder, used
// here) but nothing that verifies a proof or decodes with one; neither does dedot's
// merkleized-metadata. The devices' own readers are Rust (parity-signer's extrinsic_proof) and C
// (Zondax's Ledger app). So the steps below follow the RFC: rebuild the merkle root from the
// leaves, their indices and the sibling hashes in depth-first order, hash it with the extrinsic
// metadata and the chain's extra info into the digest, and decode with the leaves. Hashing and
// SCALE come from polkadot-api's own copy of substrate-bindings; nothing here comes from src/.
import { createRequire } from 'node:module';
import { extraInfo, extrinsicMetadata, lookupType, proof as proofCodec, type LookupEntry, type Proof, type TypeRef } from '@polkadot-api/merkleize-metadata';

const fromPapi = createRequire(createRequire(__filename).resolve('polkadot-api'));
const bindings = fromPapi('@polkadot-api/substrate-bindings') as typeof import('../../node_modules/polkadot-api/node_modules/@polkadot-api/substrate-bindings');

const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(parts.flatMap((p) => [...p]));
const bytes = (hex: string): Uint8Array => bindings.Binary.fromHex(hex).asBytes().slice();
export const toHex = (b: Uint8Array): string => bindings.Binary.fromBytes(b).asHex();

const levelOf = (node: number): number => Math.floor(Math.log2(node + 1));
const isAncestor = (node: number, leaf: number): boolean => {
  const down = levelOf(leaf) - levelOf(node);
  return down >= 0 && ((leaf + 1) >> down) - 1 === node;
};

/** The merkle root the proof's leaves, leaf indices and sibling hashes make (RFC-0078, depth first). */
function rootOf(proof: Proof): Uint8Array {
  const leafHashes = proof.leaves.map((leaf) => bindings.Blake3256(lookupType.enc(leaf)));
  let nextLeaf = 0;
  let nextHash = 0;
  const visit = (node: number): Uint8Array => {
    const leaf = proof.leafIdxs[nextLeaf];
    if (leaf === node) return leafHashes[nextLeaf++];
    if (leaf !== undefined && isAncestor(node, leaf)) return bindings.Blake3256(concat(visit(2 * node + 1), visit(2 * node + 2)));
    const hash = proof.proofs[nextHash++];
    if (!hash) throw new Error(`proof: no hash for node ${node}`);
    return hash;
  };
  const root = visit(0);
  if (nextLeaf !== proof.leaves.length || nextHash !== proof.proofs.length) throw new Error('proof: leaves or hashes left unused');
  return root;
}

/** The metadata hash a proof stands for: blake3 of MetadataDigest::V1 (enum index 1). */
export function digestOfProof(proof: Proof): string {
  const digest = concat(Uint8Array.of(1), rootOf(proof), bindings.Blake3256(extrinsicMetadata.enc(proof.extrinsic)), extraInfo.enc(proof.info));
  return toHex(bindings.Blake3256(digest));
}

/** A value read with a proof's types: an enumeration as `{variant: fields}`; integers as decimal strings. */
export type ProofValue = string | number | bigint | boolean | null | ProofValue[] | { [name: string]: ProofValue };

class Reader {
  offset = 0;
  constructor(readonly data: Uint8Array) {}
  take(n: number): Uint8Array {
    if (this.offset + n > this.data.length) throw new Error(`read past the end at byte ${this.offset}`);
    this.offset += n;
    return this.data.subarray(this.offset - n, this.offset);
  }
  compact(): bigint {
    const first = this.data[this.offset] ?? 0;
    const length = [1, 2, 4, (first >> 2) + 5][first & 3];
    const raw = this.take(length);
    const payload = (first & 3) === 3 ? raw.subarray(1) : raw;
    const value = payload.reduceRight((acc, b) => acc * 256n + BigInt(b), 0n);
    return (first & 3) === 3 ? value : value >> 2n;
  }
}

const INT_BYTES: Record<string, number> = { u8: 1, u16: 2, u32: 4, u64: 8, u128: 16, u256: 32, i8: 1, i16: 2, i32: 4, i64: 8, i128: 16, i256: 32 };

function readPrimitive(r: Reader, tag: Exclude<TypeRef['tag'], 'perId'>): ProofValue {
  if (tag === 'void') return null;
  if (tag === 'bool') return r.take(1)[0] === 1;
  if (tag === 'str') return new TextDecoder().decode(r.take(Number(r.compact())));
  if (tag === 'char') return String.fromCodePoint(new DataView(r.take(4).slice().buffer).getUint32(0, true));
  if (tag.startsWith('compact')) return r.compact().toString();
  const raw = r.take(INT_BYTES[tag]);
  return raw.reduceRight((acc, b) => acc * 256n + BigInt(b), 0n).toString();
}

function read(r: Reader, ref: TypeRef, byId: Map<number, LookupEntry[]>): ProofValue {
  if (ref.tag !== 'perId') return readPrimitive(r, ref.tag);
  const entries = byId.get(ref.value);
  if (!entries) throw new Error(`type ${ref.value} is not in the proof`);
  const def = entries[0].typeDef;
  // Named fields make an object; one unnamed field is its value (a newtype); several, an array.
  const fields = (list: { name?: string; ty: TypeRef }[]): ProofValue => {
    const values = list.map((f) => read(r, f.ty, byId));
    if (list.length === 1 && list[0].name === undefined) return values[0];
    return list.every((f) => f.name !== undefined) ? Object.fromEntries(list.map((f, i) => [f.name!, values[i]])) : values;
  };
  switch (def.tag) {
    case 'enumeration': {
      const index = r.take(1)[0];
      const variant = entries.map((e) => e.typeDef).find((d) => d.tag === 'enumeration' && d.value.index === index);
      if (variant?.tag !== 'enumeration') throw new Error(`variant ${index} of type ${ref.value} is not in the proof`);
      return { [variant.value.name]: fields(variant.value.fields) };
    }
    case 'composite':
      return fields(def.value);
    case 'tuple':
      return def.value.map((t) => read(r, t, byId));
    case 'array':
      return Array.from({ length: def.value.len }, () => read(r, def.value.typeParam, byId));
    case 'sequence':
      return Array.from({ length: Number(r.compact()) }, () => read(r, def.value, byId));
    case 'bitSequence': {
      const bits = Number(r.compact());
      return toHex(r.take(Math.ceil(bits / (8 * def.value.numBytes)) * def.value.numBytes));
    }
  }
}

export interface ProofReading {
  /** The proof's own claim of the metadata hash (what its types hash to). */
  metadataHash: string;
  info: Proof['info'];
  call: ProofValue;
  /** Each extension's data in the transaction and its signed data, by identifier. */
  extensions: Record<string, { inExtrinsic: ProofValue; inSignedData: ProofValue }>;
}

/** Verifies `proofHex` and reads the whole signing payload with its types; throws unless every byte reads. */
export function readWithProof(proofHex: string, payloadHex: string): ProofReading {
  const proof = proofCodec.dec(bytes(proofHex));
  const byId = new Map<number, LookupEntry[]>();
  for (const leaf of proof.leaves) byId.set(leaf.typeId, [...(byId.get(leaf.typeId) ?? []), leaf]);
  const r = new Reader(bytes(payloadHex));
  const call = read(r, proof.extrinsic.callTy, byId);
  const inExtrinsic = proof.extrinsic.signedExtensions.map((e) => read(r, e.includedInExtrinsic, byId));
  const inSignedData = proof.extrinsic.signedExtensions.map((e) => read(r, e.includedInSignedData, byId));
  if (r.offset !== r.data.length) throw new Error(`${r.data.length - r.offset} payload byte(s) left over`);
  const extensions = Object.fromEntries(proof.extrinsic.signedExtensions.map((e, i) => [e.identifier, { inExtrinsic: inExtrinsic[i], inSignedData: inSignedData[i] }]));
  return { metadataHash: digestOfProof(proof), info: proof.info, call, extensions };
}
