// The new JSON-RPC spec (https://paritytech.github.io/json-rpc-interface-spec/), served by the
// emulated node beside the legacy methods, as real nodes serve both: `chainHead_v1_*` (a follow
// subscription and its events: initialized, newBlock, bestBlockChanged, finalized, and the
// operations header, body, storage, call, unpin, stopOperation), `transaction_v1_broadcast` and
// `_stop`, `transactionWatch_v1_submitAndWatch` and `_unwatch` (transaction-watch.ts), and
// `chainSpec_v1_*`. polkadot-api speaks it natively when `rpc_methods` lists it.
//
// Everything is read through the node's own legacy methods (`LegacyCall`), so both specs answer
// from one state. Every produced block is new, best and finalized at once (the sandbox's chains
// finalize their head), and nothing is pruned: unpin has nothing to free.
//
// Loading rule: @polkadot/* through `require`, like chain-node.ts.
import { crypto, util } from './polkadot-libs';
import { TransactionWatches } from './transaction-watch';

type Hex = `0x${string}`;

/** The methods of the new spec the node serves (listed by `rpc_methods`). */
export const SPEC_V2_METHODS = [
  'chainHead_v1_body',
  'chainHead_v1_call',
  'chainHead_v1_continue',
  'chainHead_v1_follow',
  'chainHead_v1_header',
  'chainHead_v1_stopOperation',
  'chainHead_v1_storage',
  'chainHead_v1_unfollow',
  'chainHead_v1_unpin',
  'chainSpec_v1_chainName',
  'chainSpec_v1_genesisHash',
  'chainSpec_v1_properties',
  'transaction_v1_broadcast',
  'transaction_v1_stop',
  'transactionWatch_v1_submitAndWatch',
  'transactionWatch_v1_unwatch',
] as const;

const SERVED: ReadonlySet<string> = new Set(SPEC_V2_METHODS);

/** `:code`, the storage key of the runtime's wasm: clients (polkadot-api) tell runtimes apart by its hash. */
export const CODE_KEY = '0x3a636f6465';

/**
 * What the emulated node holds under `:code`. It runs no wasm: the value is a stand-in naming the
 * runtime (spec name and version), so its hash changes exactly when the runtime version does.
 */
export function codeStandIn(version: { specName: string; specVersion: number }): Hex {
  return util.u8aToHex(util.stringToU8a(`sandbox runtime stand-in (no wasm): ${version.specName} ${version.specVersion}`));
}

/** A legacy method of the node (`chain_getHeader`, `state_call`...): its result, or a throw carrying `code` and `message`. */
export type LegacyCall = (method: string, params: unknown[]) => unknown;

/** A JSON-RPC answer: `result` or `error`. */
export type SpecV2Answer = { result: unknown } | { error: { code: number; message: string } };

interface RuntimeVersionJson {
  specName: string;
  implName: string;
  specVersion: number;
  implVersion: number;
  transactionVersion: number;
  apis: [string, number][];
}

interface LegacyHeader {
  parentHash: string;
  number: string;
  stateRoot: string;
  extrinsicsRoot: string;
  digest: { logs: string[] };
}

interface Follow {
  owner: object;
  send: (message: unknown) => void;
  withRuntime: boolean;
  /** The spec version the follower was last told about (a change is a `newRuntime`). */
  specVersion: number;
}

class SpecError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const isHex = (v: unknown): v is Hex => typeof v === 'string' && /^0x([0-9a-f]{2})*$/i.test(v);
const blake2 = (hex: string): Hex => crypto.blake2AsHex(util.hexToU8a(hex), 256);

/** A block header as the runtime encodes it (what `chainHead_v1_header` answers). */
function encodeHeader(header: LegacyHeader): Hex {
  const logs = header.digest.logs.map((log) => util.hexToU8a(log));
  return util.u8aToHex(
    util.u8aConcat(
      util.hexToU8a(header.parentHash),
      util.compactToU8a(BigInt(header.number)),
      util.hexToU8a(header.stateRoot),
      util.hexToU8a(header.extrinsicsRoot),
      util.compactToU8a(logs.length),
      ...logs,
    ),
  );
}

/** The new spec on one node: its follow subscriptions, broadcasts and watched transactions, by the socket that opened them. */
export class SpecV2 {
  readonly #follows = new Map<string, Follow>();
  readonly #broadcasts = new Map<string, object>();
  readonly #watches: TransactionWatches;
  #next = 1;

  constructor(
    private readonly legacy: LegacyCall,
    /** Prefix of the ids it hands out (the chain's name). */
    private readonly prefix: string,
  ) {
    this.#watches = new TransactionWatches(legacy, blake2);
  }

