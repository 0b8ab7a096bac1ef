// Metadata of chains that still run the message queues before `pallet-message-queue`: real v15
// metadata (Polkadot, the asset hubs) edited to declare the events those runtimes emitted, with
// the shapes (variant indices, field names, field types) of their polkadot-sdk releases:
//
// - `cumulus-1.0` (parachains on polkadot-sdk 1.0 to 1.4, mid to late 2023, before polkadot-sdk#1246
//   moved them onto `MessageQueue`): `XcmpQueue` executes XCMP messages itself (`Success` / `Fail`
//   with `message_hash` and `message_id`), and a `DmpQueue` pallet executes downward ones
//   (`ExecutedDownward { message_hash, message_id, outcome }`).
//   Relay chains already used `MessageQueue` then: relay metadata is left as it is.
// - `polkadot-0.9.42` (before XCM topics, up to mid-2023): no `message_id` anywhere. Relays have an
//   `Ump` pallet with unnamed fields (`ExecutedUpward(id, outcome)`, the id the blake2-256 hash of
//   the upward message); parachains report `XcmpQueue.Success { message_hash: Option<H256>, weight }`
//   and `DmpQueue.ExecutedDownward { message_id, outcome }`; pallet-xcm's `Sent` has three unnamed
//   fields (origin, destination, message) and no id.
//
// Outcomes are XCM v3's (`Complete(Weight)`, `Incomplete(Weight, Error)`, `Error(Error)`), as both
// releases had them. Types the metadata already has are reused; the others are appended.
//
// Both eras (relays of `cumulus-1.0` too, like Kusama 1.0.0 of early 2024) knew XCM V2 and V3 only
// (V4 came with polkadot-sdk 1.7) and had no DryRunApi or XcmPaymentApi (1.11): the `xcm::Versioned*`
// enums lose their V4 and V5 variants, and those runtime APIs are gone (OLDER_XCM_GONE_APIS).
// pallet-xcm's calls end at `force_suspension` (index 10), as on Kusama 1.0.0: no `transfer_assets`,
// no `transfer_assets_using_type_and_then`.
import { bindings, type LookupEntry, type V15 } from './metadata-versions';

export type QueueEra = 'cumulus-1.0' | 'polkadot-0.9.42';

type Def = LookupEntry['def'];
type Variant = Extract<Def, { tag: 'variant' }>['value'][number];
type Field = Variant['fields'][number];

class Types {
  constructor(readonly lookup: LookupEntry[]) {}

  byPath(path: string, params?: (p: LookupEntry['params']) => boolean): number {
    const found = this.lookup.find((t) => t.path.join('::') === path && (!params || params(t.params)));
    if (!found) throw new Error(`older-queues: the metadata has no ${path}`);
    return found.id;
  }

  primitive(tag: 'u8' | 'u32' | 'u64'): number {
    return this.find((t) => t.def.tag === 'primitive' && t.def.value.tag === tag, { path: [], params: [], def: { tag: 'primitive', value: { tag, value: undefined } }, docs: [] });
  }

  /** `[u8; 32]`: XcmHash, MessageId. */
  hash32(): number {
    const u8 = this.primitive('u8');
    return this.find((t) => t.def.tag === 'array' && t.def.value.len === 32 && t.def.value.type === u8, { path: [], params: [], def: { tag: 'array', value: { len: 32, type: u8 } }, docs: [] });
  }

  option(of: number): number {
    return this.find((t) => t.path.join('::') === 'Option' && t.params[0]?.type === of, {
      path: ['Option'],
      params: [{ name: 'T', type: of }],
      def: { tag: 'variant', value: [variant('None', 0, []), variant('Some', 1, [field(undefined, of, 'T')])] },
      docs: [],
    });
  }

  /** xcm::v3::traits::Outcome over the metadata's Weight and v3 Error. */
  outcomeV3(): number {
    const weight = this.byPath('sp_weights::weight_v2::Weight');
    const error = this.byPath('xcm::v3::traits::Error');
    return this.find((t) => t.path.join('::') === 'xcm::v3::traits::Outcome', {
      path: ['xcm', 'v3', 'traits', 'Outcome'],
      params: [],
      def: {
        tag: 'variant',
        value: [variant('Complete', 0, [field(undefined, weight, 'Weight')]), variant('Incomplete', 1, [field(undefined, weight, 'Weight'), field(undefined, error, 'Error')]), variant('Error', 2, [field(undefined, error, 'Error')])],
      },
      docs: [],
    });
  }

  add(entry: Omit<LookupEntry, 'id'>): number {
    const id = this.lookup.length;
    this.lookup.push({ id, ...entry });
    return id;
  }

