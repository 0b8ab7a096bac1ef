// An emulated Substrate node (the sandbox's, and the test suite's): a JSON-RPC 2.0 WebSocket
// server on 127.0.0.1 (rpc-server.ts, node.ts) that serves REAL metadata and runtime versions
// (chain-data.ts) over EMPTY storage.
// That is enough for `ApiPromise` to become ready and for the ParaSpell SDK's `build()`;
// nothing here executes a runtime: a runtime call answers only what its owner configured with
// `setRuntimeCall` (encoded with the chain's own metadata types), others fail with -32000; storage
// holds what its owner put there with `setStorage` (absent values read as zero balances); fees
// answer only with the opt-in `partialFee`; submitted extrinsics go to the taker set with
// `onSubmit` (the sandbox's transaction pool, network.ts), and to none by default.
//
// Loading rule: every @polkadot/* module is loaded through `require` (the same CommonJS copy
// that src/sdk/load.ts loads), never through an ESM import.
import type { TypeRegistry as TypeRegistryClass } from '@polkadot/types';
import type { BlockSpec, ProducedBlock } from './blocks';
import { CHAIN_STATIC, chainData, olderQueueData, registryForChain, type SandboxChainName } from './chain-data';
import { Node } from './node';
import type { QueueEra } from './older-queues';
import { serveRpc } from './rpc-server';
import type { MetadataVersion, RuntimeAnswer } from './runtime-calls';

export { HYDRATION_DESCRIPTORS, SANDBOX_CHAINS, type SandboxChainName } from './chain-data';
export { decodeCall, type DecodedCall } from './decode-call';
export type { RuntimeAnswer } from './runtime-calls';

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
  /** Sets (or with `null` removes) the raw storage value under a full storage key: the head's state, and each later block's until changed (earlier blocks keep theirs). */
  setStorage(key: string, value: `0x${string}` | null): void;
  /** What was set so far is the genesis state: a read at block 0 answers it. */
  sealGenesis(): void;
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
  /** JSON-RPC requests with `method` received so far (every connection). */
  asked(method: string): number;
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
  /**
   * For tests of a chain that serves fewer metadata versions than the default 14, 15 and 16 (a
   * real node of an older runtime may, e.g. none of v15); v14 is always among them.
   */
  metadataVersions?: readonly MetadataVersion[];
}

export async function startChainNode(chain: SandboxChainName, options: ChainNodeOptions = {}): Promise<ChainNode> {
  if (!Object.hasOwn(CHAIN_STATIC, chain)) throw new Error(`sandbox: unknown chain ${String(chain)}`);
  const data = options.queues ? olderQueueData(chain, options.queues) : chainData(chain);
  const node = new Node(chain, data, options.partialFee, options.metadataVersions);
  const server = await serveRpc(node, options);
  const url = `ws://127.0.0.1:${server.port}`;
  const port = server.port;

  return {
    chain,
    url,
    port,
    get connectionsOpened() {
      return server.connectionsOpened;
    },
    get openConnections() {
      return server.openConnections;
    },
    metadataHex: data.metadataHex,
    runtimeVersion: { ...data.runtimeVersion },
    get registry() {
      return registryForChain(chain, data.metadataHex);
    },
    setRuntimeCall(name, answer) {
      if (answer) node.runtime.answers.set(name, answer);
      else node.runtime.answers.delete(name);
    },
    setStorage(key, value) {
      node.setStorage(key, value);
    },
    sealGenesis() {
      node.sealBlock(0);
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
      node.sealBlock(block.number);
      // Storage subscribers first: a client told `inBlock` reads the state after it.
      node.notifyStorage();
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
      return node.produced.subscriptions.count() + node.specV2.subscriptions;
    },
    openSubscriptionsOf: (method) => node.produced.subscriptions.count(method),
    get storageReads() {
      return [...node.storageReads];
    },
    asked: (method) => node.asked.get(method) ?? 0,
    setSpecVersion(specVersion) {
      node.setSpecVersion(specVersion);
    },
    close: () => server.close(),
  };
}