  /** Whether `method` belongs to the new spec (the node routes it here). */
  static serves(method: string): boolean {
    return SERVED.has(method);
  }

  /** Open subscriptions: follows and watched transactions. */
  get subscriptions(): number {
    return this.#follows.size + this.#watches.size;
  }

  /** Answers one request from `owner` (a socket); events go out with `send` after the answer. */
  handle(method: string, params: unknown[], owner: object, send: (message: unknown) => void): SpecV2Answer {
    try {
      return { result: this.#handle(method, params, owner, send) };
    } catch (e) {
      const { code, message } = e as { code?: unknown; message?: unknown };
      return { error: { code: typeof code === 'number' ? code : -32603, message: typeof message === 'string' ? message : String(e) } };
    }
  }

  /** A produced block: every follower hears it is new, best and finalized. */
  newBlock(hash: string): void {
    const header = this.legacy('chain_getHeader', [hash]) as LegacyHeader | null;
    if (!header) return;
    for (const [id, follow] of this.#follows) {
      const version = this.#runtimeVersion(hash);
      const changed = follow.withRuntime && version.specVersion !== follow.specVersion;
      follow.specVersion = version.specVersion;
      this.#event(id, { event: 'newBlock', blockHash: hash, parentBlockHash: header.parentHash, newRuntime: changed ? runtimeSpec(version) : null });
      this.#event(id, { event: 'bestBlockChanged', bestBlockHash: hash });
      this.#event(id, { event: 'finalized', finalizedBlockHashes: [hash], prunedBlockHashes: [] });
    }
    this.#watches.newBlock(hash);
  }

  /** The socket closed: its follows, broadcasts and watches end. */
  dropOwner(owner: object): void {
    this.#watches.dropOwner(owner);
    for (const [id, follow] of this.#follows) if (follow.owner === owner) this.#follows.delete(id);
    for (const [id, by] of this.#broadcasts) if (by === owner) this.#broadcasts.delete(id);
  }

  #id(): string {
    return `${this.prefix}-v2-${this.#next++}`;
  }

  #event(subscription: string, result: unknown): void {
    this.#follows.get(subscription)?.send({ jsonrpc: '2.0', method: 'chainHead_v1_followEvent', params: { subscription, result } });
  }

  /** Events after the answer that announces them (the node sends answers synchronously). */
  #later(subscription: string, events: () => unknown[]): void {
    setImmediate(() => {
      for (const event of events()) this.#event(subscription, event);
    });
  }