  private find(matches: (t: LookupEntry) => boolean, entry: Omit<LookupEntry, 'id'>): number {
    return this.lookup.find(matches)?.id ?? this.add(entry);
  }
}

const field = (name: string | undefined, type: number, typeName?: string): Field => ({ name, type, typeName, docs: [] });
const variant = (name: string, index: number, fields: Field[]): Variant => ({ name, index, fields, docs: [] });
const eventEnum = (path: string[], variants: Variant[]): Omit<LookupEntry, 'id'> => ({ path, params: [{ name: 'T', type: undefined }], def: { tag: 'variant', value: variants }, docs: [] });

/** cumulus_pallet_xcmp_queue::Event as each release declared it. */
function xcmpQueueEvents(t: Types, era: QueueEra): Variant[] {
  const weight = t.byPath('sp_weights::weight_v2::Weight');
  const error = t.byPath('xcm::v3::traits::Error');
  const [u32, u64] = [t.primitive('u32'), t.primitive('u64')];
  const hash = era === 'cumulus-1.0' ? t.hash32() : t.option(t.byPath('primitive_types::H256'));
  const ids = era === 'cumulus-1.0' ? [field('message_hash', hash, 'XcmHash'), field('message_id', hash, 'XcmHash')] : [field('message_hash', hash, 'Option<T::Hash>')];
  return [
    variant('Success', 0, [...ids, field('weight', weight, 'Weight')]),
    variant('Fail', 1, [...ids, field('error', error, 'XcmError'), field('weight', weight, 'Weight')]),
    variant('BadVersion', 2, [field('message_hash', hash)]),
    variant('BadFormat', 3, [field('message_hash', hash)]),
    variant('XcmpMessageSent', 4, [field('message_hash', hash)]),
    variant('OverweightEnqueued', 5, [field('sender', u32, 'ParaId'), field('sent_at', u32, 'RelayBlockNumber'), field('index', u64, 'OverweightIndex'), field('required', weight, 'Weight')]),
    variant('OverweightServiced', 6, [field('index', u64, 'OverweightIndex'), field('used', weight, 'Weight')]),
  ];
}

/** cumulus_pallet_dmp_queue::Event: 1.0 names the hash and the id, 0.9.42 only the id (the hash). */
function dmpQueueEvents(t: Types, era: QueueEra): Variant[] {
  const weight = t.byPath('sp_weights::weight_v2::Weight');
  const [hash, u64, outcome] = [t.hash32(), t.primitive('u64'), t.outcomeV3()];
  const only = era === 'cumulus-1.0' ? [field('message_hash', hash, 'XcmHash')] : [field('message_id', hash, 'MessageId')];
  const ids = era === 'cumulus-1.0' ? [...only, field('message_id', hash, 'XcmHash')] : only;
  return [
    variant('InvalidFormat', 0, only),
    variant('UnsupportedVersion', 1, only),
    variant('ExecutedDownward', 2, [...ids, field('outcome', outcome, 'Outcome')]),
    variant('WeightExhausted', 3, [...ids, field('remaining_weight', weight, 'Weight'), field('required_weight', weight, 'Weight')]),
    variant('OverweightEnqueued', 4, [...ids, field('overweight_index', u64, 'OverweightIndex'), field('required_weight', weight, 'Weight')]),
    variant('OverweightServiced', 5, [field('overweight_index', u64, 'OverweightIndex'), field('weight_used', weight, 'Weight')]),
    variant('MaxMessagesExhausted', 6, only),
  ];
}

/** polkadot_runtime_parachains::ump::Event (0.9.42): unnamed fields, as the relay declared them. */
function umpEvents(t: Types): Variant[] {
  const weight = t.byPath('sp_weights::weight_v2::Weight');
  const [id, u32, u64, outcome] = [t.hash32(), t.primitive('u32'), t.primitive('u64'), t.outcomeV3()];
  const f = (type: number, typeName: string) => field(undefined, type, typeName);
  return [
    variant('InvalidFormat', 0, [f(id, 'MessageId')]),
    variant('UnsupportedVersion', 1, [f(id, 'MessageId')]),
    variant('ExecutedUpward', 2, [f(id, 'MessageId'), f(outcome, 'Outcome')]),
    variant('WeightExhausted', 3, [f(id, 'MessageId'), f(weight, 'Weight'), f(weight, 'Weight')]),
    variant('UpwardMessagesReceived', 4, [f(u32, 'ParaId'), f(u32, 'u32'), f(u32, 'u32')]),
    variant('OverweightEnqueued', 5, [f(u32, 'ParaId'), f(id, 'MessageId'), f(u64, 'OverweightIndex'), f(weight, 'Weight')]),
    variant('OverweightServiced', 6, [f(u64, 'OverweightIndex'), f(weight, 'Weight')]),
  ];
}

