// One emulated node's answers to the legacy JSON-RPC methods (`chain_*`, `state_*`, `system_*`,
// `author_*`, `payment_*`) and their subscriptions: its blocks (block-tree.ts, blocks.ts), the raw
// storage its owner set, the runtime calls (runtime-calls.ts) and the transaction pool's taker.
// rpc-server.ts carries the messages; this file decides the answers.
import { answerEthereumRpc, ETHEREUM_RPC_METHODS, EthereumRpcError } from './ethereum-rpc';
import { CODE_KEY, codeStandIn, SPEC_V2_METHODS, SpecV2 } from './rpc-spec-v2';
import { createRequire } from 'node:module';
import { BlockTree, sha256Hex } from './block-tree';
import { BlockProducer, type ProducedBlock } from './blocks';
import { CHAIN_STATIC, registryForChain, type ChainData, type ChainStatic, type SandboxChainName } from './chain-data';
import { RpcError } from './rpc-error';
import { RuntimeCalls, type MetadataVersion } from './runtime-calls';
import { evmStorageKey } from './storage-keys';

const load = createRequire(__filename);

export interface Subscription {
  method: string; // notification method name
  result: unknown;
  /** A storage subscription's keys and the values its first notification carries. */
  watched?: Map<string, string | null>;
}

// Each subscription's aliases (Finalized/Finalised, NewHead/NewHeads, state_/chain_) share one entry.
const RUNTIME_VERSION = { notify: 'state_runtimeVersion', unsubscribe: ['state_unsubscribeRuntimeVersion', 'chain_unsubscribeRuntimeVersion'] };
const NEW_HEADS = { notify: 'chain_newHead', unsubscribe: ['chain_unsubscribeNewHeads', 'chain_unsubscribeNewHead'] };
const FINALIZED_HEADS = { notify: 'chain_finalizedHead', unsubscribe: ['chain_unsubscribeFinalizedHeads', 'chain_unsubscribeFinalisedHeads'] };
const SUBSCRIPTIONS: Record<string, { notify: string; unsubscribe: string[] }> = {
  state_subscribeRuntimeVersion: RUNTIME_VERSION,
  chain_subscribeRuntimeVersion: RUNTIME_VERSION,
  chain_subscribeNewHeads: NEW_HEADS,
  chain_subscribeNewHead: NEW_HEADS,
  chain_subscribeFinalizedHeads: FINALIZED_HEADS,
  chain_subscribeFinalisedHeads: FINALIZED_HEADS,
  chain_subscribeAllHeads: { notify: 'chain_allHead', unsubscribe: ['chain_unsubscribeAllHeads'] },
  state_subscribeStorage: { notify: 'state_storage', unsubscribe: ['state_unsubscribeStorage'] },
};

interface ChangeSet {
  block: string;
  changes: [string, string | null][];
}

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

export class Node {
  private readonly blocks: BlockTree;
  private readonly stat: ChainStatic;
  private nextSubscription = 1;
  readonly runtime: RuntimeCalls;
  readonly storage = new Map<string, `0x${string}`>();
  readonly nextIndex = new Map<string, number>();
  readonly nextIndexAsked: string[] = [];
  accept?: (extrinsic: `0x${string}`, hash: `0x${string}`) => void;
  /** Watched extrinsics (by hash) and the subscription that hears about them. */
  readonly watched = new Map<string, string>();
  /** Subscriptions told `inBlock`, to be told `finalized` two blocks later. */
  readonly finalizing = new Map<string, { hash: string; blocksLeft: number }>();
  readonly produced: BlockProducer;
  readonly storageReads: { key: string; at?: string }[] = [];
  /** JSON-RPC requests received so far, by method. */
  readonly asked = new Map<string, number>();
  /** The new JSON-RPC spec (rpc-spec-v2.ts), answered from the legacy methods. */
  readonly specV2: SpecV2;
  /** Each changed key's values by the block they took effect in (the first entry: before any block here). */
  private readonly history = new Map<string, { block: number; value: `0x${string}` | null }[]>();
  /** Keys changed since the last block, with the value they had before. */
  private readonly changed = new Map<string, `0x${string}` | null>();

  constructor(
    private readonly chain: SandboxChainName,
    private readonly data: ChainData,
    partialFee: bigint | undefined,
    metadataVersions?: readonly MetadataVersion[],
  ) {
    this.stat = CHAIN_STATIC[chain];
    this.blocks = new BlockTree(chain, this.stat.genesisHash);
    this.produced = new BlockProducer(() => registryForChain(chain, data.metadataHex), this.blocks);
    // The runtime API and system_accountNextIndex read the same table (what the pool moves on).
    this.runtime = new RuntimeCalls(chain, data, partialFee, (accountId) => this.nextIndex.get(accountId) ?? 0, metadataVersions);
    this.storage.set(CODE_KEY, codeStandIn(this.runtime.runtimeVersion));
    this.specV2 = new SpecV2((method, p) => this.handle(method, p).result, chain);
  }

  /** A runtime upgrade: the version, its metadata, and the `:code` stand-in that names them. */
  setSpecVersion(specVersion: number): void {
    this.runtime.setSpecVersion(specVersion);
    this.storage.set(CODE_KEY, codeStandIn(this.runtime.runtimeVersion));
  }

