// Following a transfer after it is signed (POST /x-transfer/status), from the chains themselves:
// the origin's block and events, then each later chain's `messageQueue` events for the message's
// id, over pooled connections. Answered at once, or streamed until final (the HTTP layer writes the
// stream; this door gives it leg changes and the answer).
import type { Config } from '../../config';
import type { ConnectionPool } from '../../chains/pool';
import { ApiError, DeadlineExceededError } from '../../errors';
import type { StatusRequest } from '../../schemas/status';
import { checkOverrideHosts, endpointResolver, readLimits } from '../sdk-calls';
import type { Leg, StatusAnswer } from './answer';
import { HeadWatchers, type HeadSubscription, type Interest, type Notified, type Offered } from './head-watcher';
import { interestOf, Journey, type JourneySnapshot } from './journey';
import { ChainReader } from './reader';
import { SharedBlocks } from './shared-blocks';
import { SharedSearches, type StartSearch } from './timestamp-search';
import { laterLegs } from './route';

export type { Leg, StatusAnswer } from './answer';
export type { JourneySnapshot } from './journey';
export type { Notified, Offered } from './head-watcher';

/** Whether the transfer's route ends at a bridge hub (another ecosystem, or Ethereum): its message takes longer. */
export const crossesBridge = (req: StatusRequest): boolean => laterLegs(req.from, req.to, undefined).some((step) => step.role === 'bridge');

/** A transfer read for a watch: what is known, and where a later read carries on. */
export interface Tracking {
  answer(): StatusAnswer;
  /** The timestamp (epoch ms) of the block that settled the latest leg found in this read. */
  settledAt(): number | undefined;
  /** Where a later read carries on (`track`'s `resume`), in this process or another. */
  snapshot(): JourneySnapshot;
  /** Whether new blocks of a chain can still change the answer (`wait` for them). */
  watching(): boolean;
  /** Gives back the chain connections. */
  release(): void;
}

/**
 * A watch waiting for the blocks that can settle it: it is held by the head watcher's index under
 * its extrinsic or message, and nothing else waits on its behalf.
 */
export interface Waiting {
  /** The block offered to it (or the head watch's failure, or its closing) not yet taken; `wait`'s `notified` is told when there is one. */
  take(): Offered | Error | undefined;
  /** Whether `snapshot` waits for the same thing (chain, extrinsic or message): then this wait carries on. */
  holds(snapshot: JourneySnapshot): boolean;
  /** `snapshot` moved past the blocks the watcher checked for it and passed over (what a takeover need not read again). */
  caughtUp(snapshot: JourneySnapshot): JourneySnapshot;
  /**
   * Whether the head watcher checks for it every block from the snapshot's cursor on (it had not
   * checked that block yet when the watch joined): then the watch need not read before the next
   * block offered. Else it reads up to the head itself, after joining (so no block falls between).
   */
  readonly covered: boolean;
  close(): void;
}

/** A watch's place in a head watcher's index: one object, its methods shared (a waiting watch holds it). */
class IndexedWait implements Waiting {
  constructor(
    private readonly req: StatusRequest,
    private readonly chain: string,
    private readonly interest: Interest | undefined,
    private readonly heads: HeadSubscription,
  ) {}

  get covered(): boolean {
    return this.heads.covered;
  }

  take(): Offered | Error | undefined {
    return this.heads.take();
  }

  holds(other: JourneySnapshot): boolean {
    return other.cursor?.chain === this.chain && sameInterest(interestOf(this.req, other.cursor.leg, other.messageId), this.interest);
  }

  caughtUp(other: JourneySnapshot): JourneySnapshot {
    return other.cursor?.next === undefined ? other : { ...other, cursor: { ...other.cursor, next: this.heads.caughtUp(other.cursor.next) } };
  }

  close(): void {
    this.heads.close();
  }
}

/** A stream whose first answer has been read; `run` follows it to the end. */
export interface StatusStream {
  /**
   * Sends each leg as it changes (all of them first), until the answer is final, TRACK_TIMEOUT_MS
   * has passed or the service shuts down; answers the status then (not final unless it is), or
   * undefined when the client went away. A chain failure on the way rejects.
   */
  run(leg: (leg: Leg) => void): Promise<StatusAnswer | undefined>;
}

/**
 * A signal that aborts when any of `sources` does, and lets go of them on `dispose`. Not
 * AbortSignal.any: its weak references and registry entries, made for every read of every watch,
 * cost far more than these listeners.
 */