/** Declares pallet `name` (events only) at `index`, in the pallet list and in RuntimeEvent. */
function addPallet(v15: V15, t: Types, name: string, index: number, events: number, typeName: string): void {
  if (v15.pallets.some((p) => p.index === index || p.name === name)) throw new Error(`older-queues: pallet index ${index} or name ${name} is taken`);
  v15.pallets.push({ name, storage: undefined, calls: undefined, events, constants: [], errors: undefined, index, docs: [] });
  v15.pallets.sort((a, b) => a.index - b.index);
  const outer = t.lookup[v15.outerEnums.event];
  if (outer?.def.tag !== 'variant') throw new Error('older-queues: RuntimeEvent is not an enum');
  outer.def.value.push(variant(name, index, [field(undefined, events, typeName)]));
  outer.def.value.sort((a, b) => a.index - b.index);
}

/** pallet-xcm's `Sent` before it carried `message_id`: origin, destination and message, unnamed. */
function sentWithoutId(v15: V15, t: Types, pallet: string): void {
  const events = v15.pallets.find((p) => p.name === pallet)?.events;
  const def = events === undefined ? undefined : t.lookup[events]?.def;
  const sent = def?.tag === 'variant' ? def.value.find((v) => v.name === 'Sent') : undefined;
  if (!sent) throw new Error(`older-queues: ${pallet} has no Sent event`);
  sent.fields = sent.fields.filter((f) => f.name !== 'message_id').map((f) => ({ ...f, name: undefined }));
}

/** `bytes` (v15 metadata, `meta` magic first) as a chain of `era` declares its queues' events. */
export function withOlderQueues(bytes: Uint8Array, era: QueueEra): Uint8Array {
  const prefixed = bindings.metadata.dec(new Uint8Array(bytes));
  if (prefixed.metadata.tag !== 'v15') throw new Error(`older-queues: expected v15 metadata, got ${prefixed.metadata.tag}`);
  const v15 = prefixed.metadata.value;
  const t = new Types(v15.lookup);
  const xcmp = v15.pallets.find((p) => p.name === 'XcmpQueue');
  if (xcmp?.events !== undefined) {
    // A parachain: XcmpQueue executes its messages, DmpQueue (index 33 on the asset hubs then) the relay's.
    const entry = t.lookup[xcmp.events]!;
    entry.def = { tag: 'variant', value: xcmpQueueEvents(t, era) };
    const dmp = t.add(eventEnum(['cumulus_pallet_dmp_queue', 'pallet', 'Event'], dmpQueueEvents(t, era)));
    addPallet(v15, t, 'DmpQueue', 33, dmp, 'cumulus_pallet_dmp_queue::Event<Runtime>');
    if (era === 'polkadot-0.9.42') sentWithoutId(v15, t, 'PolkadotXcm');
  } else if (era === 'polkadot-0.9.42') {
    // A relay: Ump (index 59 on Polkadot and Kusama then) executes upward messages.
    const ump = t.add(eventEnum(['polkadot_runtime_parachains', 'ump', 'pallet', 'Event'], umpEvents(t)));
    addPallet(v15, t, 'Ump', 59, ump, 'parachains_ump::Event');
    sentWithoutId(v15, t, 'XcmPallet');
  }
  olderXcm(v15, t);
  return bindings.metadata.enc(prefixed);
}

/** The runtime APIs a runtime of either era did not have (its runtime version lists none of them). */
export const OLDER_XCM_GONE_APIS = ['DryRunApi', 'XcmPaymentApi', 'LocationToAccountApi', 'TrustedQueryApi', 'AuthorizedAliasersApi'];

/** pallet-xcm's last call then (`force_suspension`). */
const LAST_XCM_CALL = 10;

/** XCM V2 and V3 only: no V4/V5 variant in any `xcm::Versioned*` enum, no call or runtime API of later releases. */
function olderXcm(v15: V15, t: Types): void {
  for (const entry of t.lookup) {
    if (entry.path.join('::') === 'pallet_xcm::pallet::Call' && entry.def.tag === 'variant') entry.def.value = entry.def.value.filter((v) => v.index <= LAST_XCM_CALL);
    if (entry.path[0] !== 'xcm' || !entry.path[1]?.startsWith('Versioned') || entry.def.tag !== 'variant') continue;
    entry.def.value = entry.def.value.filter((v) => !/^V[45]$/.test(v.name));
  }
  v15.apis = v15.apis.filter((api) => !OLDER_XCM_GONE_APIS.includes(api.name));
}