  #runtimeVersion(hash: string): RuntimeVersionJson {
    return this.legacy('state_getRuntimeVersion', [hash]) as RuntimeVersionJson;
  }

  #handle(method: string, p: unknown[], owner: object, send: (message: unknown) => void): unknown {
    switch (method) {
      case 'chainSpec_v1_chainName':
        return this.legacy('system_chain', []);
      case 'chainSpec_v1_genesisHash':
        return this.legacy('chain_getBlockHash', [0]);
      case 'chainSpec_v1_properties':
        return this.legacy('system_properties', []);
      case 'transaction_v1_broadcast': {
        if (!isHex(p[0])) throw new SpecError(-32602, 'Invalid params: the transaction must be hex');
        const id = this.#id();
        this.#broadcasts.set(id, owner);
        // The spec's broadcast reports nothing: a client hears that the pool refused a transaction
        // from its validity (TaggedTransactionQueue_validate_transaction, which says why) at the next block.
        try {
          this.legacy('author_submitExtrinsic', [p[0]]);
        } catch {
          this.#broadcasts.delete(id);
        }
        return id;
      }
      case 'transactionWatch_v1_submitAndWatch':
        if (!isHex(p[0])) throw new SpecError(-32602, 'Invalid params: the transaction must be hex');
        return this.#watches.submitAndWatch(this.#id(), p[0], owner, send);
      case 'transactionWatch_v1_unwatch':
        if (!this.#watches.unwatch(String(p[0]))) throw new SpecError(-32602, 'Invalid subscription id');
        return null;
      case 'transaction_v1_stop':
        if (!this.#broadcasts.delete(String(p[0]))) throw new SpecError(-32602, 'Invalid operation id');
        return null;
      case 'chainHead_v1_follow':
        return this.#follow(p[0] === true, owner, send);
    }
    const follow = this.#follows.get(String(p[0]));
    switch (method) {
      case 'chainHead_v1_unfollow':
        this.#follows.delete(String(p[0]));
        return null;
      case 'chainHead_v1_unpin':
      case 'chainHead_v1_continue':
      case 'chainHead_v1_stopOperation':
        return null;
    }
    // A stale or unknown subscription: null, as the spec answers.
    if (!follow) return null;
    const hash = String(p[1]);
    const header = this.legacy('chain_getHeader', [hash]) as LegacyHeader | null;
    if (!header || this.legacy('chain_getBlockHash', [Number(header.number)]) !== hash.toLowerCase()) throw new SpecError(-32801, `Invalid block hash ${hash}`);
    switch (method) {
      case 'chainHead_v1_header':
        return encodeHeader(header);
      case 'chainHead_v1_body':
        return this.#operation(String(p[0]), () => [{ event: 'operationBodyDone', value: (this.legacy('chain_getBlock', [hash]) as { block: { extrinsics: string[] } }).block.extrinsics }]);
      case 'chainHead_v1_call':
        return this.#operation(String(p[0]), () => [this.#call(hash, String(p[2]), isHex(p[3]) ? p[3] : '0x')]);
      case 'chainHead_v1_storage':
        return { ...(this.#operation(String(p[0]), () => this.#storage(hash, p[2])) as object), discardedItems: 0 };
      default:
        throw new SpecError(-32601, 'Method not found');
    }
  }

  #follow(withRuntime: boolean, owner: object, send: (message: unknown) => void): string {
    const id = this.#id();
    const head = this.legacy('chain_getFinalizedHead', []) as string;
    const version = this.#runtimeVersion(head);
    this.#follows.set(id, { owner, send, withRuntime, specVersion: version.specVersion });
    this.#later(id, () => [{ event: 'initialized', finalizedBlockHashes: [head], ...(withRuntime ? { finalizedBlockRuntime: runtimeSpec(version) } : {}) }]);
    return id;
  }

  /** Starts an operation: its events (each given the operation's id) follow the answer. */
  #operation(subscription: string, events: () => Record<string, unknown>[]): { result: 'started'; operationId: string } {
    const operationId = this.#id();
    this.#later(subscription, () => {
      try {
        return events().map((e) => ({ ...e, operationId }));
      } catch (e) {
        return [{ event: 'operationError', operationId, error: e instanceof Error ? e.message : String(e) }];
      }
    });
    return { result: 'started', operationId };
  }

  #call(hash: string, fn: string, data: Hex): Record<string, unknown> {
    return { event: 'operationCallDone', output: this.legacy('state_call', [fn, data, hash]) };
  }

  #storage(hash: string, items: unknown): Record<string, unknown>[] {
    const asked = Array.isArray(items) ? (items as { key?: unknown; type?: unknown }[]) : [];
    const value = (key: string) => this.legacy('state_getStorage', [key, hash]) as Hex | null;
    const found: { key: string; value?: Hex; hash?: Hex; closestDescendantMerkleValue?: Hex }[] = [];
    for (const item of asked) {
      if (!isHex(item.key)) throw new Error(`storage key ${String(item.key)} is not hex`);
      const key = item.key;
      const descendants = () => (this.legacy('state_getKeys', [key, hash]) as string[]).map((k) => [k, value(k)] as const).filter((kv): kv is [string, Hex] => kv[1] !== null);
      switch (item.type) {
        case 'value': {
          const v = value(key);
          if (v !== null) found.push({ key, value: v });
          break;
        }
        case 'hash': {
          const v = value(key);
          if (v !== null) found.push({ key, hash: blake2(v) });
          break;
        }
        case 'descendantsValues':
          for (const [k, v] of descendants()) found.push({ key: k, value: v });
          break;
        case 'descendantsHashes':
          for (const [k, v] of descendants()) found.push({ key: k, hash: blake2(v) });
          break;
        case 'closestDescendantMerkleValue': {
          const all = descendants();
          if (all.length) found.push({ key, closestDescendantMerkleValue: blake2(util.u8aToHex(util.u8aConcat(...all.map(([k, v]) => util.hexToU8a(k + v.slice(2)))))) });
          break;
        }
        default:
          throw new Error(`unknown storage item type ${String(item.type)}`);
      }
    }
    return [...(found.length ? [{ event: 'operationStorageItems', items: found }] : []), { event: 'operationStorageDone' }];
  }
}

/** A runtime as the follow events describe it. */
function runtimeSpec(version: RuntimeVersionJson): unknown {
  return {
    type: 'valid',
    spec: {
      specName: version.specName,
      implName: version.implName,
      specVersion: version.specVersion,
      implVersion: version.implVersion,
      transactionVersion: version.transactionVersion,
      apis: Object.fromEntries(version.apis),
    },
  };
}