function linked(...sources: AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const aborts = sources.map((source) => {
    const abort = (): void => controller.abort(source.reason);
    source.addEventListener('abort', abort, { once: true });
    return abort;
  });
  const aborted = sources.find((source) => source.aborted);
  if (aborted) controller.abort(aborted.reason);
  return { signal: controller.signal, dispose: () => sources.forEach((source, i) => source.removeEventListener('abort', aborts[i]!)) };
}

const sameInterest = (a: Interest | undefined, b: Interest | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Aborts with `reason` after `ms`, unless cleared first. */
function timer(ms: number, reason: () => unknown): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const handle = setTimeout(() => controller.abort(reason()), ms);
  return { signal: controller.signal, clear: () => clearTimeout(handle) };
}

export class StatusService {
  readonly #watchers: HeadWatchers;
  /** Watches only: a stream or a status read searches afresh, as a client asking again expects. */
  readonly #searches = new SharedSearches();
  /** Watches only, as searches: origin blocks read by hash, one read for the watches made on a block. */
  readonly #blocks = new SharedBlocks();
  /** Aborts every open stream when the service drains. */
  #closing = new AbortController();
  #streams = 0;

  constructor(
    private readonly pool: ConnectionPool,
    private readonly config: Config,
  ) {
    this.#watchers = new HeadWatchers(pool, config.REQUEST_TIMEOUT_MS, readLimits(config));
  }

  /** Streams open now. */
  get openStreams(): number {
    return this.#streams;
  }

  /** Chains watched for new heads, and how many streams wait on each. */
  watching(): { chain: string; listeners: number; checked?: number }[] {
    return this.#watchers.stats();
  }

