// Blocks an emulated node produces on demand (chain-node.ts holds the node; this file holds what
// its new blocks carry). Its owner calls `chain.produceBlock({extrinsics, events, timestamp})`: the block
// becomes the head (`chain_getBlockHash`, `chain_getHeader`, `chain_getBlock` with its extrinsics),
// `state_getStorage` answers its `System.Events` (encoded with the chain's own metadata: pallet and
// variant indices, field types and the metadata's `EventRecord` phase) and `Timestamp.Now` at its
// hash, and every `chain_subscribeFinalizedHeads` / `NewHeads` subscription is sent its header.
// Blocks that were never produced (the fixed tree up to #100) carry no extrinsics and no events,
// and the timestamp of block n is BASE_TIMESTAMP + n * 6 s, except genesis (#0), which holds no
// `Timestamp.Now`, as on a real chain (the first block's inherent sets it).
//
// Loading rule: @polkadot/* through `require`, like chain-node.ts.
import { crypto, util } from './polkadot-libs';
import type { TypeRegistry } from '@polkadot/types';
import type { SiLookupTypeId } from '@polkadot/types/interfaces';

/** Timestamp (ms) of block #0 of every emulated chain; each later block is BLOCK_MS after its parent. */
export const BASE_TIMESTAMP = Date.UTC(2025, 0, 1);
export const BLOCK_MS = 6_000;

const storageKey = (pallet: string, item: string): string => util.u8aToHex(util.u8aConcat(crypto.xxhashAsU8a(pallet, 128), crypto.xxhashAsU8a(item, 128)));
/** `System.Events` and `Timestamp.Now`, the two values a block carries here. */
export const EVENTS_KEY = storageKey('System', 'Events');
export const TIMESTAMP_KEY = storageKey('Timestamp', 'Now');

/** Where an event sits in its block: during the extrinsic with this index, or around them. */
export type EventPhase = number | 'initialization' | 'finalization';

/** One event: the pallet and variant as the metadata names them, fields by their metadata names (unnamed ones by position). */
export interface EventSpec {
  phase: EventPhase;
  pallet: string;
  name: string;
  fields?: Record<string, unknown>;
}

export interface BlockSpec {
  /** Extrinsics as the chain would hold them (hex with their compact length prefix). */
  extrinsics?: string[];
  events?: EventSpec[];
  /** Milliseconds; the parent's timestamp + 6 s unless given. */
  timestamp?: number;
}

export interface ProducedBlock {
  number: number;
  hash: `0x${string}`;
  timestamp: number;
}

/** The part of chain-node's block tree this file extends. */
export interface BlockTreeView {
  readonly head: string;
  hashOf(n: number): string | null;
  header(hash: string): { number: string } | null;
  append(hash: string): number;
  /** The hash the next block gets. */
  nextHash(): string;
}

interface BlockContent {
  extrinsics: string[];
  events?: `0x${string}`;
  timestamp: number;
}

interface Subscriber {
  method: string;
  owner: object;
  push(result: unknown): void;
  /** A storage subscription's keys and the values it was last sent. */
  watched?: Map<string, string | null>;
}

/** Subscriptions a node has handed out and not yet seen cancelled (by unsubscribe or socket close). */
export class Subscriptions {
  readonly #subs = new Map<string, Subscriber>();

  add(id: string, method: string, owner: object, push: (result: unknown) => void, watched?: Map<string, string | null>): void {
    this.#subs.set(id, { method, owner, push, ...(watched ? { watched } : {}) });
  }

  remove(id: unknown): void {
    this.#subs.delete(String(id));
  }

  /** Sends `result` to one subscription (if it is still open). */
  send(id: string, result: unknown): void {
    this.#subs.get(id)?.push(result);
  }

