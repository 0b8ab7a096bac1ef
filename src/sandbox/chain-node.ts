// An emulated Substrate node (the sandbox's, and the test suite's): a JSON-RPC 2.0 WebSocket
// server on 127.0.0.1 that serves REAL metadata and runtime versions (Polkadot, Kusama and their
// Asset Hubs from @polkadot/types-support; Hydration from @galacticcouncil/descriptors, also as
// v15; Moonbeam and BridgeHubPolkadot from the files in src/sandbox/metadata) over EMPTY storage.
// That is enough for `ApiPromise` to become ready and for the ParaSpell SDK's `build()`;
// nothing here executes a runtime: a runtime call answers only what its owner configured with
// `setRuntimeCall` (encoded with the chain's own metadata types), others fail with -32000; storage
// holds what its owner put there with `setStorage` (absent values read as zero balances); fees
// answer only with the opt-in `partialFee`; submitted extrinsics go to the taker set with
// `onSubmit` (the sandbox's transaction pool, network.ts), and to none by default.
//
// Loading rule: every @polkadot/* module is loaded through `require` (the same CommonJS copy
// that src/sdk/load.ts loads), never through an ESM import.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Metadata as MetadataClass, TypeRegistry as TypeRegistryClass } from '@polkadot/types';
import type { Call, ChainProperties as ChainPropertiesCodec } from '@polkadot/types/interfaces';
import { BlockProducer, type BlockSpec, type ProducedBlock } from './blocks';
import { answerEthereumRpc, ETHEREUM_RPC_METHODS, EthereumRpcError } from './ethereum-rpc';
import { projectRoot } from '../project-root';
import { metadataV14Of, metadataV15Of, withSpecVersion } from './metadata-versions';
import { withOlderQueues, type QueueEra } from './older-queues';
import { CODE_KEY, codeStandIn, SPEC_V2_METHODS, SpecV2 } from './rpc-spec-v2';

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

export interface ChainNode {
  readonly chain: SandboxChainName;
  readonly url: string;
  readonly port: number;
  /** Total WebSocket connections accepted so far. */
  readonly connectionsOpened: number;
  /** WebSocket connections currently open (server side view). */
  readonly openConnections: number;
  /** The metadata it serves (raw, starting with the `meta` magic 0x6d657461). */
  readonly metadataHex: `0x${string}`;
  readonly runtimeVersion: { specName: string; specVersion: number; [k: string]: unknown };
  /** The chain's type registry (its metadata), for encoding storage values and decoding call arguments. */
  readonly registry: TypeRegistryClass;
  /**
   * Answers the runtime call `name` (e.g. `DryRunApi_dry_run_call`) with what `answer` returns,
   * encoded with the output type the chain's metadata declares for it; `answer` gets the call's
   * SCALE-encoded arguments. A throw becomes an RPC error (-32000) carrying its message.
   * `undefined` removes the answer (the call fails again).
   */
  setRuntimeCall(name: string, answer: RuntimeAnswer | undefined): void;
  /** Sets (or with `null` removes) the raw storage value under a full storage key. */
  setStorage(key: string, value: `0x${string}` | null): void;
  /**
   * What `system_accountNextIndex` answers for `account` (as the client sends it, any case, or its
   * account id in hex, which answers for every address form of that account); `undefined` restores
   * the default, 0. The accounts asked so far are in `nextIndexAsked`.
   */
  setAccountNextIndex(account: string, nonce: number | undefined): void;
  readonly nextIndexAsked: readonly string[];
  /** Makes a new head block (see blocks.ts) and tells every head subscription about it. */
  produceBlock(spec?: BlockSpec): ProducedBlock;
  /**
   * Takes the extrinsics sent with `author_submitExtrinsic` and `author_submitAndWatchExtrinsic`:
   * `accept` gets the extrinsic (hex, with its length prefix, as blocks hold it) and its hash, and
   * throws to refuse it (the node answers error 1010 with its message). A watched extrinsic is told
   * `ready`, then `inBlock` and `finalized` when a produced block holds it. Without a taker (the
   * default) a submission fails as an unknown method.
   */
  onSubmit(accept: ((extrinsic: `0x${string}`, hash: `0x${string}`) => void) | undefined): void;
  /** The hash of block `n`, if the chain has it. */
  blockHash(n: number): string | null;
  /** The number of the head block. */
  head(): number;
  /** Subscriptions handed out and not cancelled (by unsubscribe or by the socket closing). */
  readonly openSubscriptions: number;
  /** Those of them notified with `method` (`chain_finalizedHead` for finalized heads). */
  openSubscriptionsOf(method: string): number;
  /** Every `state_getStorage` asked so far: its key and, when given, the block hash. */
  readonly storageReads: readonly { key: string; at?: string }[];
  /**
   * A runtime upgrade that changes only `spec_version`: from now on state_getRuntimeVersion and the
   * metadata (its System.Version constant, in every version served) say `specVersion`. Runtime
   * version subscribers are not told, so a connected ApiPromise keeps the version it read.
   */
  setSpecVersion(specVersion: number): void;
  /**
   * Closes the server: open sockets get a close frame (1001), whatever is still open after
   * 100 ms is terminated. Idempotent. Disconnect your clients first to keep logs quiet.
   */
  close(): Promise<void>;
}

