// One request's reads: chains borrowed from the pool (released when the request ends), every read
// given up when the request's signal aborts (its deadline, or the client gone), failures named by
// chain, and the blocks it reads counted against TRACK_MAX_BLOCKS.
import type { Config } from '../../config';
import type { ConnectionPool, Lease } from '../../chains/pool';
import { abortable } from '../../chains/pool';
import { createChainScope, type ChainScope } from '../../chains/chain-scope';
import type { ApiPromise } from '../../sdk';
import type { StatusRequest } from '../../schemas/status';
import { endpointResolver, fromChainFailure } from '../sdk-calls';
import type { ChainEvent } from './chain-events';
import { blockExtrinsics, blockHashAt, eventsAt, finalizedHead, timestampAt, type BlockRef } from './chain-reads';

/** The request read TRACK_MAX_BLOCKS blocks: it answers what it knows, not final. */
export class BlockBudgetSpent extends Error {
  constructor(readonly limit: number) {
    super(`read ${limit} blocks (TRACK_MAX_BLOCKS)`);
  }
}

/** One block of a chain, read lazily and once: what tracking asks of a block, wherever it came from. */
export interface BlockView {
  readonly chain: string;
  readonly number: number;
  readonly hash: string;
  events(): Promise<ChainEvent[]>;
  /** The hashes of its extrinsics, in order. */
  extrinsics(): Promise<string[]>;
  timestamp(): Promise<number>;
}

/** A BlockView over `read` (a request's or a head watcher's), each part read at most once. */
export function lazyBlock(chain: string, ref: BlockRef, read: <T>(work: (api: ApiPromise) => Promise<T>) => Promise<T>): BlockView {
  let events: Promise<ChainEvent[]> | undefined;
  let extrinsics: Promise<string[]> | undefined;
  let timestamp: Promise<number> | undefined;
  return {
    chain,
    number: ref.number,
    hash: ref.hash,
    events: () => (events ??= read((api) => eventsAt(api, chain, ref.hash))),
    extrinsics: () => (extrinsics ??= read(async (api) => (await blockExtrinsics(api, chain, ref.hash))?.extrinsics ?? [])),
    timestamp: () => (timestamp ??= read((api) => timestampAt(api, chain, ref.hash))),
  };
}

export class ChainReader {
  readonly #scope: ChainScope;
  readonly #resolve: (chain: string) => readonly string[];
  readonly #counted = new Set<string>();

  constructor(
    pool: ConnectionPool,
    options: StatusRequest['options'],
    private readonly signal: AbortSignal,
    private readonly maxBlocks: number,
    operatorEndpoints: Config['CHAIN_ENDPOINTS'],
  ) {
    this.#resolve = endpointResolver(options, operatorEndpoints);
    this.#scope = createChainScope(pool, this.#resolve, signal);
  }

  /** The endpoints this request reaches `chain` through (what a head watcher is shared by). */
  endpoints(chain: string): readonly string[] {
    return this.#resolve(chain);
  }

  /** Runs one read on `chain`'s pooled api; a chain failure is named by its chain. */
  async read<T>(chain: string, work: (api: ApiPromise) => Promise<T>): Promise<T> {
    const api = (await abortable(this.#scope.apiOverrides[chain] as Promise<ApiPromise>, this.signal)) as ApiPromise;
    try {
      return await abortable(work(api), this.signal);
    } catch (error) {
      if (this.signal.aborted) throw this.signal.reason;
      throw fromChainFailure(error, this.#leasesOf(chain)) ?? error;
    }
  }

  /** Counts a block against TRACK_MAX_BLOCKS (once per block, however it is read). */
  count(chain: string, hash: string): void {
    const key = `${chain} ${hash}`;
    if (this.#counted.has(key)) return;
    if (this.#counted.size >= this.maxBlocks) throw new BlockBudgetSpent(this.maxBlocks);
    this.#counted.add(key);
  }

  head(chain: string): Promise<BlockRef> {
    return this.read(chain, (api) => finalizedHead(api, chain));
  }

  /** Block `n` of `chain` (counted), or undefined when there is none yet. */
  async blockAt(chain: string, n: number): Promise<BlockView | undefined> {
    const hash = await this.read(chain, (api) => blockHashAt(api, chain, n));
    return hash === undefined ? undefined : this.block(chain, { number: n, hash });
  }

  /** A block known by number and hash (counted). */
  block(chain: string, ref: BlockRef): BlockView {
    this.count(chain, ref.hash);
    return lazyBlock(chain, ref, (work) => this.read(chain, work));
  }

  /** The block with this hash, or undefined when the chain does not know it (counted). */
  async blockByHash(chain: string, hash: string): Promise<BlockView | undefined> {
    this.count(chain, hash);
    const found = await this.read(chain, (api) => blockExtrinsics(api, chain, hash));
    if (!found) return undefined;
    const view = lazyBlock(chain, { number: found.number, hash }, (work) => this.read(chain, work));
    return { ...view, extrinsics: () => Promise.resolve(found.extrinsics) };
  }

  release(): void {
    this.#scope.release();
  }

  #leasesOf(chain: string): Lease[] {
    return this.#scope.leases.filter((lease) => lease.chain === chain);
  }
}
