// Patch: a runtime decoded from a node's answers, owned by no connection, for connections to share
// (shared-runtime.ts `apiOnSharedRuntime`) whose nodes gave the very same answers.
//
// Corrects: polkadot.js decodes a node's metadata inside the ApiPromise of that connection (one
// synchronous piece, 200-250 ms of CPU for Asset Hub's), so a client whose connection closed when
// idle, or another client naming a node of the same runtime, pays that decode again. Here the
// answers polkadot.js reads while it connects are asked first, the way it asks them (@polkadot/api
// 16.5.6 base/Init.js `_metaFromChain`, `_retrieveMetadata`); an ApiPromise then decodes them
// over a provider that replays them (connected to no node): two nodes that gave the same answers
// (bytes, not versions) get the same runtime, so no node can make another client's reads decode
// with a runtime it described. The replaying api never changes its runtime: its provider tells it
// of no runtime upgrade, and the apis made from it do not follow upgrades (shared-runtime.ts).
// The provider answers each call a turn later (the caller's `turn`), and the api takes turns
// between the pieces of the decode (decode-in-turns.ts): other work runs between them.
//
// Still needed? It repeats polkadot.js's connect-time calls: on an @polkadot/api upgrade, compare
// base/Init.js `_metaFromChain` and `_retrieveMetadata` with `askRuntime` and `askMetadata` (a
// call they miss is forwarded to the node and the decode is not shared: `exact` is false).
//
// Guarded by: test/chains/shared-runtimes.test.ts ("with no registry connection, a client's nodes
// that give the same answers share one decode ...") and test/http/runtime-reuse.test.ts.
import type { ApiPromise } from '@polkadot/api';
import type { ProviderInterface, ProviderInterfaceCallback, ProviderInterfaceEmitCb, ProviderInterfaceEmitted, ProviderStats } from '@polkadot/rpc-provider/types';
import { EventEmitter } from 'node:events';
import { polkadotApi } from '../load';
import { decodeInTurns } from './decode-in-turns';
import type { RuntimeVersionKey } from './shared-runtime';

type Send = (method: string, params: unknown[]) => Promise<unknown>;

/** A node's answer to one call, or the error it answered with. */
type Answer = { result: unknown } | { error: string };

const callKey = (method: string, params: unknown[]): string => JSON.stringify([method, params]);

/** The runtime API that serves the metadata (blake2_64 of "Metadata"), as polkadot.js finds it. */
const METADATA_API = '0x37e397fc7c91f5e4';
/** The metadata versions polkadot.js 16.5.6 decodes, its preference last. */
const SUPPORTED_METADATA_VERSIONS = [14, 15, 16];

/** The answers a node gave, by call: everything polkadot.js decodes a runtime from. */
export class NodeAnswers {
  readonly #send: Send;
  readonly #answers = new Map<string, Answer>();

  constructor(send: Send) {
    this.#send = send;
  }