/** A configured runtime call: gets the SCALE-encoded arguments, returns the value to encode. */
export type RuntimeAnswer = (args: Uint8Array, registry: TypeRegistryClass) => unknown;

export interface ChainNodeOptions {
  /** Accept WebSocket connections (counted) but never answer any RPC message. */
  silent?: boolean;
  /**
   * Off by default: runtime calls the chain cannot execute fail with -32000. When set,
   * `TransactionPaymentApi_query_info` (what `tx.paymentInfo()` uses) and the `payment_queryInfo`
   * RPC answer with this made-up partial fee (planck), which lets SDK routes that price their
   * transfer on the origin (e.g. DOT Polkadot -> Hydration through Asset Hub) build offline.
   */
  partialFee?: bigint;
  /** Answers every RPC message this many milliseconds late: a slow chain that still answers. */
  answerDelayMs?: number;
  /** The port to listen on (127.0.0.1); 0, the default, lets the system pick a free one. */
  port?: number;
  /**
   * Serve the metadata of a runtime from before `pallet-message-queue` (see older-queues.ts): its
   * blocks' events can then be those pallets' (`xcmpQueue.Success`, `dmpQueue.ExecutedDownward`,
   * `ump.ExecutedUpward`). The spec version says the release (1000000, 9420).
   */
  queues?: QueueEra;
}

