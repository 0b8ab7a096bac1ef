// Edits of real metadata that test chains need, made with the SCALE codecs polkadot-api
// ships (the copy polkadot-api itself depends on), no polkadot.js involved:
//
// - `metadataV15Of`: the v15 view of v16 metadata. A real node serves both (Metadata_metadata_at_version
//   answers 14, 15 and 16), and RFC-0078's metadata hash is computed from v15; our Hydration,
//   Moonbeam and BridgeHubPolkadot fixtures are v16 only. v15 holds a subset of v16: the projection drops what v15 has no place for
//   (deprecation notes, view functions, associated types, runtime API versions) and keeps the type
//   registry as it is, so every type id means the same in both. A node's own v15 registry need not
//   number its types as its v16 does; what RFC-0078 hashes (the types an extrinsic reaches, the
//   extrinsic's shape) is the same either way.
// - `metadataV16Of`: the other way, for the chains whose real metadata we have as v15 only.
// - `withSpecVersion`: the metadata a runtime upgrade that only bumps `spec_version` would have
//   (its System.Version constant rewritten).
import { createRequire } from 'node:module';

const fromPapi = createRequire(createRequire(__filename).resolve('polkadot-api'));
export const bindings = fromPapi('@polkadot-api/substrate-bindings') as typeof import('../../node_modules/polkadot-api/node_modules/@polkadot-api/substrate-bindings');

export type V15 = import('../../node_modules/polkadot-api/node_modules/@polkadot-api/substrate-bindings').V15;
type Prefixed = ReturnType<typeof bindings.metadata.dec>;
type V16 = Extract<Prefixed['metadata'], { tag: 'v16' }>['value'];
export type LookupEntry = V15['lookup'][number];

/** The transaction extensions of extension version 0: what extrinsic v4 carries. */
function extensionsV0(extrinsic: V16['extrinsic']): V15['extrinsic']['signedExtensions'] {
  const byVersion = extrinsic.signedExtensionsByVersion.find(([version]) => version === 0);
  if (!byVersion) throw new Error('metadata-versions: v16 metadata without extension version 0');
  return byVersion[1].map((i) => {
    const ext = extrinsic.signedExtensions[i];
    if (!ext) throw new Error(`metadata-versions: extension index ${i} out of range`);
    return ext;
  });
}

/** The id of a type in `lookup` that `matches`, appended (with `entry`) when there is none. */
function typeId(lookup: LookupEntry[], matches: (t: LookupEntry) => boolean, entry: Omit<LookupEntry, 'id'>): number {
  const found = lookup.find(matches);
  if (found) return found.id;
  const id = lookup.length;
  lookup.push({ id, ...entry });
  return id;
}

/** The v15 metadata (`meta` magic and version byte included) of a v16 metadata blob. */
export function metadataV15Of(v16Bytes: Uint8Array): Uint8Array {
  const prefixed = bindings.metadata.dec(new Uint8Array(v16Bytes));
  if (prefixed.metadata.tag !== 'v16') throw new Error(`metadata-versions: expected v16 metadata, got ${prefixed.metadata.tag}`);
  const v16 = prefixed.metadata.value;
  const lookup = [...v16.lookup];
  const extensions = extensionsV0(v16.extrinsic);
  // v15 names the tuple of the extensions' types (`extra_ty`) and the runtime type; v16 dropped both.
  const extraTypes = extensions.map((e) => e.type);
  const extra = typeId(lookup, (t) => t.def.tag === 'tuple' && t.def.value.length === extraTypes.length && t.def.value.every((id, i) => id === extraTypes[i]), {
    path: [],
    params: [],
    def: { tag: 'tuple', value: extraTypes },
    docs: [],
  });
  const runtime = typeId(lookup, (t) => t.path.at(-1) === 'Runtime' && t.def.tag === 'composite' && t.def.value.length === 0, {
    path: ['Runtime'],
    params: [],
    def: { tag: 'composite', value: [] },
    docs: [],
  });
  const v15: V15 = {
    lookup,
    pallets: v16.pallets.map((p) => ({
      name: p.name,
      storage: p.storage && { prefix: p.storage.prefix, items: p.storage.items.map(({ deprecationInfo: _d, ...item }) => item) },
      calls: p.calls?.type,
      events: p.events?.type,
      constants: p.constants.map(({ deprecationInfo: _d, ...c }) => c),
      errors: p.errors?.type,
      index: p.index,
      docs: p.docs,
    })),
    extrinsic: {
      version: 4,
      address: v16.extrinsic.address,
      call: v16.extrinsic.call,
      signature: v16.extrinsic.signature,
      extra,
      signedExtensions: extensions,
    },
    type: runtime,
    apis: v16.apis.map((api) => ({ name: api.name, methods: api.methods.map(({ deprecationInfo: _d, ...m }) => m), docs: api.docs })),
    outerEnums: v16.outerEnums,
    custom: v16.custom,
  };
  return bindings.metadata.enc({ magicNumber: prefixed.magicNumber, metadata: { tag: 'v15', value: v15 } } as Prefixed);
}

const NOT_DEPRECATED = { tag: 'NotDeprecated', value: undefined } as const;

/**
 * The v16 metadata (`meta` magic and version byte included) of a v15 metadata blob: what a node of
 * that runtime answers to Metadata_metadata_at_version(16). The same registry, pallets and runtime
 * APIs; what v16 adds is empty (nothing deprecated, no view functions, no associated types), each
 * runtime API carries `apiVersion(name)` (its version in the runtime version's `apis`), and the
 * extensions are listed as v16 writes them: extension version 0 is all of them, in order. The
 * extrinsic versions are the one v15 declares, so a client signs the format it signed before.
 */
