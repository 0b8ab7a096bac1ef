// One request's reads: chains borrowed from the pool (released when the request ends), every read
// given up when the request's signal aborts (its deadline, or the client gone), failures named by
// chain, the blocks it reads counted against TRACK_MAX_BLOCKS, and what nodes send it against its
// ReadBudget (REQUEST_MAX_CHAIN_BYTES, REQUEST_MAX_CHAIN_ITEMS).
import type { Config } from '../../config';
import type { ConnectionPool, Lease } from '../../chains/pool';
import { abortable } from '../../chains/pool';
import { createChainScope, type ChainScope } from '../../chains/chain-scope';
import { withDeadline } from '../../chains/deadline';
import type { ApiPromise } from '../../sdk';
import type { StatusRequest } from '../../schemas/status';
import { endpointResolver, fromChainFailure, ReadBudget, type ReadLimits, type ReadSpent } from '../sdk-calls';
import type { ChainEvent } from './chain-events';
import { blockExtrinsics, blockHashAt, downwardMessagesAt, eventsAt, finalizedHead, timestampAt, type BlockRef, type DownwardMessage } from './chain-reads';
import { sharedPart, type SharedBlocks } from './shared-blocks';

/** Blocks read at once at most (one connection carries them). */
const READ_BATCH = 8;

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
  /** The downward messages it received (a parachain's block), each with the relay block that sent it. */
  downwardMessages(): Promise<DownwardMessage[]>;
  /** What reading it has cost so far, in the budget it was read under. */
  spent(): ReadSpent;
}

/**
 * A BlockView over `read` (a request's or a head watcher's), each part read at most once, counted
 * against `budget` (the request's, or the block's own when a head watcher reads it for several).
 */
export function lazyBlock(chain: string, ref: BlockRef, read: <T>(work: (api: ApiPromise) => Promise<T>) => Promise<T>, budget: ReadBudget): BlockView {
  let events: Promise<ChainEvent[]> | undefined;
  let extrinsics: Promise<string[]> | undefined;
  let timestamp: Promise<number> | undefined;
  let downward: Promise<DownwardMessage[]> | undefined;
  return {
    chain,
    number: ref.number,
    hash: ref.hash,
    events: () => (events ??= read((api) => eventsAt(api, chain, budget, ref.hash))),
    extrinsics: () => (extrinsics ??= read(async (api) => (await blockExtrinsics(api, chain, budget, ref.hash))?.extrinsics ?? [])),
    timestamp: () => (timestamp ??= read((api) => timestampAt(api, chain, budget, ref.hash))),
    downwardMessages: () => (downward ??= read((api) => downwardMessagesAt(api, chain, budget, ref.hash))),
    spent: () => budget.spent,
  };
}

/**
 * The block numbers a request counted, per chain, as ranges: reads are runs of consecutive blocks
 * (a lookback, a range, the heads a watch follows), so a reader that counts TRACK_MAX_BLOCKS blocks
 * holds a few numbers, not a hash per block.
 */
export class CountedBlocks {
  readonly #ranges = new Map<string, Array<[number, number]>>();

  /** How many blocks were counted (a hash the chain did not know counts as one too). */
  size = 0;

  /** Adds block `n` of `chain`; false when it was counted already. */
  add(chain: string, n: number): boolean {
    const ranges = this.#ranges.get(chain) ?? [];
    this.#ranges.set(chain, ranges);
    // The first range ending at or after n - 1 (ranges are sorted, disjoint, never adjacent).
    let i = 0;
    while (i < ranges.length && ranges[i]![1] < n - 1) i++;
    const range = ranges[i];
    if (range && range[0] <= n && n <= range[1]) return false;
    this.size++;
    if (range && range[1] === n - 1) {
      range[1] = n;
      const after = ranges[i + 1];
      if (after && after[0] === n + 1) {
        range[1] = after[1];
        ranges.splice(i + 1, 1);
      }
    } else if (range && range[0] === n + 1) {
      range[0] = n;
    } else {
      ranges.splice(i, 0, [n, n]);
    }
    return true;
  }
}

export class ChainReader {
  readonly #scope: ChainScope;
  readonly #resolve: (chain: string) => readonly string[];
  readonly #counted = new CountedBlocks();
  readonly #budget: ReadBudget;
  #batch = 0;