export interface DecodedCall {
  section: string;
  method: string;
  args: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Chain data

interface ChainProperties {
  ss58Format: number;
  tokenDecimals: number;
  tokenSymbol: string;
}

interface RuntimeVersionJson {
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

interface ChainData {
  metadataHex: `0x${string}`;
  /** Metadata version of the served bytes (15 or 16). */
  metadataVersion: number;
  runtimeVersion: RuntimeVersionJson;
  rpcMethods: string[];
}

interface ChainStatic {
  systemChain: string;
  genesisHash: string;
  properties: ChainProperties;
}

// Real genesis hashes (same as @polkadot/networks), so that anything keyed on them behaves.
const CHAIN_STATIC: Record<SandboxChainName, ChainStatic> = {
  Polkadot: {
    systemChain: 'Polkadot',
    genesisHash: '0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3',
    properties: { ss58Format: 0, tokenDecimals: 10, tokenSymbol: 'DOT' },
  },
  AssetHubPolkadot: {
    systemChain: 'Polkadot Asset Hub',
    genesisHash: '0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f',
    properties: { ss58Format: 0, tokenDecimals: 10, tokenSymbol: 'DOT' },
  },
  Kusama: {
    systemChain: 'Kusama',
    genesisHash: '0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe',
    properties: { ss58Format: 2, tokenDecimals: 12, tokenSymbol: 'KSM' },
  },
  AssetHubKusama: {
    systemChain: 'Kusama Asset Hub',
    genesisHash: '0x48239ef607d7928874027a43a67689209727dfb3d3dc5e5b03a39bdc2eda771a',
    properties: { ss58Format: 2, tokenDecimals: 12, tokenSymbol: 'KSM' },
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
    properties: { ss58Format: 0, tokenDecimals: 10, tokenSymbol: 'DOT' },
  },
};

/** Raw metadata files (v16, `meta` magic) vendored under src/sandbox/metadata (see its README). */
const METADATA_FILE: Partial<Record<SandboxChainName, string>> = {
  Moonbeam: 'moonbeam.scale',
  BridgeHubPolkadot: 'bridge-hub-polkadot.scale',
};

/**
 * v16 fixtures also served as v15 (see metadata-versions.ts), as real nodes serve both. Moonbeam and
 * BridgeHubPolkadot stay v16-only: the chains without metadata v15 that tests need.
 */
const V15_PROJECTION: ReadonlySet<SandboxChainName> = new Set(['Hydration']);

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

function encodeCompact(n: number): Buffer {
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

function chainData(chain: SandboxChainName): ChainData {
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
function olderQueueData(chain: SandboxChainName, era: QueueEra): ChainData {
  const data = chainData(chain);
  const specVersion = QUEUE_ERA_SPEC[era];
  const raw = withSpecVersion(withOlderQueues(Buffer.from(data.metadataHex.slice(2), 'hex'), era), specVersion);
  return { ...data, metadataHex: `0x${Buffer.from(raw).toString('hex')}`, runtimeVersion: { ...data.runtimeVersion, specVersion } };
}

/**
 * The node's `rpc_methods` list without the new JSON-RPC spec families (`chainHead_v1_*`,
 * `archive_v1_*`, ...): polkadot.js does not decorate those and warns about each at startup.
 */
function legacyRpcMethods(methods: string[]): string[] {
  return methods.filter((m) => !/^[A-Za-z]+_v\d+_/.test(m));
}

// ---------------------------------------------------------------------------------------------
// Blocks: genesis (#0, the chain's real genesis hash) up to a fixed head, and those produced after
// it. Every block's hash is a node's: the blake2-256 of its SCALE-encoded header, so that a client
// that hashes a header it read (polkadot.js signing with a mortal era) names the same block.

const HEAD_NUMBER = 100;
const ZERO_HASH = `0x${'00'.repeat(32)}`;

interface Header {
  parentHash: string;
  number: string;
  stateRoot: string;
  extrinsicsRoot: string;
  digest: { logs: string[] };
}

class BlockTree {
  private readonly hashes: string[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly stateRoot: string;
  private readonly extrinsicsRoot: string;

  constructor(chain: SandboxChainName, genesisHash: string) {
    this.stateRoot = sha256Hex(`test-chain/${chain}/state-root`);
    this.extrinsicsRoot = sha256Hex(`test-chain/${chain}/extrinsics-root`);
    this.append(genesisHash);
    while (this.hashes.length <= HEAD_NUMBER) this.append(this.nextHash());
  }

  /** The hash of the block that comes next (parent, number, roots, an empty digest). */
  nextHash(): string {
    const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
    const bytes = (hex: string) => Buffer.from(hex.slice(2), 'hex');
    const header = Buffer.concat([bytes(this.head), encodeCompact(this.hashes.length), bytes(this.stateRoot), bytes(this.extrinsicsRoot), Buffer.from([0])]);
    return crypto.blake2AsHex(header, 256);
  }

  get head(): string {
    return this.hashes[this.hashes.length - 1] as string;
  }

  hashOf(n: number): string | null {
    return Number.isInteger(n) && n >= 0 && n < this.hashes.length ? (this.hashes[n] as string) : null;
  }

  /** A produced block (blocks.ts) becomes the new head; returns its number. */
  append(hash: string): number {
    this.hashes.push(hash);
    this.numbers.set(hash, this.hashes.length - 1);
    return this.hashes.length - 1;
  }

  header(hash: string): Header | null {
    const n = this.numbers.get(hash.toLowerCase());
    if (n === undefined) return null;
    return {
      parentHash: n === 0 ? ZERO_HASH : (this.hashes[n - 1] as string),
      number: `0x${n.toString(16)}`,
      stateRoot: this.stateRoot,
      extrinsicsRoot: this.extrinsicsRoot,
      digest: { logs: [] },
    };
  }
}

function sha256Hex(s: string): string {
  return `0x${createHash('sha256').update(s).digest('hex')}`;
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC

interface RpcRequest {
  jsonrpc?: string;
  id?: number | string | null;
  method?: unknown;
  params?: unknown;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Subscription {
  method: string; // notification method name
  result: unknown;
}

const SUBSCRIPTIONS: Record<string, { notify: string; unsubscribe: string[] }> = {
  state_subscribeRuntimeVersion: {
    notify: 'state_runtimeVersion',
    unsubscribe: ['state_unsubscribeRuntimeVersion', 'chain_unsubscribeRuntimeVersion'],
  },
  chain_subscribeRuntimeVersion: {
    notify: 'state_runtimeVersion',
    unsubscribe: ['state_unsubscribeRuntimeVersion', 'chain_unsubscribeRuntimeVersion'],
  },
  chain_subscribeNewHeads: { notify: 'chain_newHead', unsubscribe: ['chain_unsubscribeNewHeads', 'chain_unsubscribeNewHead'] },
  chain_subscribeNewHead: { notify: 'chain_newHead', unsubscribe: ['chain_unsubscribeNewHeads', 'chain_unsubscribeNewHead'] },
  chain_subscribeFinalizedHeads: {
    notify: 'chain_finalizedHead',
    unsubscribe: ['chain_unsubscribeFinalizedHeads', 'chain_unsubscribeFinalisedHeads'],
  },
  chain_subscribeFinalisedHeads: {
    notify: 'chain_finalizedHead',
    unsubscribe: ['chain_unsubscribeFinalizedHeads', 'chain_unsubscribeFinalisedHeads'],
  },
  chain_subscribeAllHeads: { notify: 'chain_allHead', unsubscribe: ['chain_unsubscribeAllHeads'] },
  state_subscribeStorage: { notify: 'state_storage', unsubscribe: ['state_unsubscribeStorage'] },
};

const UNSUBSCRIBE_METHODS = new Set([...Object.values(SUBSCRIPTIONS).flatMap((s) => s.unsubscribe), 'author_unwatchExtrinsic']);

/** The account id (hex) of an SS58 address or hex account id, if it is one. */
function accountIdOf(account: string): string | undefined {
  try {
    const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
    return `0x${Buffer.from(crypto.decodeAddress(account)).toString('hex')}`;
  } catch {
    return undefined;
  }
}

function params(p: unknown): unknown[] {
  return Array.isArray(p) ? p : [];
}

function hexU32(n: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b.toString('hex');
}

class Node {
  private readonly blocks: BlockTree;
  private readonly stat: ChainStatic;
  private nextSubscription = 1;
  private metadataRaw: Buffer;
  /** The v15 projection of v16 metadata (`V15_PROJECTION` chains), made when first asked for. */
  private metadataV15?: Buffer;
  /** The v14 projection, what `state_getMetadata` answers (made when first asked for). */
  private metadataV14?: Buffer;
  private runtimeVersion: RuntimeVersionJson;
  readonly runtimeAnswers = new Map<string, RuntimeAnswer>();
  readonly storage = new Map<string, `0x${string}`>();
  readonly nextIndex = new Map<string, number>();
  readonly nextIndexAsked: string[] = [];
  accept?: (extrinsic: `0x${string}`, hash: `0x${string}`) => void;
  /** Watched extrinsics (by hash) and the subscription that hears about them. */
  readonly watched = new Map<string, string>();
  /** Subscriptions told `inBlock`, to be told `finalized` with the next block. */
  readonly finalizing = new Map<string, string>();
  readonly produced: BlockProducer;
  readonly storageReads: { key: string; at?: string }[] = [];
  /** The new JSON-RPC spec (rpc-spec-v2.ts), answered from the legacy methods. */
  readonly specV2: SpecV2;

  constructor(
    private readonly chain: SandboxChainName,
    private readonly data: ChainData,
    private readonly partialFee: bigint | undefined,
  ) {
    this.stat = CHAIN_STATIC[chain];
    this.blocks = new BlockTree(chain, this.stat.genesisHash);
    this.produced = new BlockProducer(() => registryForChain(chain, data.metadataHex), this.blocks);
    this.metadataRaw = Buffer.from(data.metadataHex.slice(2), 'hex');
    this.runtimeVersion = data.runtimeVersion;
    this.storage.set(CODE_KEY, codeStandIn(this.runtimeVersion));
    this.specV2 = new SpecV2((method, p) => this.handle(method, p).result, chain);
  }

  /** Returns the result, or a subscription (id + first notification). Throws RpcError. */
  handle(method: string, p: unknown[]): { result: unknown; subscription?: Subscription } {
    const sub = Object.hasOwn(SUBSCRIPTIONS, method) ? SUBSCRIPTIONS[method] : undefined;
    if (sub) {
      const id = `${this.chain}-${this.nextSubscription++}`;
      return { result: id, subscription: { method: sub.notify, result: this.subscriptionPayload(method, p) } };
    }
    if (method === 'author_submitAndWatchExtrinsic') {
      const hash = this.submit(p[0]);
      const id = `${this.chain}-${this.nextSubscription++}`;
      this.watched.set(hash, id);
      return { result: id, subscription: { method: 'author_extrinsicUpdate', result: 'ready' } };
    }
    if (UNSUBSCRIBE_METHODS.has(method)) {
      this.produced.subscriptions.remove(p[0]);
      return { result: true };
    }
    return { result: this.call(method, p) };
  }

  private subscriptionPayload(method: string, p: unknown[]): unknown {
    switch (method) {
      case 'state_subscribeRuntimeVersion':
      case 'chain_subscribeRuntimeVersion':
        return this.runtimeVersion;
      case 'state_subscribeStorage':
        return this.storageChangeSet(p[0], this.blocks.head);
      default:
        return this.blocks.header(this.blocks.head);
    }
  }

  private storageChangeSet(keys: unknown, block: string): { block: string; changes: [string, string | null][] } {
    const list = Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
    return { block, changes: list.map((k) => [k, this.storageValue(k)]) };
  }

  private storageValue(key: unknown): `0x${string}` | null {
    return typeof key === 'string' ? (this.storage.get(key.toLowerCase()) ?? null) : null;
  }

  /** Keys under `prefix`, in order, after `start` (exclusive), at most `count`. */
  private storageKeys(prefix: unknown, count: number, start: unknown): string[] {
    const p = typeof prefix === 'string' ? prefix.toLowerCase() : '0x';
    const after = typeof start === 'string' ? start.toLowerCase() : '';
    return [...this.storage.keys()]
      .filter((k) => k.startsWith(p) && k > after)
      .sort()
      .slice(0, count);
  }

  blockHash(n: number): string | null {
    return this.blocks.hashOf(n);
  }

  headNumber(): number {
    return Number(this.blocks.header(this.blocks.head)?.number ?? 0);
  }

  private blockHashParam(v: unknown): string {
    return typeof v === 'string' && v.startsWith('0x') && v.length === 66 ? v : this.blocks.head;
  }

  private call(method: string, p: unknown[]): unknown {
    const d = this.data;
    switch (method) {
      case 'rpc_methods':
        return { version: 1, methods: [...d.rpcMethods, ...SPEC_V2_METHODS, ...(this.chain === 'Moonbeam' ? ETHEREUM_RPC_METHODS : [])] };
      case 'system_chain':
        return this.stat.systemChain;
      case 'system_name':
        return 'test-chain';
      case 'system_version':
        return '1.0.0-test-chain';
      case 'system_chainType':
        return 'Live';
      case 'system_properties':
        return this.stat.properties;
      case 'system_health':
        return { peers: 1, isSyncing: false, shouldHavePeers: true };
      case 'system_peers':
        return [];
      case 'payment_queryInfo': {
        if (this.partialFee === undefined) throw new RpcError(-32601, 'Method not found');
        const info = this.queryInfo();
        return { ...info, class: 'normal', partialFee: info.partialFee.toString() };
      }
      case 'system_accountNextIndex':
      case 'account_nextIndex': {
        const account = String(p[0]);
        this.nextIndexAsked.push(account);
        return this.nextIndex.get(account.toLowerCase()) ?? this.nextIndex.get(accountIdOf(account) ?? '') ?? 0;
      }
      case 'author_submitExtrinsic':
        return this.submit(p[0]);
      case 'chain_getBlockHash': {
        const n = p[0];
        if (n === undefined || n === null) return this.blocks.head;
        const num = typeof n === 'number' ? n : typeof n === 'string' ? Number(n) : NaN;
        return this.blocks.hashOf(num);
      }
      case 'chain_getHeader':
        return this.blocks.header(this.blockHashParam(p[0]));
      case 'chain_getFinalizedHead':
      case 'chain_getFinalisedHead':
        return this.blocks.head;
      case 'chain_getBlock': {
        const header = this.blocks.header(this.blockHashParam(p[0]));
        return header ? { block: { header, extrinsics: this.produced.extrinsicsOf(this.blockHashParam(p[0])) }, justifications: null } : null;
      }
      case 'state_getRuntimeVersion':
      case 'chain_getRuntimeVersion':
        return this.runtimeVersion;
      case 'state_getMetadata':
        // v14, as a real node answers; later versions through Metadata_metadata_at_version.
        return `0x${this.metadataAt(14)!.toString('hex')}`;
      case 'state_call':
        return this.stateCall(String(p[0]), typeof p[1] === 'string' ? p[1] : '0x');
      case 'state_getStorage':
      case 'state_getStorageAt':
        this.storageReads.push({ key: String(p[0]), ...(typeof p[1] === 'string' ? { at: p[1] } : {}) });
        return this.produced.storageAt(p[0], p[1]) ?? this.storageValue(p[0]);
      case 'state_getStorageHash':
      case 'state_getStorageHashAt': {
        const value = this.storageValue(p[0]);
        return value === null ? null : sha256Hex(value);
      }
      case 'state_getStorageSize':
      case 'state_getStorageSizeAt': {
        const value = this.storageValue(p[0]);
        return value === null ? null : (value.length - 2) / 2;
      }
      case 'state_queryStorageAt':
        return [this.storageChangeSet(p[0], this.blockHashParam(p[1]))];
      case 'state_queryStorage':
        return [];
      case 'state_getKeys':
        return this.storageKeys(p[0], Number.MAX_SAFE_INTEGER, undefined);
      case 'state_getKeysPaged':
      case 'state_getKeysPagedAt':
        return this.storageKeys(p[0], typeof p[1] === 'number' ? p[1] : 1000, p[2]);
      case 'state_getPairs':
        return this.storageKeys(p[0], Number.MAX_SAFE_INTEGER, undefined).map((k) => [k, this.storageValue(k)]);
      default:
        if (this.chain === 'Moonbeam' && ETHEREUM_RPC_METHODS.includes(method)) return this.ethereumRpc(method, p);
        throw new RpcError(-32601, 'Method not found');
    }
  }

  /** Hands a submitted extrinsic to the taker; its hash is the answer. */
  private submit(extrinsic: unknown): `0x${string}` {
    if (!this.accept) throw new RpcError(-32601, 'Method not found');
    if (typeof extrinsic !== 'string' || !/^0x([0-9a-f]{2})+$/i.test(extrinsic)) throw new RpcError(-32602, 'Invalid params: the extrinsic must be hex');
    const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
    const hex = extrinsic.toLowerCase() as `0x${string}`;
    const hash = crypto.blake2AsHex(Buffer.from(hex.slice(2), 'hex'), 256);
    try {
      this.accept(hex, hash);
    } catch (error) {
      throw new RpcError(1010, `Invalid Transaction: ${error instanceof Error ? error.message : String(error)}`);
    }
    return hash;
  }

  /**
   * A produced block: its watched extrinsics are in it, and final with the next block (as a node
   * finalizes a little later: a client that hears both at once may skip `inBlock`).
   */
  included(block: ProducedBlock, extrinsics: readonly string[]): void {
    for (const [id, hash] of this.finalizing) {
      this.produced.subscriptions.send(id, { finalized: hash });
      this.produced.subscriptions.remove(id);
    }
    this.finalizing.clear();
    if (this.watched.size === 0) return;
    const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
    for (const extrinsic of extrinsics) {
      const hash = crypto.blake2AsHex(Buffer.from(extrinsic.replace(/^0x/, ''), 'hex'), 256);
      const id = this.watched.get(hash);
      if (id === undefined) continue;
      this.watched.delete(hash);
      this.produced.subscriptions.send(id, { inBlock: block.hash });
      this.finalizing.set(id, block.hash);
    }
  }

  /** Moonbeam's Ethereum JSON-RPC (ethereum-rpc.ts). */
  private ethereumRpc(method: string, p: unknown[]): unknown {
    try {
      return answerEthereumRpc(method, p, this.headNumber());
    } catch (error) {
      if (error instanceof EthereumRpcError) throw new RpcError(error.code, error.message);
      throw error;
    }
  }

  private serves(version: number): boolean {
    return version === 14 || version === this.data.metadataVersion || (version === 15 && V15_PROJECTION.has(this.chain));
  }

  /** The metadata served as `version`, if it is served. */
  private metadataAt(version: number): Buffer | undefined {
    if (version === this.data.metadataVersion) return this.metadataRaw;
    if (!this.serves(version)) return undefined;
    if (version === 14) return (this.metadataV14 ??= Buffer.from(metadataV14Of(this.metadataRaw)));
    this.metadataV15 ??= Buffer.from(metadataV15Of(this.metadataRaw));
    return this.metadataV15;
  }

  setSpecVersion(specVersion: number): void {
    this.runtimeVersion = { ...this.runtimeVersion, specVersion };
    this.storage.set(CODE_KEY, codeStandIn(this.runtimeVersion));
    this.metadataRaw = Buffer.from(withSpecVersion(this.metadataRaw, specVersion));
    this.metadataV15 = undefined;
    this.metadataV14 = undefined;
  }

  private stateCall(fn: string, data: string): string {
    switch (fn) {
      case 'Metadata_metadata_versions': {
        // Vec<u32>: the version of the bytes we hold, and 14 (and 15) where projected from them.
        const versions = [...new Set([14, 15, this.data.metadataVersion])].filter((v) => this.serves(v));
        return `0x${encodeCompact(versions.length).toString('hex')}${versions.map(hexU32).join('')}`;
      }
      case 'Metadata_metadata_at_version': {
        const asked = Buffer.from(data.replace(/^0x/, ''), 'hex');
        const metadata = asked.length < 4 ? undefined : this.metadataAt(asked.readUInt32LE(0));
        if (!metadata) return '0x00'; // None
        // Option<OpaqueMetadata>: Some + compact length + bytes
        return `0x01${encodeCompact(metadata.length).toString('hex')}${metadata.toString('hex')}`;
      }
      case 'Metadata_metadata': {
        const v14 = this.metadataAt(14)!;
        return `0x${encodeCompact(v14.length).toString('hex')}${v14.toString('hex')}`;
      }
      case 'AccountNonceApi_account_nonce':
        return `0x${hexU32(0)}`;
    }
    const answer = this.runtimeAnswers.get(fn);
    if (answer) return this.encodeRuntimeAnswer(fn, answer, data);
    if (fn === 'TransactionPaymentApi_query_info' && this.partialFee !== undefined) return this.encodeQueryInfo();
    throw new RpcError(-32000, `Client error: test-chain cannot execute runtime call ${fn}`);
  }

  private queryInfo(): { weight: { refTime: number; proofSize: number }; class: string; partialFee: bigint } {
    return { weight: { refTime: 200_000_000, proofSize: 4_000 }, class: 'Normal', partialFee: this.partialFee ?? 0n };
  }

  /** RuntimeDispatchInfo encoded with the output type the metadata declares for query_info. */
  private encodeQueryInfo(): string {
    return this.encodeOutput('TransactionPaymentApi_query_info', this.queryInfo());
  }

  private encodeRuntimeAnswer(fn: string, answer: RuntimeAnswer, data: string): string {
    const registry = registryForChain(this.chain, this.data.metadataHex);
    let value: unknown;
    try {
      value = answer(Buffer.from(data.replace(/^0x/, ''), 'hex'), registry);
    } catch (error) {
      throw new RpcError(-32000, `Client error: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.encodeOutput(fn, value);
  }

  /** `value` encoded with the output type the metadata declares for runtime call `fn` (`Api_method`). */
  private encodeOutput(fn: string, value: unknown): string {
    const registry = registryForChain(this.chain, this.data.metadataHex);
    const split = fn.indexOf('_');
    const apiName = fn.slice(0, split);
    const methodName = fn.slice(split + 1);
    const api = registry.metadata.apis.find((a) => a.name.eq(apiName));
    const method = api?.methods.find((m) => m.name.eq(methodName));
    if (!method) throw new RpcError(-32000, `Client error: no runtime call ${fn} in metadata`);
    // toU8a, not toHex: an Option's toHex() leaves out its Some byte.
    const encoded = registry.createType(registry.createLookupType(method.output), value).toU8a();
    return `0x${Buffer.from(encoded).toString('hex')}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Servers

const CLOSE_GRACE_MS = 100;

function listen(server: net.Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
  });
}

export async function startChainNode(chain: SandboxChainName, options: ChainNodeOptions = {}): Promise<ChainNode> {
  if (!Object.hasOwn(CHAIN_STATIC, chain)) throw new Error(`sandbox: unknown chain ${String(chain)}`);
  const data = options.queues ? olderQueueData(chain, options.queues) : chainData(chain);
  const node = new Node(chain, data, options.partialFee);
  const silent = options.silent === true;

  const server = http.createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' });
    res.end('sandbox: WebSocket only');
  });
  const wss = new WebSocketServer({ server });
  const sockets = new Set<WebSocket>();
  let opened = 0;
  let closed = false;

  wss.on('connection', (ws) => {
    opened++;
    sockets.add(ws);
    ws.on('close', () => {
      sockets.delete(ws);
      node.produced.subscriptions.dropOwner(ws);
      node.specV2.dropOwner(ws);
    });
    ws.on('error', () => undefined);
    if (silent) return;
    ws.on('message', (raw) => {
      const text = Array.isArray(raw) ? Buffer.concat(raw).toString('utf8') : Buffer.from(raw as ArrayBuffer).toString('utf8');
      if (options.answerDelayMs) setTimeout(() => answer(ws, node, text), options.answerDelayMs);
      else answer(ws, node, text);
    });
  });

  const port = await listen(server, options.port);
  const url = `ws://127.0.0.1:${port}`;

  return {
    chain,
    url,
    port,
    get connectionsOpened() {
      return opened;
    },
    get openConnections() {
      return sockets.size;
    },
    metadataHex: data.metadataHex,
    runtimeVersion: { ...data.runtimeVersion },
    get registry() {
      return registryForChain(chain, data.metadataHex);
    },
    setRuntimeCall(name, answer) {
      if (answer) node.runtimeAnswers.set(name, answer);
      else node.runtimeAnswers.delete(name);
    },
    setStorage(key, value) {
      if (value === null) node.storage.delete(key.toLowerCase());
      else node.storage.set(key.toLowerCase(), value);
    },
    setAccountNextIndex(account, nonce) {
      if (nonce === undefined) node.nextIndex.delete(account.toLowerCase());
      else node.nextIndex.set(account.toLowerCase(), nonce);
    },
    get nextIndexAsked() {
      return [...node.nextIndexAsked];
    },
    produceBlock(spec) {
      const block = node.produced.produce(spec);
      node.included(block, spec?.extrinsics ?? []);
      node.specV2.newBlock(block.hash);
      return block;
    },
    onSubmit(accept) {
      node.accept = accept;
    },
    blockHash: (n) => node.blockHash(n),
    head: () => node.headNumber(),
    get openSubscriptions() {
      return node.produced.subscriptions.count() + node.specV2.follows;
    },
    openSubscriptionsOf: (method) => node.produced.subscriptions.count(method),
    get storageReads() {
      return [...node.storageReads];
    },
    setSpecVersion(specVersion) {
      node.setSpecVersion(specVersion);
    },
    async close() {
      if (closed) return;
      closed = true;
      const closing = new Promise<void>((resolve) => wss.close(() => resolve()));
      // A clean close frame first (clients that are already leaving finish quietly), then
      // terminate whatever is still open after a short grace period.
      if (sockets.size > 0) {
        for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.close(1001, 'test-chain closing');
        const deadline = Date.now() + CLOSE_GRACE_MS;
        while (sockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        for (const ws of sockets) ws.terminate();
        sockets.clear();
      }
      await closing;
      server.closeAllConnections();
      await closeServer(server);
    },
  };
}

function send(ws: WebSocket, message: unknown): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function answer(ws: WebSocket, node: Node, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    send(ws, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    return;
  }
  const requests = Array.isArray(parsed) ? parsed : [parsed];
  const responses: unknown[] = [];
  const notifications: unknown[] = [];
  for (const req of requests as RpcRequest[]) {
    const id = req && typeof req === 'object' ? (req.id ?? null) : null;
    if (!req || typeof req !== 'object' || typeof req.method !== 'string') {
      responses.push({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } });
      continue;
    }
    if (SpecV2.serves(req.method)) {
      responses.push({ jsonrpc: '2.0', id, ...node.specV2.handle(req.method, params(req.params), ws, (message) => send(ws, message)) });
      continue;
    }
    try {
      const { result, subscription } = node.handle(req.method, params(req.params));
      responses.push({ jsonrpc: '2.0', id, result });
      if (subscription) {
        node.produced.subscriptions.add(String(result), subscription.method, ws, (payload) =>
          send(ws, { jsonrpc: '2.0', method: subscription.method, params: { subscription: result, result: payload } }),
        );
        notifications.push({
          jsonrpc: '2.0',
          method: subscription.method,
          params: { subscription: result, result: subscription.result },
        });
      }
    } catch (e) {
      const error = e instanceof RpcError ? { code: e.code, message: e.message } : { code: -32603, message: String(e) };
      responses.push({ jsonrpc: '2.0', id, error });
    }
  }
  send(ws, Array.isArray(parsed) ? responses : responses[0]);
  // First notification after the subscription id has been sent (order is kept on one socket).
  for (const n of notifications) send(ws, n);
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** By the metadata served (a chain may serve a variant of its own). */
const registries = new Map<string, TypeRegistryClass>();

/** A TypeRegistry with the chain's metadata and properties (built once per chain, ~0.2 s). */
function registryForChain(chain: SandboxChainName, metadataHex: `0x${string}` = chainData(chain).metadataHex): TypeRegistryClass {
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
 * decimal string where both name the same integer.
 */
function withDecimalBigInts(json: unknown, prim: unknown): unknown {
  if (typeof json === 'string' && /^0x[0-9a-f]+$/i.test(json) && typeof prim === 'string' && /^\d+$/.test(prim)) {
    return BigInt(json) === BigInt(prim) ? prim : json;
  }
  if (Array.isArray(json)) {
    return json.map((v, i) => withDecimalBigInts(v, Array.isArray(prim) ? prim[i] : undefined));
  }
  if (json !== null && typeof json === 'object') {
    const p = prim !== null && typeof prim === 'object' ? (prim as Record<string, unknown>) : {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(json)) out[k] = withDecimalBigInts(v, p[k]);
    return out;
  }
  return json;
}

/**
 * Decodes call data (`tx.method.toHex()`, what the service answers) with the chain's metadata,
 * the way a polkadot.js wallet does (`api.createType('Call', hex)`); throws unless the bytes are
 * exactly one call (an extrinsic, with its length and version prefix, is refused). `section`/`method` are camelCase as polkadot.js names them (`xcmPallet`,
 * `limitedTeleportAssets`). `args` are keyed like `call.toHuman().args`, i.e. by the metadata's
 * argument names (`dest`, `beneficiary`, `assets`, `fee_asset_item`, `weight_limit`), and hold
 * `toJSON()` values: enums as `{ variant: value }` with camelCase variant names, e.g.
 * `{ v5: { parents: 0, interior: { x1: [{ parachain: 1000 }] } } }`, `{ accountId32: { network: null,
 * id: '0x…' } }`, `{ fungible: 10000000000 }`; integers are numbers up to 2^53 and decimal strings
 * above (not toJSON's hex); byte arrays and account ids in XCM junctions are hex.
 */
export async function decodeCall(chain: ChainNode, hex: string): Promise<DecodedCall> {
  const registry = registryForChain(chain.chain, chain.metadataHex);
  const { hexToU8a, u8aEq } = load('@polkadot/util') as typeof import('@polkadot/util');
  const u8a = hexToU8a(hex);
  const call = registry.createType<Call>('Call', u8a);
  if (!u8aEq(call.toU8a(), u8a)) throw new Error(`sandbox: ${hex.slice(0, 18)}... is not exactly one ${chain.chain} call`);
  const args: Record<string, unknown> = {};
  for (const [name, value] of call.argsEntries) args[name] = withDecimalBigInts(value.toJSON(), value.toPrimitive());
  return Promise.resolve({ section: call.section, method: call.method, args });
}