  dropOwner(owner: object): void {
    for (const [id, sub] of this.#subs) if (sub.owner === owner) this.#subs.delete(id);
  }

  /** Open subscriptions, or those notified with `method` (`chain_finalizedHead`). */
  count(method?: string): number {
    return [...this.#subs.values()].filter((sub) => method === undefined || sub.method === method).length;
  }

  notify(methods: readonly string[], result: unknown): void {
    for (const sub of this.#subs.values()) if (methods.includes(sub.method)) sub.push(result);
  }

  /** Tells each storage subscription the keys whose value `read` answers differently from what it was last sent, at `block`. */
  notifyStorage(block: string, read: (key: string) => string | null): void {
    for (const sub of this.#subs.values()) {
      if (!sub.watched) continue;
      const changes: [string, string | null][] = [];
      for (const [key, sent] of sub.watched) {
        const value = read(key);
        if (value !== sent) changes.push([key, value]);
      }
      if (changes.length === 0) continue;
      for (const [key, value] of changes) sub.watched.set(key, value);
      sub.push({ block, changes });
    }
  }
}

const HEAD_NOTIFICATIONS = ['chain_finalizedHead', 'chain_newHead', 'chain_allHead'];

/** The blocks produced on one chain, and the subscriptions that hear about them. */
export class BlockProducer {
  readonly subscriptions = new Subscriptions();
  readonly #content = new Map<string, BlockContent>();

  constructor(
    private readonly registry: () => TypeRegistry,
    private readonly tree: BlockTreeView,
  ) {}

  produce(spec: BlockSpec = {}): ProducedBlock {
    const parent = this.numberOf(this.tree.head) ?? 0;
    const number = parent + 1;
    const hash = this.tree.nextHash() as `0x${string}`;
    const timestamp = spec.timestamp ?? this.timestampOf(this.tree.head) + BLOCK_MS;
    const events = spec.events?.length ? encodeEvents(this.registry(), spec.events) : undefined;
    this.#content.set(hash, { extrinsics: spec.extrinsics ?? [], events, timestamp });
    this.tree.append(hash);
    this.subscriptions.notify(HEAD_NOTIFICATIONS, this.tree.header(hash));
    return { number, hash, timestamp };
  }

  /** Extrinsics of a block (none for blocks that were not produced). */
  extrinsicsOf(hash: string): string[] {
    return this.#content.get(hash.toLowerCase())?.extrinsics ?? [];
  }

  /** `System.Events` or `Timestamp.Now` at a known block (the head when `at` is absent); undefined for anything else. */
  storageAt(key: unknown, at: unknown): `0x${string}` | undefined {
    if (typeof key !== 'string') return undefined;
    const hash = typeof at === 'string' ? at.toLowerCase() : this.tree.head;
    if (this.numberOf(hash) === undefined) return undefined;
    const k = key.toLowerCase();
    if (k === TIMESTAMP_KEY) return this.numberOf(hash) === 0 ? undefined : util.u8aToHex(util.bnToU8a(BigInt(this.timestampOf(hash)), { bitLength: 64, isLe: true }));
    if (k === EVENTS_KEY) return this.#content.get(hash)?.events;
    return undefined;
  }

  private numberOf(hash: string): number | undefined {
    const header = this.tree.header(hash);
    return header ? Number(header.number) : undefined;
  }

  private timestampOf(hash: string): number {
    return this.#content.get(hash)?.timestamp ?? BASE_TIMESTAMP + (this.numberOf(hash) ?? 0) * BLOCK_MS;
  }
}

// ---------------------------------------------------------------------------------------------
// Events, encoded as the runtime stores them

const type = (registry: TypeRegistry, id: SiLookupTypeId): string => registry.createLookupType(id);

/** The metadata's type of `System.Events` (a Vec of EventRecord) and of an EventRecord's phase. */
function eventTypes(registry: TypeRegistry): { events: string; phase: string } {
  const system = registry.metadata.pallets.find((p) => p.name.eq('System'));
  const entry = system?.storage.unwrapOr(undefined)?.items.find((i) => i.name.eq('Events'));
  if (!entry) throw new Error('sandbox blocks: no System.Events in this metadata');
  const vec = registry.lookup.getSiType(entry.type.asPlain);
  const record = registry.lookup.getSiType(vec.def.asSequence.type);
  const phase = record.def.asComposite.fields.find((f) => f.name.unwrapOr('').toString() === 'phase');
  if (!phase) throw new Error('sandbox blocks: EventRecord has no phase');
  return { events: type(registry, entry.type.asPlain), phase: type(registry, phase.type) };
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Pallet index, variant index and each field encoded with the type the metadata gives it. */
export function encodeEvent(registry: TypeRegistry, spec: EventSpec): Uint8Array {
  const pallet = registry.metadata.pallets.find((p) => p.name.eq(spec.pallet));
  if (!pallet || pallet.events.isNone) throw new Error(`sandbox blocks: no events of pallet ${spec.pallet}`);
  const variant = registry.lookup.getSiType(pallet.events.unwrap().type).def.asVariant.variants.find((v) => v.name.eq(spec.name));
  if (!variant) throw new Error(`sandbox blocks: ${spec.pallet} has no event ${spec.name}`);
  const fields = spec.fields ?? {};
  const data = variant.fields.map((field, i) => {
    // Unnamed fields (older runtimes' tuple events) by their position: `{ 0: id, 1: outcome }`.
    const name = field.name.unwrapOr('').toString() || String(i);
    const value = name in fields ? fields[name] : fields[snake(name)];
    if (value === undefined) throw new Error(`sandbox blocks: ${spec.pallet}.${spec.name} needs field ${name}`);
    return registry.createType(type(registry, field.type), value).toU8a();
  });
  return util.u8aConcat(new Uint8Array([pallet.index.toNumber(), variant.index.toNumber()]), ...data);
}

/** `Vec<EventRecord>` as `System.Events` holds it; decoded back with the same metadata as a check. */
export function encodeEvents(registry: TypeRegistry, events: readonly EventSpec[]): `0x${string}` {
  const types = eventTypes(registry);
  const records = events.map((e) => {
    const phase = typeof e.phase === 'number' ? { ApplyExtrinsic: e.phase } : e.phase === 'initialization' ? 'Initialization' : 'Finalization';
    // No topics: an empty Vec<Hash>.
    return util.u8aConcat(registry.createType(types.phase, phase).toU8a(), encodeEvent(registry, e), new Uint8Array([0]));
  });
  const bytes = util.u8aConcat(util.compactToU8a(records.length), ...records);
  const decoded = registry.createType(types.events, bytes);
  if (decoded.encodedLength !== bytes.length) throw new Error('sandbox blocks: the events do not decode back with this metadata');
  return util.u8aToHex(bytes);
}

