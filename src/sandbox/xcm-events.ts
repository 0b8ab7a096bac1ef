// What a block holds after a wallet's transfer: the extrinsic signed as a wallet signs it, and the
// events the runtime emits for it (on the origin) and for its message (on each later chain), as
// EventSpecs for `chain.produceBlock` (test-blocks.ts encodes them with the chain's metadata).
//
// The message id is the `SetTopic` a chain's XCM router appends (WithUniqueTopic): the origin's
// `Sent` event carries it as `message_id`, and every chain that processes the message names it as
// the `id` of `messageQueue.Processed` / `ProcessingFailed`. Offline nothing executes the
// message, so a test picks the topic (`topicOf`).
import { createRequire } from 'node:module';
import { crypto, util } from './polkadot-libs';
import type { RuntimeVersion } from '@polkadot/types/interfaces';
import type { EventPhase, EventSpec } from './blocks';
import type { ChainNode } from './chain-node';

const { Keyring } = createRequire(__filename)('@polkadot/keyring') as typeof import('@polkadot/keyring');

export type Hex = `0x${string}`;

/** A location as pallet-xcm's events carry it (JSON form, V5). */
export type Location = { parents: number; interior: unknown };

export const HERE: Location = { parents: 0, interior: 'Here' };
export const PARENT: Location = { parents: 1, interior: 'Here' };
export const child = (paraId: number): Location => ({ parents: 0, interior: { X1: [{ Parachain: paraId }] } });
export const sibling = (paraId: number): Location => ({ parents: 1, interior: { X1: [{ Parachain: paraId }] } });

/**
 * Call data signed by Alice (sr25519) with the chain's registry, immortal, as a wallet submits it:
 * the extrinsic's bytes (length-prefixed, as blocks hold them) and its hash (what wallets show).
 */
export async function signAsAlice(chain: ChainNode, callHex: string, nonce = 0): Promise<{ hex: Hex; hash: Hex }> {
  await crypto.cryptoWaitReady();
  const registry = chain.registry;
  const alice = new Keyring({ type: 'sr25519' }).addFromUri('//Alice');
  const genesisHash = chain.blockHash(0)!;
  const extrinsic = registry.createType('Extrinsic', registry.createType('Call', callHex));
  extrinsic.sign(alice, {
    blockHash: genesisHash,
    genesisHash,
    nonce,
    runtimeVersion: registry.createType('RuntimeVersion', chain.runtimeVersion) as unknown as RuntimeVersion,
    signedExtensions: registry.signedExtensions,
  });
  return { hex: extrinsic.toHex(), hash: extrinsic.hash.toHex() };
}

/** A topic made up for one extrinsic (the router derives the real one from the message). */
export const topicOf = (extrinsicHash: string): Hex => crypto.blake2AsHex(util.u8aConcat(util.hexToU8a(extrinsicHash), util.stringToU8a('topic')), 256);

const DISPATCH_INFO = { weight: { refTime: 1_000_000, proofSize: 1_000 }, class: 'Normal', paysFee: 'Yes' };

export const extrinsicSuccess = (index: number): EventSpec => ({ phase: index, pallet: 'System', name: 'ExtrinsicSuccess', fields: { dispatch_info: DISPATCH_INFO } });

/** `System.ExtrinsicFailed` with a module error, the pallet and error named as the metadata names them. */
export function extrinsicFailed(chain: ChainNode, index: number, pallet: string, error: string): EventSpec {
  return { phase: index, pallet: 'System', name: 'ExtrinsicFailed', fields: { dispatch_error: moduleError(chain, pallet, error), dispatch_info: DISPATCH_INFO } };
}

/** A `DispatchError::Module` naming `pallet.error` with the indices this chain's metadata gives them. */
export function moduleError(chain: ChainNode, pallet: string, error: string): { Module: { index: number; error: Hex } } {
  const registry = chain.registry;
  const p = registry.metadata.pallets.find((x) => x.name.eq(pallet));
  const variant = p && p.errors.isSome ? registry.lookup.getSiType(p.errors.unwrap().type).def.asVariant.variants.find((v) => v.name.eq(error)) : undefined;
  if (!p || !variant) throw new Error(`xcm-events: ${chain.chain} has no error ${pallet}.${error}`);
  return { Module: { index: p.index.toNumber(), error: util.u8aToHex(new Uint8Array([variant.index.toNumber(), 0, 0, 0])) } };
}

/** pallet-xcm's `Sent` (XcmPallet on relay chains, PolkadotXcm on parachains): the message ends with its SetTopic. */
export function sent(pallet: 'XcmPallet' | 'PolkadotXcm', index: number, destination: Location, messageId: Hex): EventSpec {
  const message = [{ ClearOrigin: null }, { SetTopic: messageId }];
  return { phase: index, pallet, name: 'Sent', fields: { origin: SIGNER, destination, message, message_id: messageId } };
}

/** Alice, as pallet-xcm names the origin of what she sends. */
const SIGNER: Location = { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: `0x${'d4'.repeat(32)}` } }] } };

/** XCMP sent onward to a sibling; with a topic the hash is the message id. */
export const xcmpMessageSent = (phase: EventPhase, messageId: Hex): EventSpec => ({ phase, pallet: 'XcmpQueue', name: 'XcmpMessageSent', fields: { message_hash: messageId } });

