// `transactionWatch_v1_submitAndWatch` and `_unwatch` of the new JSON-RPC spec
// (https://paritytech.github.io/json-rpc-interface-spec/api/transactionWatch_v1_submitAndWatch.html):
// a transaction the pool takes is told `validated` and `broadcasted`, then `bestChainBlockIncluded`
// and `finalized` (with its block and index) when a produced block holds it; every block is final
// at once in the sandbox. One the pool refuses is told `invalid` (the node's 1010 message: a stale
// nonce, a bad signature, fees it cannot pay), and one the node cannot take at all `dropped`, each
// with its error: never silence. Submitted through the node's legacy `author_submitExtrinsic`, so
// both specs share one pool.
import { RpcError } from './rpc-error';

type Hex = `0x${string}`;
type Legacy = (method: string, params: unknown[]) => unknown;
type Send = (message: unknown) => void;

interface Watch {
  owner: object;
  send: Send;
  /** The transaction's hash (what `author_submitExtrinsic` answers). */
  hash: string;
  /** Told `validated` and `broadcasted` already (the answer goes first, a block may come before). */
  announced: boolean;
}

export class TransactionWatches {
  readonly #watches = new Map<string, Watch>();

  constructor(
    private readonly legacy: Legacy,
    private readonly hashOf: (extrinsic: string) => string,
  ) {}

  get size(): number {
    return this.#watches.size;
  }

  /** Submits `transaction` for `owner` and answers the subscription's id; its events follow the answer. */
  submitAndWatch(id: string, transaction: Hex, owner: object, send: Send): string {
    let hash: string;
    try {
      hash = String(this.legacy('author_submitExtrinsic', [transaction]));
    } catch (error) {
      const refused = error instanceof RpcError && error.code === 1010;
      const message = error instanceof Error ? error.message : String(error);
      setImmediate(() => notify(send, id, { event: refused ? 'invalid' : 'dropped', error: message }));
      return id;
    }
    const watch: Watch = { owner, send, hash, announced: false };
    this.#watches.set(id, watch);
    setImmediate(() => this.#announce(id, watch));
    return id;
  }

  /** Stops telling `id` (the transaction stays submitted, as the spec says); false when it is not open. */
  unwatch(id: string): boolean {
    return this.#watches.delete(id);
  }

  /** A produced block (new, best and finalized at once): the watched transactions it holds are done. */
  newBlock(hash: string): void {
    if (this.#watches.size === 0) return;
    const extrinsics = (this.legacy('chain_getBlock', [hash]) as { block: { extrinsics: string[] } } | null)?.block.extrinsics ?? [];
    const hashes = extrinsics.map((e) => this.hashOf(e));
    for (const [id, watch] of this.#watches) {
      const index = hashes.indexOf(watch.hash);
      if (index < 0) continue;
      this.#announce(id, watch);
      notify(watch.send, id, { event: 'bestChainBlockIncluded', block: { hash, index } });
      notify(watch.send, id, { event: 'finalized', block: { hash, index } });
      this.#watches.delete(id);
    }
  }

  /** The socket closed: its watches end (their transactions stay submitted). */
  dropOwner(owner: object): void {
    for (const [id, watch] of this.#watches) if (watch.owner === owner) this.#watches.delete(id);
  }

  #announce(id: string, watch: Watch): void {
    if (watch.announced || this.#watches.get(id) !== watch) return;
    watch.announced = true;
    notify(watch.send, id, { event: 'validated' });
    notify(watch.send, id, { event: 'broadcasted' });
  }
}

function notify(send: Send, subscription: string, result: unknown): void {
  send({ jsonrpc: '2.0', method: 'transactionWatch_v1_watchEvent', params: { subscription, result } });
}