  /** What is known now, read up to each chain's finalized head under REQUEST_TIMEOUT_MS. */
  async status(req: StatusRequest): Promise<StatusAnswer> {
    await checkOverrideHosts(req.options.apiOverrides, this.pool.guard);
    const deadline = timer(this.config.REQUEST_TIMEOUT_MS, () => new DeadlineExceededError(this.#what(req), this.config.REQUEST_TIMEOUT_MS));
    const reader = this.#reader(req, deadline.signal);
    try {
      const journey = this.#journey(req, reader);
      await journey.scan();
      return journey.answer();
    } finally {
      deadline.clear();
      reader.release();
    }
  }

  /**
   * Opens a stream: refused at once (503) beyond TRACK_MAX_STREAMS; the first answer is read
   * before anything is sent, so its failures are plain error answers. `gone` aborts when the
   * client goes away.
   */
  async stream(req: StatusRequest, gone: AbortSignal): Promise<StatusStream> {
    const max = this.config.TRACK_MAX_STREAMS;
    if (this.#streams >= max) {
      throw new ApiError(503, 'TooManyStreamsError', `${max} status streams (TRACK_MAX_STREAMS) are open; retry shortly, or ask without Accept: text/event-stream`, undefined, { 'Retry-After': '5' });
    }
    const closing = this.#closing.signal;
    if (closing.aborted) throw closing.reason;
    this.#streams++;
    // The first answer is bounded like any request (504); the stream's own bound, TRACK_TIMEOUT_MS,
    // counts from the start too.
    const timeoutMs = this.config.TRACK_TIMEOUT_MS;
    const firstAnswer = timer(this.config.REQUEST_TIMEOUT_MS, () => new DeadlineExceededError(this.#what(req), this.config.REQUEST_TIMEOUT_MS));
    const timedOut = `Stopped following after ${timeoutMs} ms (TRACK_TIMEOUT_MS); ask again to continue.`;
    const lifetime = timer(timeoutMs, () => new Error(timedOut));
    const signal = AbortSignal.any([gone, lifetime.signal, closing]);
    const reader = this.#reader(req, AbortSignal.any([signal, firstAnswer.signal]));
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      lifetime.clear();
      firstAnswer.clear();
      reader.release();
      this.#streams--;
    };
    const journey = this.#journey(req, reader);
    const stopped = (): string => (closing.aborted ? 'The service is shutting down; ask again.' : timedOut);
    try {
      await checkOverrideHosts(req.options.apiOverrides, this.pool.guard);
      await journey.scan();
    } catch (error) {
      // Out of time (or shutting down) before the first answer: the stream says what is known.
      if (lifetime.signal.aborted || (closing.aborted && !gone.aborted)) {
        journey.stop(stopped());
      } else {
        end();
        throw error;
      }
    } finally {
      firstAnswer.clear();
    }
    return {
      run: async (send) => {
        const told: string[] = [];
        const tell = (): void =>
          journey.legs.forEach((leg, i) => {
            const json = JSON.stringify(leg);
            if (told[i] !== json) {
              told[i] = json;
              send(leg);
            }
          });
        try {
          if (journey.watching) await journey.follow(this.#watchers, tell, signal);
          tell();
          return journey.answer();
        } catch (error) {
          if (gone.aborted) return undefined;
          if (!lifetime.signal.aborted && !closing.aborted) {
            // What is known goes out before the error.
            tell();
            throw error;
          }
          journey.stop(stopped());
          tell();
          return journey.answer();
        } finally {
          end();
        }
      },
    };
  }

  /**
   * For a watch: reads what is known now, up to each chain's finalized head: from the snapshot
   * `resume` (first looking at `offered`, a block the watch's `wait` was offered), else afresh as
   * `status` does. A read from scratch or from a snapshot alone is bounded by REQUEST_TIMEOUT_MS;
   * each read has that deadline of its own too, and the read stops at TRACK_MAX_BLOCKS blocks.
   */
  async track(req: StatusRequest, signal: AbortSignal, resume?: JourneySnapshot, offered?: Offered): Promise<Tracking> {
    const firstRead = offered ? undefined : timer(this.config.REQUEST_TIMEOUT_MS, () => new DeadlineExceededError(this.#what(req), this.config.REQUEST_TIMEOUT_MS));
    const reading = linked(...[signal, this.#closing.signal, firstRead?.signal].filter((s) => s !== undefined));
    const reader = this.#reader(req, reading.signal, { readTimeoutMs: this.config.REQUEST_TIMEOUT_MS }, this.#blocks);
    const release = (): void => {
      reading.dispose();
      reader.release();
    };
    const journey = this.#journey(req, reader, this.#searches.search, true, true);
    try {
      await checkOverrideHosts(req.options.apiOverrides, this.pool.guard);
      if (resume && offered) await journey.resumeWith(resume, offered, reading.signal);
      else if (resume) await journey.restore(resume);
      else await journey.scan();
    } catch (error) {
      release();
      throw error;
    } finally {
      firstRead?.clear();
    }
    return {
      answer: () => journey.answer(),
      settledAt: () => journey.settledAt,
      snapshot: () => journey.snapshot(),
      watching: () => journey.watching !== undefined,
      release,
    };
  }

  /**
   * For a watch whose `track` is `watching`: joins the shared head watcher of its cursor's chain,
   * indexed under what alone can settle it (resolves once the subscription is set up). `notified` is
   * called whenever a block is offered to it (or the head watch fails): the watch then `take`s it.
   */
  async wait(req: StatusRequest, snapshot: JourneySnapshot, signal: AbortSignal, notified: Notified): Promise<Waiting> {
    const cursor = snapshot.cursor;
    if (!cursor) throw new Error('nothing to wait for: the snapshot has no cursor');
    const closing = this.#closing.signal;
    if (closing.aborted) throw closing.reason;
    const interest = interestOf(req, cursor.leg, snapshot.messageId);
    const endpoints = endpointResolver(req.options, this.config.CHAIN_ENDPOINTS)(cursor.chain);
    const heads = await this.#watchers.watch(cursor.chain, endpoints, signal, interest, cursor.next, notified);
    return new IndexedWait(req, cursor.chain, interest, heads);
  }

  /** Ends every stream (each sends what it knows, not final) and every head watch. */
  close(): void {
    this.#closing.abort(new ApiError(503, 'ShuttingDownError', 'The service is shutting down; ask another instance', undefined, { 'Retry-After': '1' }));
    this.#watchers.close();
  }

  #what(req: StatusRequest): string {
    return `Following ${req.txHash} from ${req.from}`;
  }

  #reader(req: StatusRequest, signal: AbortSignal, lasting?: { readTimeoutMs: number }, shared?: SharedBlocks): ChainReader {
    return new ChainReader(this.pool, req.options, signal, this.config.TRACK_MAX_BLOCKS, readLimits(this.config), this.config.CHAIN_ENDPOINTS, lasting, shared);
  }

  #journey(req: StatusRequest, reader: ChainReader, search?: StartSearch, timed = false, indexed = false): Journey {
    return new Journey(req, reader, { lookback: this.config.TRACK_LOOKBACK_BLOCKS, maxBlocks: this.config.TRACK_MAX_BLOCKS }, search, timed, indexed);
  }
}