export function metadataV16Of(v15Bytes: Uint8Array, apiVersion: (name: string) => number): Uint8Array {
  const prefixed = bindings.metadata.dec(new Uint8Array(v15Bytes));
  if (prefixed.metadata.tag !== 'v15') throw new Error(`metadata-versions: expected v15 metadata, got ${prefixed.metadata.tag}`);
  const v15 = prefixed.metadata.value;
  const v16: V16 = {
    lookup: v15.lookup,
    pallets: v15.pallets.map((p) => ({
      name: p.name,
      storage: p.storage && { prefix: p.storage.prefix, items: p.storage.items.map((item) => ({ ...item, deprecationInfo: NOT_DEPRECATED })) },
      calls: p.calls === undefined ? undefined : { type: p.calls, deprecationInfo: [] },
      events: p.events === undefined ? undefined : { type: p.events, deprecationInfo: [] },
      constants: p.constants.map((c) => ({ ...c, deprecationInfo: NOT_DEPRECATED })),
      errors: p.errors === undefined ? undefined : { type: p.errors, deprecationInfo: [] },
      associatedTypes: [],
      viewFns: [],
      index: p.index,
      docs: p.docs,
      deprecationInfo: NOT_DEPRECATED,
    })),
    extrinsic: {
      version: [v15.extrinsic.version],
      address: v15.extrinsic.address,
      call: v15.extrinsic.call,
      signature: v15.extrinsic.signature,
      signedExtensionsByVersion: [[0, v15.extrinsic.signedExtensions.map((_, i) => i)]],
      signedExtensions: v15.extrinsic.signedExtensions,
    },
    apis: v15.apis.map((api) => ({
      name: api.name,
      methods: api.methods.map((m) => ({ ...m, deprecationInfo: NOT_DEPRECATED })),
      docs: api.docs,
      version: apiVersion(api.name),
      deprecationInfo: NOT_DEPRECATED,
    })),
    outerEnums: v15.outerEnums,
    custom: v15.custom,
  };
  return bindings.metadata.enc({ magicNumber: prefixed.magicNumber, metadata: { tag: 'v16', value: v16 } });
}

/** Offset of `spec_version` in an encoded RuntimeVersion: after spec_name, impl_name and authoring_version. */
function specVersionOffset(version: Uint8Array): number {
  let offset = 0;
  for (let text = 0; text < 2; text++) {
    const length = bindings.compactNumber.dec(version.slice(offset));
    offset += bindings.compactNumber.enc(length).length + length;
  }
  return offset + 4;
}

/** `bytes` (v15 or v16 metadata) with System.Version's spec_version set to `specVersion`. */
export function withSpecVersion(bytes: Uint8Array, specVersion: number): Uint8Array {
  const prefixed = bindings.metadata.dec(new Uint8Array(bytes));
  const { tag, value } = prefixed.metadata;
  if (tag !== 'v15' && tag !== 'v16') throw new Error(`metadata-versions: cannot edit ${tag} metadata`);
  const system = (value as V15 | V16).pallets.find((p) => p.name === 'System');
  const constant = system?.constants.find((c) => c.name === 'Version');
  if (!constant) throw new Error('metadata-versions: no System.Version constant');
  const version = bindings.Binary.fromHex(constant.value).asBytes().slice();
  new DataView(version.buffer).setUint32(specVersionOffset(version), specVersion, true);
  constant.value = bindings.Binary.fromBytes(version).asHex();
  return bindings.metadata.enc(prefixed);
}

/** Any served metadata (v15 or v16, `meta` magic included) as v15. */
function asV15(bytes: Uint8Array): V15 {
  const prefixed = bindings.metadata.dec(new Uint8Array(bytes));
  if (prefixed.metadata.tag === 'v15') return prefixed.metadata.value;
  if (prefixed.metadata.tag === 'v16') return asV15(metadataV15Of(bytes));
  throw new Error(`metadata-versions: cannot project ${prefixed.metadata.tag} metadata`);
}

/**
 * The v14 metadata of v15 or v16 metadata: what `state_getMetadata` answers on a real node, and
 * what clients that predate v16 (polkadot.js 14) read. v14 names the extrinsic by one type, the
 * `UncheckedExtrinsic` whose parameters are its address, call, signature and extra types; the
 * registry's own is used when it has one with those parameters, else one is appended.
 */
export function metadataV14Of(bytes: Uint8Array): Uint8Array {
  const v15 = asV15(bytes);
  const lookup = [...v15.lookup];
  const { address, call, signature, extra } = v15.extrinsic;
  const params = [
    { name: 'Address', type: address },
    { name: 'Call', type: call },
    { name: 'Signature', type: signature },
    { name: 'Extra', type: extra },
  ];
  const u8 = typeId(lookup, (t) => t.def.tag === 'primitive' && t.def.value.tag === 'u8', { path: [], params: [], def: { tag: 'primitive', value: { tag: 'u8', value: undefined } }, docs: [] });
  const unchecked = typeId(
    lookup,
    (t) => t.path.at(-1) === 'UncheckedExtrinsic' && t.params.length === 4 && t.params.every((p, i) => p.name === params[i]!.name && p.type === params[i]!.type),
    { path: ['sp_runtime', 'generic', 'unchecked_extrinsic', 'UncheckedExtrinsic'], params, def: { tag: 'sequence', value: u8 }, docs: [] },
  );
  const v14 = {
    lookup,
    pallets: v15.pallets.map(({ docs: _docs, ...pallet }) => ({ ...pallet, docs: [] })),
    extrinsic: { type: unchecked, version: 4, signedExtensions: v15.extrinsic.signedExtensions },
    type: v15.type,
    apis: [],
  };
  return bindings.metadata.enc({ magicNumber: 0x6174656d, metadata: { tag: 'v14', value: v14 } } as unknown as Prefixed);
}