  constructor(
    pool: ConnectionPool,
    options: StatusRequest['options'],
    private readonly signal: AbortSignal,
    private readonly maxBlocks: number,
    limits: ReadLimits,
    operatorEndpoints: Config['CHAIN_ENDPOINTS'],
    /** For a reader whose signal may not abort for hours (a watch's): a deadline for each read. */
    private readonly lasting?: { readTimeoutMs: number },
    /** Blocks read by hash shared with other readers (the first reader's read, counted against its budget only). */
    private readonly shared?: SharedBlocks,
  ) {
    this.#budget = new ReadBudget(limits, signal);
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
      const reading = this.lasting === undefined ? work(api) : withDeadline(() => work(api), this.lasting.readTimeoutMs, `Reading ${chain}`);
      return await abortable(reading, this.signal);
    } catch (error) {
      if (this.signal.aborted) throw this.signal.reason;
      throw fromChainFailure(error, this.#leasesOf(chain)) ?? error;
    }
  }

  /** Counts finalized block `n` against TRACK_MAX_BLOCKS (once per block, however it is read). */
  count(chain: string, n: number): void {
    if (this.#counted.size >= this.maxBlocks) {
      if (this.#counted.add(chain, n)) throw new BlockBudgetSpent(this.maxBlocks);
      return;
    }
    this.#counted.add(chain, n);
  }

  /**
   * How many blocks to read at once next: 1, then doubling up to READ_BATCH (a lookback over
   * ordinary blocks soon reads 8 at a time), never more than the bytes left in the budget hold at
   * the size of the largest answer so far. Blocks asked for arrive and are parsed even when the
   * request has failed meanwhile: a node sending the largest blocks gets few asked at once.
   */
  batch(): number {
    const { bytes, largest } = this.#budget.room;
    this.#batch = Math.min(READ_BATCH, this.#batch * 2 || 1);
    return largest > 0 ? Math.max(1, Math.min(this.#batch, Math.floor(bytes / largest))) : this.#batch;
  }

  /**
   * Counts what a head watcher read of a block this request looked at. Not for a lasting reader:
   * each such block is bounded by a budget of its own, and TRACK_MAX_BLOCKS bounds how many one
   * read looks at; summed over hours of following they failed every watch after a few busy blocks.
   */
  charge(block: BlockView): void {
    if (this.lasting) return;
    this.#budget.add(block.chain, block.spent());
  }

  head(chain: string): Promise<BlockRef> {
    return this.read(chain, (api) => finalizedHead(api, chain, this.#budget));
  }

  /** Block `n` of `chain` (counted), or undefined when there is none yet. */
  async blockAt(chain: string, n: number): Promise<BlockView | undefined> {
    const hash = await this.read(chain, (api) => blockHashAt(api, chain, this.#budget, n));
    return hash === undefined ? undefined : this.block(chain, { number: n, hash });
  }

  /** A block known by number and hash (counted). */
  block(chain: string, ref: BlockRef): BlockView {
    this.count(chain, ref.number);
    return lazyBlock(chain, ref, (work) => this.read(chain, work), this.#budget);
  }

  /** The block with this hash, or undefined when the chain does not know it (counted). */
  async blockByHash(chain: string, hash: string): Promise<BlockView | undefined> {
    // Counted once read (its number unknown before): a hash the chain does not know counts as a block too.
    if (this.#counted.size >= this.maxBlocks) throw new BlockBudgetSpent(this.maxBlocks);
    const endpoints = this.#resolve(chain);
    const shared = this.shared?.get(chain, endpoints, hash);
    const readFound = () => this.read(chain, (api) => blockExtrinsics(api, chain, this.#budget, hash));
    const found = await (shared ? sharedPart(shared.found, readFound) : readFound());
    if (!found) {
      this.shared?.forget(chain, endpoints, hash);
      this.#counted.size++;
      return undefined;
    }
    this.count(chain, found.number);
    const view = lazyBlock(chain, { number: found.number, hash }, (work) => this.read(chain, work), this.#budget);
    const extrinsics = () => Promise.resolve(found.extrinsics);
    if (!shared) return { ...view, extrinsics };
    return { ...view, extrinsics, events: () => sharedPart(shared.events, view.events), timestamp: () => sharedPart(shared.timestamp, view.timestamp) };
  }

  release(): void {
    this.#scope.release();
  }

  #leasesOf(chain: string): Lease[] {
    return this.#scope.leases.filter((lease) => lease.chain === chain);
  }
}
