// Patch: a call's XCM arguments are written in the highest XCM version the origin's metadata knows.
//
// Corrects: sdk-core 11.14.8 takes the XCM version from its own tables (V5 for every relay chain,
// the registry's version for a parachain), never from the chain: on a runtime older than those
// tables (Kusama and its asset hub 1.0.0, early 2024, know V2 and V3) polkadot.js's createType threw
// on the `V5` key and /x-transfer answered 500. A location, an asset, assets and an asset id are
// rewritten down to the newest version the call's argument type has (V5 -> V4 is the same value;
// V4 -> V3 wraps ids in `Concrete` and writes `X1` as one junction). What has no such form (an XCM
// program, or a chain below V3) is a 400 that names the versions the chain knows.
//
// Still needed? Read sdk-core's `send` (where it calls `selectXcmVersion` with `getChainVersion`):
// if the version comes from the origin's metadata (`XcmVersionedLocation`'s variants, or
// `XcmPallet.CurrentXcmVersion`), the patch can go. Remove it and run the guard tests.
//
// Guarded by: test/http/older-runtimes.test.ts "/%s Kusama -> AssetHubKusama: built with XCM V3,
// the newest the chain knows"; test/real/kusama.test.ts (on the real Kusama 1.0.0).
import type { ApiPromise } from '@polkadot/api';
import type { Registry } from '@polkadot/types-codec/types';
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface Serialized {
  module: string;
  method: string;
  params: Record<string, unknown>;
}

interface SdkTxApi {
  readonly api: ApiPromise;
  convertToPjsCall(serialized: Serialized): { module: string; method: string };
  deserializeExtrinsics(serialized: Serialized): unknown;
}

type Json = Record<string, unknown>;
type Kind = 'location' | 'asset' | 'assets' | 'assetId';

/** What a `xcm::Versioned*` type holds, by its name (with the `Multi` names of V3 and before). */
const KINDS: Record<string, Kind> = {
  VersionedLocation: 'location',
  VersionedMultiLocation: 'location',
  VersionedAsset: 'asset',
  VersionedMultiAsset: 'asset',
  VersionedAssets: 'assets',
  VersionedMultiAssets: 'assets',
  VersionedAssetId: 'assetId',
};

const VERSION_KEY = /^[vV](\d+)$/;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A V4 location in V3: `X1` held one junction, not a list of one. */
function locationV3(location: unknown): unknown {
  if (!isJson(location) || !isJson(location['interior'])) return location;
  const interior = location['interior'];
  const key = Object.keys(interior).find((k) => k.toUpperCase() === 'X1');
  const x1 = key === undefined ? undefined : interior[key];
  return Array.isArray(x1) && x1.length === 1 ? { ...location, interior: { X1: x1[0] } } : location;
}

const assetIdV3 = (id: unknown): unknown => ({ Concrete: locationV3(id) });
const assetV3 = (asset: unknown): unknown => (isJson(asset) ? { ...asset, id: assetIdV3(asset['id']) } : asset);

/** A value of `kind` one version down from `from` (V5 and V4 agree on these); undefined when it has no such form. */
function down(kind: Kind, from: number, value: unknown): unknown {
  if (from === 5) return value;
  if (from !== 4) return undefined;
  switch (kind) {
    case 'location':
      return locationV3(value);
    case 'assetId':
      return assetIdV3(value);
    case 'asset':
      return assetV3(value);
    case 'assets':
      return Array.isArray(value) ? value.map(assetV3) : undefined;
  }
}

type Versioned = { kind?: Kind; versions: number[] } | undefined;

/** What versionedType found, per type lookup (a runtime upgrade gives the registry a new one) and type id. */
const versionedTypes = new WeakMap<object, Map<number, Versioned>>();

/** The XCM versions a `xcm::Versioned*` type has and what it holds; undefined for any other type. */
function versionedType(registry: Registry, id: number): Versioned {
  let known = versionedTypes.get(registry.lookup);
  if (!known) versionedTypes.set(registry.lookup, (known = new Map()));
  if (!known.has(id)) known.set(id, readVersionedType(registry, id));
  return known.get(id);
}

function readVersionedType(registry: Registry, id: number): Versioned {
  const type = registry.lookup.getSiType(id);
  const path = type.path.map((p) => p.toString());
  if (path[0] !== 'xcm' || !path[1]?.startsWith('Versioned') || !type.def.isVariant) return undefined;
  const versions = type.def.asVariant.variants.map((v) => VERSION_KEY.exec(v.name.toString())?.[1]).filter((v) => v !== undefined).map(Number);
  return { kind: KINDS[path.at(-1)!], versions };
}

/** `value` (`{V5: ...}`) in the newest version `type` knows; unchanged when it knows the version already. */
function known(chain: string, name: string, type: { kind?: Kind; versions: number[] }, value: unknown): unknown {
  const [key, inner] = isJson(value) && Object.keys(value).length === 1 ? Object.entries(value)[0]! : [];
  const written = key === undefined ? undefined : VERSION_KEY.exec(key)?.[1];
  if (written === undefined || type.versions.length === 0 || type.versions.includes(Number(written))) return value;
  const target = Math.max(...type.versions.filter((v) => v < Number(written)));
  let at = Number(written);
  let held: unknown = inner;
  while (type.kind && held !== undefined && at > target) held = down(type.kind, at--, held);
  if (held === undefined || at !== target) {
    const versions = type.versions.map((v) => `V${v}`).join(', ');
    throw new sdk.InvalidParameterError(`${chain}'s runtime knows XCM ${versions}; the SDK wrote ${name} in XCM V${written}, which has no ${versions} form here: send xcmVersion with one of ${versions}`);
  }
  return { [`V${target}`]: held };
}

export function buildWithTheMetadataXcmVersion(): void {
  const proto = apiPrototypeOf<SdkTxApi>(sdk);
  const deserialize = proto.deserializeExtrinsics;
  proto.deserializeExtrinsics = function (this: SdkTxApi, serialized) {
    const { module, method } = this.convertToPjsCall(serialized);
    const fields = this.api.tx[module]?.[method]?.meta.fields;
    if (!fields) return deserialize.call(this, serialized);
    const chain = this.api.runtimeChain.toString() || this.api.runtimeVersion.specName.toString();
    const names = Object.keys(serialized.params);
    const params = Object.fromEntries(
      names.map((name, i) => {
        const field = fields[i];
        const type = field ? versionedType(this.api.registry, field.type.toNumber()) : undefined;
        return [name, type ? known(chain, name, type, serialized.params[name]) : serialized.params[name]];
      }),
    );
    return deserialize.call(this, { ...serialized, params });
  };
}