/** `messageQueue.Processed`; `origin` is the queue's (`{Parent: null}`, `{Sibling: 1000}`, `{Ump: {Para: 1000}}`). */
export const processed = (id: Hex, origin: unknown, success: boolean, phase: EventPhase = 'initialization', weightUsed: { refTime: bigint | number; proofSize: bigint | number } = { refTime: 1_000_000, proofSize: 1_000 }): EventSpec => ({
  phase,
  pallet: 'MessageQueue',
  name: 'Processed',
  fields: { id, origin, weight_used: weightUsed, success },
});

export const processingFailed = (id: Hex, origin: unknown, error: string, phase: EventPhase = 'initialization'): EventSpec => ({
  phase,
  pallet: 'MessageQueue',
  name: 'ProcessingFailed',
  fields: { id, origin, error: { [error]: null } },
});

/** Assets left in the holding register: `pallet` is XcmPallet on relay chains, PolkadotXcm on parachains. */
export function assetsTrapped(pallet: 'XcmPallet' | 'PolkadotXcm', hash: Hex, origin: Location, phase: EventPhase = 'initialization', version: 'V3' | 'V5' = 'V5'): EventSpec {
  // A runtime that knows V3 at most (older-queues.ts) wraps the asset's location in `Concrete`.
  const id = version === 'V5' ? { parents: 1, interior: 'Here' } : { Concrete: { parents: 1, interior: 'Here' } };
  const assets = { [version]: [{ id, fun: { Fungible: 10_000_000_000 } }] };
  return { phase, pallet, name: 'AssetsTrapped', fields: { hash, origin, assets } };
}

/** An event of no interest to tracking, as any block has. */
export const deposit = (phase: EventPhase, who: string, amount: bigint): EventSpec => ({ phase, pallet: 'Balances', name: 'Minted', fields: { who, amount } });

// ---------------------------------------------------------------------------------------------
// The queues before `pallet-message-queue`, for chains started with `queues` (older-queues.ts).
// Where a real runtime computed an id (the blake2-256 hash of the message), a test picks it.

const WEIGHT = { refTime: 1_000_000, proofSize: 1_000 };

/** An XCM v3 outcome: complete, or stopped by an XCM error (`Barrier`, `UntrustedReserveLocation`). */
export type OutcomeV3 = 'Complete' | { Incomplete: string } | { Error: string };

const outcomeV3 = (outcome: OutcomeV3): unknown =>
  outcome === 'Complete' ? { Complete: WEIGHT } : 'Incomplete' in outcome ? { Incomplete: [WEIGHT, { [outcome.Incomplete]: null }] } : { Error: { [outcome.Error]: null } };

/** A message's names in an older queue's events: its hash, and from polkadot-sdk 1.0 its id (the topic). */
export interface QueueIds {
  hash: Hex;
  id?: Hex;
}

const xcmpIds = ({ hash, id }: QueueIds) => ({ message_hash: hash, ...(id ? { message_id: id } : {}) });

/** `xcmpQueue.Success`: executed in the block's `set_validation_data` inherent (extrinsic 0) then. */
export const xcmpQueueSuccess = (ids: QueueIds, phase: EventPhase = 0): EventSpec => ({ phase, pallet: 'XcmpQueue', name: 'Success', fields: { ...xcmpIds(ids), weight: WEIGHT } });

export const xcmpQueueFail = (ids: QueueIds, error: string, phase: EventPhase = 0): EventSpec => ({
  phase,
  pallet: 'XcmpQueue',
  name: 'Fail',
  fields: { ...xcmpIds(ids), error: { [error]: null }, weight: WEIGHT },
});

/** `dmpQueue.ExecutedDownward`: 1.0 names the hash and the id; 0.9.42 only `message_id`, the hash. */
export const executedDownward = (ids: QueueIds, outcome: OutcomeV3, phase: EventPhase = 0): EventSpec => ({
  phase,
  pallet: 'DmpQueue',
  name: 'ExecutedDownward',
  fields: { ...(ids.id ? { message_hash: ids.hash, message_id: ids.id } : { message_id: ids.hash }), outcome: outcomeV3(outcome) },
});

/** `ump.ExecutedUpward(id, outcome)` on a 0.9.42 relay: the id is the upward message's hash. */
export const executedUpward = (hash: Hex, outcome: OutcomeV3, phase: EventPhase = 1): EventSpec => ({ phase, pallet: 'Ump', name: 'ExecutedUpward', fields: { 0: hash, 1: outcomeV3(outcome) } });

/** `ump.UpwardMessagesReceived(para, count, size)`: queued, not yet executed. */
export const upwardMessagesReceived = (paraId: number, count: number, phase: EventPhase = 1): EventSpec => ({ phase, pallet: 'Ump', name: 'UpwardMessagesReceived', fields: { 0: paraId, 1: count, 2: 100 * count } });

/** pallet-xcm's `Sent(origin, destination, message)` before topics: no id. */
export const sentWithoutId = (pallet: 'XcmPallet' | 'PolkadotXcm', index: number, destination: Location): EventSpec => ({
  phase: index,
  pallet,
  name: 'Sent',
  fields: { 0: SIGNER, 1: destination, 2: [{ ClearOrigin: null }] },
});

/** UMP sent to the relay: `parachainSystem.UpwardMessageSent`, the message's hash. */
export const upwardMessageSent = (phase: EventPhase, hash: Hex): EventSpec => ({ phase, pallet: 'ParachainSystem', name: 'UpwardMessageSent', fields: { message_hash: hash } });
