// The data each emulated chain serves, read once per chain: its name and place in the sandbox,
// genesis hash and properties, REAL metadata and runtime version (Polkadot, Kusama and their Asset
// Hubs from @polkadot/types-support, as v15; Hydration from @galacticcouncil/descriptors, Moonbeam
// and BridgeHubPolkadot from the files in src/sandbox/metadata, as v16), its legacy RPC method
// list, and the TypeRegistry built from that metadata (for encoding storage, events and answers).
//
// Loading rule: every @polkadot/* module is loaded through `require` (the same CommonJS copy
// that src/sdk/load.ts loads), never through an ESM import.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { Metadata as MetadataClass, TypeRegistry as TypeRegistryClass } from '@polkadot/types';
import type { ChainProperties as ChainPropertiesCodec } from '@polkadot/types/interfaces';
import { projectRoot } from '../project-root';
import { withSpecVersion } from './metadata-versions';
import { OLDER_XCM_GONE_APIS, withOlderQueues, type QueueEra } from './older-queues';

const load = createRequire(__filename);

type PolkadotTypes = typeof import('@polkadot/types');

let typesModule: PolkadotTypes | undefined;
function polkadotTypes(): PolkadotTypes {
  typesModule ??= load('@polkadot/types') as PolkadotTypes;
  return typesModule;
}

export type SandboxChainName =
  | 'Polkadot'
  | 'AssetHubPolkadot'
  | 'Kusama'
  | 'AssetHubKusama'
  | 'Hydration'
  | 'Moonbeam'
  | 'BridgeHubPolkadot';

export const SANDBOX_CHAINS: readonly SandboxChainName[] = [
  'Polkadot',
  'AssetHubPolkadot',
  'Kusama',
  'AssetHubKusama',
  'Hydration',
  'Moonbeam',
  'BridgeHubPolkadot',
];

// ---------------------------------------------------------------------------------------------
// Chain data

interface ChainProperties {
  ss58Format: number;
  tokenDecimals: number;
  tokenSymbol: string;
}

export interface RuntimeVersionJson {
  specName: string;
  implName: string;
  authoringVersion: number;
  specVersion: number;
  implVersion: number;
  apis: [string, number][];
  transactionVersion: number;
  stateVersion: number;
  [k: string]: unknown;
}

export interface ChainData {
  metadataHex: `0x${string}`;
  /** Metadata version of the served bytes (15 or 16). */
  metadataVersion: number;
  runtimeVersion: RuntimeVersionJson;
  rpcMethods: string[];
}

export interface ChainStatic {
  systemChain: string;
  genesisHash: string;
  properties: ChainProperties;
}

// The relays' tokens, which their system parachains keep.
const DOT: ChainProperties = { ss58Format: 0, tokenDecimals: 10, tokenSymbol: 'DOT' };
const KSM: ChainProperties = { ss58Format: 2, tokenDecimals: 12, tokenSymbol: 'KSM' };

// Real genesis hashes (same as @polkadot/networks), so that anything keyed on them behaves.
export const CHAIN_STATIC: Record<SandboxChainName, ChainStatic> = {
  Polkadot: {
    systemChain: 'Polkadot',
    genesisHash: '0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3',
    properties: DOT,
  },
  AssetHubPolkadot: {
    systemChain: 'Polkadot Asset Hub',
    genesisHash: '0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f',
    properties: DOT,
  },
  Kusama: {
    systemChain: 'Kusama',
    genesisHash: '0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe',
    properties: KSM,
  },
  AssetHubKusama: {
    systemChain: 'Kusama Asset Hub',
    genesisHash: '0x48239ef607d7928874027a43a67689209727dfb3d3dc5e5b03a39bdc2eda771a',
    properties: KSM,
  },
  Hydration: {
    systemChain: 'Hydration',
    genesisHash: '0xafdc188f45c71dacbaa0b62e16a91f726c7b8699a9748cdf715459de6b7f366d',
    properties: { ss58Format: 63, tokenDecimals: 12, tokenSymbol: 'HDX' },
  },
  Moonbeam: {
    systemChain: 'Moonbeam',
    genesisHash: '0xfe58ea77779b7abda7da4ec526d14db9b1e9cd40a217c34892af80a9b332b76d',
    properties: { ss58Format: 1284, tokenDecimals: 18, tokenSymbol: 'GLMR' },
  },
  BridgeHubPolkadot: {
    systemChain: 'Polkadot BridgeHub',
    genesisHash: '0xdcf691b5a3fbe24adc99ddc959c0561b973e329b1aef4c4b22e7bb2ddecb4464',
    properties: DOT,
  },
};

