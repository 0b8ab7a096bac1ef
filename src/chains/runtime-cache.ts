// Runtimes decoded from the answers of nodes clients named, kept after their connections close, so
// that a client who comes back (its connection closed when idle, CLIENT_IDLE_TIMEOUT_MS) or another
// client whose node gives the same answers does not pay the decode again (170-250 ms of CPU for
// Asset Hub's metadata, taken in pieces, a turn of the event loop between two: turns.ts, so other
// clients' work goes on meanwhile). Keyed by a hash of every answer the runtime is decoded from
// (metadata bytes, genesis hash, runtime version, chain, properties, RPC methods): equal answers
// decode to equal runtimes, so sharing one lets no node change what another client's reads decode
// with. Each runtime is an api over no node (src/sdk/patches/detached-runtime.ts), owned by no
// connection; connections are made from it (shared-runtime.ts) and never change it.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { decodeRuntime, type ApiPromise, type NodeAnswers } from '../sdk';
import { nextTurn } from './turns';

/** Runtimes kept: Asset Hub's holds about 15 MB of heap (docs/security.md). */
export const MAX_CACHED_RUNTIMES = 4;
/** Their answers together (metadata hex, mostly), in characters: what bounds the heap when nodes send large metadata. */
export const MAX_CACHED_RUNTIME_CHARS = 8 * 1024 * 1024;

const noop = (): void => undefined;

export class RuntimeCache {
  readonly #runtimes = new LRUCache<string, ApiPromise>({
    max: MAX_CACHED_RUNTIMES,
    maxSize: MAX_CACHED_RUNTIME_CHARS,
    // What was made from it keeps its registry; the api itself only lets go of its timers.
    dispose: (api) => void api.disconnect().catch(noop),
  });
  /** Decodes under way, so that two connections to nodes with the same answers decode once. */
  readonly #decoding = new Map<string, Promise<ApiPromise>>();

  /**
   * The runtime `answers` decode to: a kept one (`decoded` false) or a new decode, kept when
   * polkadot.js read nothing but `answers` and they fit. `forward` answers what `answers` lack;
   * `spend` is called before a new decode (and may refuse it by throwing).
   */
  async runtimeFor(answers: NodeAnswers, forward: (method: string, params: unknown[]) => Promise<unknown>, spend: () => void = noop): Promise<{ api: ApiPromise; decoded: boolean }> {
    const transcript = answers.transcript();
    const key = createHash('sha256').update(transcript).digest('hex');
    const kept = this.#runtimes.get(key);
    if (kept) return { api: kept, decoded: false };
    const pending = this.#decoding.get(key);
    if (pending) return { api: await pending, decoded: false };
    spend();
    const decoding = decodeRuntime(answers, forward, nextTurn).then(({ api, exact }) => {
      if (exact && transcript.length <= MAX_CACHED_RUNTIME_CHARS / MAX_CACHED_RUNTIMES) this.#runtimes.set(key, api, { size: transcript.length });
      return api;
    });
    this.#decoding.set(key, decoding);
    try {
      return { api: await decoding, decoded: true };
    } finally {
      this.#decoding.delete(key);
    }
  }

  get size(): number {
    return this.#runtimes.size;
  }

  /** Lets go of every kept runtime (the pool closes). */
  clear(): void {
    this.#runtimes.clear();
  }
}