  /** Asks the node, and keeps its answer (or error). */
  async ask(method: string, params: unknown[]): Promise<unknown> {
    const key = callKey(method, params);
    try {
      const result = await this.#send(method, params);
      this.#answers.set(key, { result });
      return result;
    } catch (error) {
      this.#answers.set(key, { error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  answer(method: string, params: unknown[]): Answer | undefined {
    return this.#answers.get(callKey(method, params));
  }

  /** Every answer, in one canonical string: what a cache of decoded runtimes keys on. */
  transcript(): string {
    return JSON.stringify([...this.#answers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** The runtime a node runs and the runtime APIs it offers, asked as polkadot.js asks first; undefined when its answers are of another shape. */
export async function askRuntime(answers: NodeAnswers): Promise<(RuntimeVersionKey & { apis: unknown }) | undefined> {
  const [genesisHash, version] = await Promise.all([
    answers.ask('chain_getBlockHash', [0]),
    answers.ask('state_getRuntimeVersion', []),
    answers.ask('system_chain', []),
    answers.ask('system_properties', []),
    answers.ask('rpc_methods', []),
  ]);
  const { specName, specVersion, apis } = (version ?? {}) as { specName?: unknown; specVersion?: unknown; apis?: unknown };
  if (typeof genesisHash !== 'string' || typeof specName !== 'string' || typeof specVersion !== 'number') return undefined;
  return { genesisHash, specName, specVersion, apis };
}

/** A SCALE `Vec<u32>` (hex), or undefined when it is not one. */
function u32List(hex: unknown): number[] | undefined {
  if (typeof hex !== 'string' || !/^0x([0-9a-f]{2})*$/i.test(hex)) return undefined;
  const bytes = Buffer.from(hex.slice(2), 'hex');
  if (bytes.length === 0) return undefined;
  const mode = bytes[0]! & 3;
  if (mode > 1) return undefined;
  const [length, at] = mode === 0 ? [bytes[0]! >> 2, 1] : [bytes.length >= 2 ? bytes.readUInt16LE(0) >> 2 : -1, 2];
  if (length < 0 || bytes.length !== at + 4 * length) return undefined;
  return Array.from({ length }, (_, i) => bytes.readUInt32LE(at + 4 * i));
}

/**
 * Asks the node for its metadata as polkadot.js would: the newest version both sides know through
 * the Metadata runtime API, else `state_getMetadata`. What fails is kept as answered (polkadot.js
 * then gets the same failure and falls back as it would).
 */
export async function askMetadata(answers: NodeAnswers, apis: unknown): Promise<void> {
  const api = Array.isArray(apis) ? apis.find((entry: unknown) => Array.isArray(entry) && entry[0] === METADATA_API) : undefined;
  const apiVersion = Array.isArray(api) && typeof api[1] === 'number' ? api[1] : 0;
  if (apiVersion >= 2) {
    const offered = u32List(await answers.ask('state_call', ['Metadata_metadata_versions', '0x']).catch(() => undefined));
    const version = offered?.filter((v) => SUPPORTED_METADATA_VERSIONS.includes(v)).reduce((a, b) => Math.max(a, b), 0);
    if (version) {
      const arg = Buffer.alloc(4);
      arg.writeUInt32LE(version);
      const bytes = await answers.ask('state_call', ['Metadata_metadata_at_version', `0x${arg.toString('hex')}`]).catch(() => undefined);
      // `None` (0x00) or bytes polkadot.js cannot read: it falls back to state_getMetadata, asked here too.
      if (typeof bytes === 'string' && bytes.length > 4 && !bytes.startsWith('0x00')) return;
    }
  }
  await answers.ask('state_getMetadata', []).catch(() => undefined);
}

const NO_STATS: ProviderStats = {
  active: { requests: 0, subscriptions: 0 },
  total: { bytesRecv: 0, bytesSent: 0, cached: 0, errors: 0, requests: 0, subscriptions: 0, timeout: 0 },
};

/**
 * A provider that answers from a node's answers, each a `turn` after it is asked, and tells of
 * nothing (subscriptions are accepted, never notified: no runtime upgrade reaches the api). A call
 * the answers lack is forwarded to the node while the api connects (`missed` then), refused after.
 * Connected once `open` is called: the api loads its metadata then.
 */
class ReplayProvider implements ProviderInterface {
  readonly hasSubscriptions = true;
  readonly isClonable = false;
  readonly stats = NO_STATS;
  isConnected = false;
  missed = false;
  #answers: NodeAnswers | undefined;
  readonly #forward: Send;
  readonly #turn: () => Promise<void>;
  readonly #events = new EventEmitter();
  #subscriptions = 0;

  constructor(answers: NodeAnswers, forward: Send, turn: () => Promise<void>) {
    this.#answers = answers;
    this.#forward = forward;
    this.#turn = turn;
  }

  open(): void {
    this.isConnected = true;
    this.#events.emit('connected');
  }

  /** Lets go of the answers and the node: from now on the provider answers nothing. */
  detach(): void {
    this.#answers = undefined;
  }

  clone(): ProviderInterface {
    throw new Error('a replayed runtime is not cloned through its provider');
  }

  async connect(): Promise<void> {}

  async disconnect(): Promise<void> {
    if (!this.isConnected) return;
    this.isConnected = false;
    this.#events.emit('disconnected');
  }

  on(type: ProviderInterfaceEmitted, sub: ProviderInterfaceEmitCb): () => void {
    this.#events.on(type, sub);
    return () => this.#events.off(type, sub);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the interface's own signature
  async send<T = any>(method: string, params: unknown[]): Promise<T> {
    await this.#turn();
    // Checked after the turn: the answers may have been let go meanwhile.
    if (!this.#answers) throw new Error(`${method}: this runtime was decoded from a node's answers and is connected to no node`);
    const answer = this.#answers.answer(method, params);
    if (answer && 'error' in answer) throw new Error(answer.error);
    if (answer) return answer.result as T;
    this.missed = true;
    return (await this.#forward(method, params)) as T;
  }

  async subscribe(_type: string, _method: string, _params: unknown[], _cb: ProviderInterfaceCallback): Promise<number> {
    return ++this.#subscriptions;
  }

  async unsubscribe(): Promise<boolean> {
    return true;
  }
}

interface Internals {
  _unsubscribeHealth(): void;
}

/**
 * An api decoded from `answers` (askRuntime, askMetadata), over no node: a source for
 * `apiOnSharedRuntime`. `exact`: polkadot.js read nothing but `answers` (else it asked `forward`,
 * and the runtime may hold answers the transcript does not: not to be shared). Disconnect it when
 * done with it; what was made from it keeps working. `turn` resolves in a later turn of the event
 * loop: the decode goes on in pieces, one a turn.
 */
export async function decodeRuntime(answers: NodeAnswers, forward: Send, turn: () => Promise<void>): Promise<{ api: ApiPromise; exact: boolean }> {
  const provider = new ReplayProvider(answers, forward, turn);
  const api = new polkadotApi.ApiPromise({ provider, noInitWarn: true });
  decodeInTurns(api, turn);
  provider.open();
  try {
    await api.isReadyOrError;
  } catch (error) {
    await api.disconnect().catch(() => undefined);
    throw error;
  } finally {
    provider.detach();
  }
  // The keep-alive polkadot.js starts on a provider with subscriptions: this one has no node to keep.
  (api as unknown as Internals)._unsubscribeHealth();
  return { api, exact: !provider.missed };
}