/** Raw metadata files (v16, `meta` magic) vendored under src/sandbox/metadata (see its README). */
const METADATA_FILE: Partial<Record<SandboxChainName, string>> = {
  Moonbeam: 'moonbeam.scale',
  BridgeHubPolkadot: 'bridge-hub-polkadot.scale',
};

const TYPES_SUPPORT_FILE: Partial<Record<SandboxChainName, string>> = {
  Polkadot: 'polkadot',
  AssetHubPolkadot: 'asset-hub-polkadot',
  Kusama: 'kusama',
  AssetHubKusama: 'asset-hub-kusama',
};

export const HYDRATION_DESCRIPTORS = '@galacticcouncil/descriptors@2.6.0';

const chainDataCache = new Map<SandboxChainName, ChainData>();

function defaultExport<T>(mod: unknown): T {
  const m = mod as { default?: T };
  return (m.default ?? mod) as T;
}

/** Strips an `Option<OpaqueMetadata>` / `OpaqueMetadata` wrapper, returns the raw `meta...` bytes. */
function rawMetadata(bytes: Buffer): Buffer {
  const MAGIC = 0x6174656d; // 'meta' little endian
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === MAGIC) return bytes;
  let offset = 0;
  if (bytes[0] === 0x01) offset = 1; // Option::Some
  const { value, length } = decodeCompact(bytes, offset);
  const start = offset + length;
  if (bytes.readUInt32LE(start) !== MAGIC || start + value !== bytes.length) {
    throw new Error('sandbox: metadata bytes do not carry the "meta" magic');
  }
  return bytes.subarray(start);
}

function decodeCompact(bytes: Buffer, offset: number): { value: number; length: number } {
  const b = bytes[offset] ?? 0;
  switch (b & 0b11) {
    case 0:
      return { value: b >> 2, length: 1 };
    case 1:
      return { value: bytes.readUInt16LE(offset) >> 2, length: 2 };
    case 2:
      return { value: bytes.readUInt32LE(offset) >>> 2, length: 4 };
    default:
      throw new Error('sandbox: big compact lengths are not supported');
  }
}

export function encodeCompact(n: number): Buffer {
  if (n < 1 << 6) return Buffer.from([n << 2]);
  if (n < 1 << 14) {
    const b = Buffer.alloc(2);
    b.writeUInt16LE((n << 2) | 0b01);
    return b;
  }
  if (n < 1 << 30) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(((n << 2) | 0b10) >>> 0);
    return b;
  }
  throw new Error('sandbox: value too large for compact encoding');
}