  /** Returns the result, or a subscription (id + first notification). Throws RpcError. */
  handle(method: string, p: unknown[]): { result: unknown; subscription?: Subscription } {
    const sub = Object.hasOwn(SUBSCRIPTIONS, method) ? SUBSCRIPTIONS[method] : undefined;
    if (sub) {
      const id = `${this.chain}-${this.nextSubscription++}`;
      const result = this.subscriptionPayload(method, p);
      const watched = method === 'state_subscribeStorage' ? new Map((result as ChangeSet).changes) : undefined;
      return { result: id, subscription: { method: sub.notify, result, ...(watched ? { watched } : {}) } };
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
        return this.runtime.runtimeVersion;
      case 'state_subscribeStorage':
        return this.storageChangeSet(p[0], this.blocks.head);
      default:
        return this.blocks.header(this.blocks.head);
    }
  }

  private storageChangeSet(keys: unknown, block: string): ChangeSet {
    const list = Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
    return { block, changes: list.map((k) => [k, this.valueAt(k, block)]) };
  }

  /** A value at a block, those a block carries (its events, its timestamp) included. */
  private valueAt(key: string, block: string): `0x${string}` | null {
    return this.produced.storageAt(key, block) ?? this.storageAtBlock(key, block);
  }

  /** Storage subscribers hear what changed in the head's state (a block, or a transaction the pool took). */
  notifyStorage(): void {
    this.produced.subscriptions.notifyStorage(this.blocks.head, (key) => this.valueAt(key, this.blocks.head));
  }

  /** Sets (or with null removes) a value of the head's state; the next block holds it. */
  setStorage(key: string, value: `0x${string}` | null): void {
    const k = key.toLowerCase();
    if (!this.changed.has(k)) this.changed.set(k, this.storage.get(k) ?? null);
    if (value === null) this.storage.delete(k);
    else this.storage.set(k, value);
  }

  /** Block `n` was made: what changed since the last one is the state at it. */
  sealBlock(n: number): void {
    for (const [k, before] of this.changed) {
      const list = this.history.get(k) ?? [{ block: -1, value: before }];
      list.push({ block: n, value: this.storage.get(k) ?? null });
      this.history.set(k, list);
    }
    this.changed.clear();
  }

  /** A value at block `at` (the head's state when `at` is the head or absent). */
  private storageAtBlock(key: unknown, at: unknown): `0x${string}` | null {
    if (typeof key !== 'string' || typeof at !== 'string' || at.toLowerCase() === this.blocks.head) return this.storageValue(key);
    const header = this.blocks.header(at);
    const list = this.history.get(key.toLowerCase());
    if (!header || !list) return this.storageValue(key);
    const n = Number(header.number);
    return list.filter((entry) => entry.block <= n).at(-1)?.value ?? null;
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
        if (this.runtime.partialFee === undefined) throw new RpcError(-32601, 'Method not found');
        const info = this.runtime.queryInfo();
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
        return this.runtime.runtimeVersion;
      case 'state_getMetadata':
        // v14, as a real node answers; later versions through Metadata_metadata_at_version.
        return `0x${this.runtime.metadataAt(14)!.toString('hex')}`;
      case 'state_call':
        return this.runtime.call(String(p[0]), typeof p[1] === 'string' ? p[1] : '0x');
      case 'state_getStorage':
      case 'state_getStorageAt':
        this.storageReads.push({ key: String(p[0]), ...(typeof p[1] === 'string' ? { at: p[1] } : {}) });
        return this.produced.storageAt(p[0], p[1]) ?? this.storageAtBlock(p[0], p[1]);
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

  /** Moonbeam's Ethereum JSON-RPC (ethereum-rpc.ts). */
  private ethereumRpc(method: string, p: unknown[]): unknown {
    try {
      const registry = registryForChain(this.chain, this.data.metadataHex);
      return answerEthereumRpc(method, p, this.headNumber(), (contract, slot) => this.storageValue(evmStorageKey(registry, contract, slot)));
    } catch (error) {
      if (error instanceof EthereumRpcError) throw new RpcError(error.code, error.message);
      throw error;
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
    this.notifyStorage();
    return hash;
  }

  /**
   * A produced block: its watched extrinsics are in it, and final two blocks later (as a node
   * finalizes a little later, time for a client to read the block it heard `inBlock` about).
   */
  included(block: ProducedBlock, extrinsics: readonly string[]): void {
    for (const [id, pending] of this.finalizing) {
      if (--pending.blocksLeft > 0) continue;
      this.produced.subscriptions.send(id, { finalized: pending.hash });
      this.produced.subscriptions.remove(id);
      this.finalizing.delete(id);
    }
    if (this.watched.size === 0) return;
    const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
    for (const extrinsic of extrinsics) {
      const hash = crypto.blake2AsHex(Buffer.from(extrinsic.replace(/^0x/, ''), 'hex'), 256);
      const id = this.watched.get(hash);
      if (id === undefined) continue;
      this.watched.delete(hash);
      this.produced.subscriptions.send(id, { inBlock: block.hash });
      this.finalizing.set(id, { hash: block.hash, blocksLeft: 2 });
    }
  }

}
