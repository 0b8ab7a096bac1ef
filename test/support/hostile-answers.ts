// Answers of the largest size the per-frame and per-block bounds accept, as a hostile node sends
// them (test/hostile/budgets.test.ts and bench/hostile.ts): blocks of 100,000 extrinsics or of
// frames near 16 MiB, System.Events and metadata v15 announcing many items. Built once as text;
// each answer only wraps the request's id around it.
import type { TypeRegistry } from '@polkadot/types';
import { blake2AsHex } from '@polkadot/util-crypto';
import type { RpcFrame } from './hostile-node';
import { encodeEvents } from './test-blocks';
import { extrinsicSuccess } from './xcm-events';

/** MAX_EXTRINSICS of the status readers: the most one block may hold and still be read. */
export const MAX_EXTRINSICS = 100_000;

/** SCALE compact encoding of `n` (below 2^30), as hex without 0x. */
export function compactHex(n: number): string {
  const bytes = n < 1 << 6 ? [n << 2] : n < 1 << 14 ? [((n << 2) | 1) & 0xff, n >> 6] : [0, 1, 2, 3].map((i) => (((n << 2) | 2) >>> (8 * i)) & 0xff);
  return Buffer.from(bytes).toString('hex');
}

/** A JSON list of `count` distinct small extrinsics. */
export const manyExtrinsics = (count = MAX_EXTRINSICS): string => JSON.stringify(Array.from({ length: count }, (_, i) => `0x04${i.toString(16).padStart(8, '0')}`));

/** A JSON list of extrinsics of `bytes` bytes each, `count` of them. */
export const bigExtrinsics = (count: number, bytes: number): string => JSON.stringify(Array.from({ length: count }, (_, i) => `0x${(i % 256).toString(16).padStart(2, '0').repeat(bytes)}`));

/** The extrinsic `lonely` stands for, and its hash (what a status request asks for). */
export const LONE_EXTRINSIC = '0x0400';
export const LONE_EXTRINSIC_HASH = blake2AsHex(LONE_EXTRINSIC, 256);

const frameOf = (frame: RpcFrame, result: string): Buffer => Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(frame.id)},"result":${result}}`);

/** A chain_getBlock answer holding `extrinsics` (a JSON list). */
export const blockAnswer = (frame: RpcFrame, extrinsics: string): Buffer => frameOf(frame, `{"block":{"header":{"number":"0x1"},"extrinsics":${extrinsics}},"justifications":null}`);

/** An answer carrying `hex` as its result. */
export const hexAnswer = (frame: RpcFrame, hex: string): Buffer => frameOf(frame, `"${hex}"`);

/** `System.Events` of `count` valid ExtrinsicSuccess records (decoding them is real work). */
export function manyEvents(registry: TypeRegistry, count: number): string {
  const record = encodeEvents(registry, [extrinsicSuccess(0)]).slice(4);
  return `0x${compactHex(count)}${record.repeat(count)}`;
}

/** `System.Events` announcing `count` records in `count` bytes that are not records. */
export const announcedEvents = (count: number): string => `0x${compactHex(count)}${'00'.repeat(count)}`;

/** A Metadata_metadata_at_version(15) answer: Some(metadata v15 announcing `types` types, then `padding` bytes). */
export function metadataAnswer(types: number, padding = types): string {
  const metadata = `${Buffer.from('meta').toString('hex')}0f${compactHex(types)}${'00'.repeat(padding)}`;
  return `0x01${compactHex(metadata.length / 2)}${metadata}`;
}