function hydrationMetadataBase64(): string {
  let pkgJson: string;
  try {
    pkgJson = load.resolve('@galacticcouncil/descriptors/package.json');
  } catch {
    throw new Error(
      `sandbox: Hydration needs the devDependency ${HYDRATION_DESCRIPTORS} ` +
        `(npm install --save-dev --save-exact ${HYDRATION_DESCRIPTORS}); it ships Hydration's metadata.`,
    );
  }
  const buildDir = path.join(path.dirname(pkgJson), 'build');
  const file = fs.readdirSync(buildDir).find((f) => /^hydration_metadata-.*\.js$/.test(f));
  if (!file) throw new Error(`sandbox: no build/hydration_metadata-*.js in ${buildDir}`);
  const text = fs.readFileSync(path.join(buildDir, file), 'utf8');
  const match = /["'`]([A-Za-z0-9+/]{1000,}={0,2})["'`]/.exec(text);
  if (!match?.[1]) throw new Error(`sandbox: no base64 metadata found in ${file}`);
  return match[1];
}

/** Reads the runtime version baked into the metadata (constant System.Version). */
function runtimeVersionFromMetadata(registry: TypeRegistryClass): RuntimeVersionJson {
  const system = registry.metadata.pallets.find((p) => p.name.eq('System'));
  const constant = system?.constants.find((c) => c.name.eq('Version'));
  if (!constant) throw new Error('sandbox: metadata has no System.Version constant');
  const version = registry
    .createType(registry.createLookupType(constant.type), constant.value.toU8a(true))
    .toJSON() as Record<string, unknown>;
  const systemVersion = typeof version['systemVersion'] === 'number' ? version['systemVersion'] : 1;
  return {
    specName: String(version['specName']),
    implName: String(version['implName']),
    authoringVersion: Number(version['authoringVersion']),
    specVersion: Number(version['specVersion']),
    implVersion: Number(version['implVersion']),
    apis: (version['apis'] as [string, number][]).map(([id, v]) => [id, v]),
    transactionVersion: Number(version['transactionVersion']),
    systemVersion,
    stateVersion: systemVersion,
  };
}

export function chainData(chain: SandboxChainName): ChainData {
  const cached = chainDataCache.get(chain);
  if (cached) return cached;
  let data: ChainData;
  const metadataFile = METADATA_FILE[chain];
  if (chain === 'Hydration' || metadataFile) {
    const raw = metadataFile
      ? rawMetadata(fs.readFileSync(path.join(projectRoot(), 'src', 'sandbox', 'metadata', metadataFile)))
      : Buffer.from(hydrationMetadataBase64(), 'base64');
    const metadataHex = `0x${rawMetadata(raw).toString('hex')}` as const;
    data = {
      metadataHex,
      metadataVersion: raw[4] ?? 16,
      runtimeVersion: runtimeVersionFromMetadata(registryForChain(chain, metadataHex)),
      // These chains' own lists are not shipped anywhere offline; a parachain's list is close enough.
      rpcMethods: legacyRpcMethods(
        defaultExport<{ methods: string[] }>(load('@polkadot/types-support/metadata/v15/asset-hub-polkadot-rpc')).methods,
      ),
    };
  } else {
    const base = `@polkadot/types-support/metadata/v15/${String(TYPES_SUPPORT_FILE[chain])}`;
    const wrapped = Buffer.from(defaultExport<string>(load(`${base}-hex`)).slice(2), 'hex');
    const raw = rawMetadata(wrapped);
    const ver = defaultExport<Record<string, unknown>>(load(`${base}-ver`));
    data = {
      metadataHex: `0x${raw.toString('hex')}`,
      metadataVersion: raw[4] ?? 15,
      runtimeVersion: {
        ...(ver as RuntimeVersionJson),
        stateVersion: Number(ver['stateVersion'] ?? ver['systemVersion'] ?? 1),
      },
      rpcMethods: legacyRpcMethods(defaultExport<{ methods: string[] }>(load(`${base}-rpc`)).methods),
    };
  }
  chainDataCache.set(chain, data);
  return data;
}

const QUEUE_ERA_SPEC: Record<QueueEra, number> = { 'cumulus-1.0': 1_000_000, 'polkadot-0.9.42': 9420 };

/** A chain's data with the metadata of a runtime of queue era `era`. */
export function olderQueueData(chain: SandboxChainName, era: QueueEra): ChainData {
  const data = chainData(chain);
  const specVersion = QUEUE_ERA_SPEC[era];
  const raw = withSpecVersion(withOlderQueues(Buffer.from(data.metadataHex.slice(2), 'hex'), era), specVersion);
  // The runtime version lists no API the metadata lost (an API is listed by its name's blake2-64).
  const { blake2AsHex } = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
  const gone = new Set<string>(OLDER_XCM_GONE_APIS.map((name) => blake2AsHex(name, 64)));
  const apis = data.runtimeVersion.apis.filter(([id]) => !gone.has(id));
  return { ...data, metadataHex: `0x${Buffer.from(raw).toString('hex')}`, runtimeVersion: { ...data.runtimeVersion, specVersion, apis } };
}

/**
 * The node's `rpc_methods` list without the new JSON-RPC spec families (`chainHead_v1_*`,
 * `archive_v1_*`, ...): polkadot.js does not decorate those and warns about each at startup.
 */
function legacyRpcMethods(methods: string[]): string[] {
  return methods.filter((m) => !/^[A-Za-z]+_v\d+_/.test(m));
}

/** By the metadata served (a chain may serve a variant of its own). */
const registries = new Map<string, TypeRegistryClass>();

/** A TypeRegistry with the chain's metadata and properties (built once per chain, ~0.2 s). */
export function registryForChain(chain: SandboxChainName, metadataHex: `0x${string}` = chainData(chain).metadataHex): TypeRegistryClass {
  let registry = registries.get(metadataHex);
  if (!registry) {
    const { TypeRegistry, Metadata } = polkadotTypes();
    registry = new TypeRegistry();
    const metadata: MetadataClass = new Metadata(registry, metadataHex);
    registry.setMetadata(metadata, undefined, undefined, true);
    registry.setChainProperties(
      registry.createType('ChainProperties', CHAIN_STATIC[chain].properties) as unknown as ChainPropertiesCodec,
    );
    registries.set(metadataHex, registry);
  }
  return registry;
}

/**
 * `toJSON()` writes integers above 2^53 as hex; `toPrimitive()` writes them as decimal strings
 * (but also turns printable byte strings into text). Take the JSON shape and only swap in the
/** A u32, little endian, as hex without 0x. */
export function hexU32(n: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b.toString('hex');
}

