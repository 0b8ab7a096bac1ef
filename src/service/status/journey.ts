// One transfer followed from chain to chain. A cursor says what is looked for next and where: the
// extrinsic on the origin (when a lookback did not find it), or the message on the next leg's chain
// from the block a timestamp search gives. `scan` reads every chain up to its finalized head;
// `follow` then reads each new finalized block of the cursor's chain from a shared head watcher,
// until the status is final.
import { abortable } from '../../chains/pool';
import type { StatusRequest } from '../../schemas/status';
import { pendingLeg, summarise, type Leg, type StatusAnswer } from './answer';
import type { HeadSubscription, HeadWatchers, Interest, Offered } from './head-watcher';
import { findMessage, reachedLeg } from './messages';
import { indexIn, lookBack, notFoundLeg, readOrigin } from './origin';
import { BlockBudgetSpent, type BlockView, type ChainReader } from './reader';
import { laterLegs } from './route';
import { startBlock, type StartSearch } from './timestamp-search';

interface Cursor {
  /** 0: the extrinsic on the origin; i > 0: the message on leg i's chain. */
  leg: number;
  chain: string;
  /** The next block to read; undefined until the timestamp search has run from `since`. */
  next?: number;
  since?: number;
  /** The message has no id yet: it is the downward message the relay sent in this block (origin.ts). */
  sentAt?: number;
}

/** What a journey knows and where it reads next: plain JSON, so a watch resumes it in another process. */
export interface JourneySnapshot {
  legs: Leg[];
  messageId?: string;
  notes: string[];
  cursor?: Cursor;
}

export interface JourneyLimits {
  lookback: number;
  maxBlocks: number;
}

/** What alone can settle a cursor on leg `leg`: the extrinsic on the origin, else the message's outcome. */
export function interestOf(req: Pick<StatusRequest, 'txHash'>, leg: number, messageId: string | undefined): Interest | undefined {
  if (leg === 0) return { txHash: req.txHash };
  return messageId ? { messageId } : undefined;
}

const BEYOND_BRIDGE = 'The message is followed up to the bridge hub; what happens beyond the bridge is not followed.';
const NO_MESSAGE = 'The extrinsic succeeded but sent no XCM message.';

export class Journey {
  #legs: Leg[];
  #messageId?: string;
  #notes: string[] = [];
  #cursor?: Cursor;
  /** Why following stopped early this time, and where it would have read next: not carried by a snapshot. */
  #stops: string[] = [];
  #stoppedAt?: Cursor;
  #settledAt?: number;
  /** The head subscription `follow` reads from now, and the cursor it reads for. */
  #heads?: { heads: HeadSubscription; cursor: Cursor };

  constructor(
    private readonly req: StatusRequest,
    private readonly reader: ChainReader,
    private readonly limits: JourneyLimits,
    /** Where to start reading a later chain: a search of its own, or one shared with other journeys. */
    private readonly search: StartSearch = startBlock,
    /** Whether to read the time of each settling block (watches: the delivery latency); else it is read only to find the next leg. */
    private readonly timed = false,
    /**
     * Whether `follow` is offered only the blocks that hold its extrinsic or message (watches): the
     * blocks passed over are not counted against TRACK_MAX_BLOCKS, as this journey never reads them.
     */
    private readonly indexed = false,
  ) {
    this.#legs = [notFoundLeg(req.from)];
  }

  get legs(): readonly Leg[] {
    return this.#legs;
  }

  /** The chain whose new blocks can still change the answer; undefined when there is nothing to wait for. */
  get watching(): string | undefined {
    return this.#cursor?.chain;
  }

  /** The timestamp (epoch ms) of the block that settled the latest leg this journey found (when `timed`). */
  get settledAt(): number | undefined {
    return this.#settledAt;
  }

  /** Adds a sentence to the answer's note (why following stopped early). */
  stop(why: string): void {
    this.#stoppedAt ??= this.#cursor;
    this.#cursor = undefined;
    this.#stops.push(why);
  }

  /** What a later journey needs to carry on from here (a stop's cursor included, its reason not). */
  snapshot(): JourneySnapshot {
    const at = this.#cursor ?? this.#stoppedAt;
    // While following, the blocks the head watcher passed over need not be read again.
    const cursor = at && at === this.#heads?.cursor && at.next !== undefined ? { ...at, next: this.#heads.heads.caughtUp(at.next) } : at;
    return {
      // A leg is replaced, never changed in place (`reachedLeg`, `#takeDownward`): the array is copied, not its legs.
      legs: [...this.#legs],
      ...(this.#messageId ? { messageId: this.#messageId } : {}),
      notes: [...this.#notes],
      ...(cursor ? { cursor: { ...cursor } } : {}),
    };
  }

  /** Carries on from a snapshot instead of `scan`: reads from its cursor up to each finalized head. */
  async restore(snapshot: JourneySnapshot): Promise<void> {
    this.#load(snapshot);
    await this.#budgeted(() => this.#readToHead());
  }

  /**
   * Copies what the journey changes in place (the legs' array, the notes, the cursor); the legs
   * themselves are shared with the snapshot (a watch's record holds it): a leg is replaced, never
   * changed in place.
   */
  #load(snapshot: JourneySnapshot): void {
    this.#legs = [...snapshot.legs];
    this.#messageId = snapshot.messageId;
    this.#notes = [...snapshot.notes];
    this.#cursor = snapshot.cursor && { ...snapshot.cursor };
  }

  answer(): StatusAnswer {
    const { status, final } = summarise(this.#legs, { byBlockHash: this.req.blockHash !== undefined });
    return {
      status,
      final,
      ...(this.#messageId ? { messageId: this.#messageId } : {}),
      legs: this.#legs.map((leg) => ({ ...leg, events: [...leg.events] })),
      ...(this.#notes.length + this.#stops.length ? { note: [...this.#notes, ...this.#stops].join(' ') } : {}),
    };
  }

  /** Finds the extrinsic and reads each later chain up to its finalized head. */
  async scan(): Promise<void> {
    await this.#budgeted(async () => {
      const { from, txHash, blockHash } = this.req;
      if (blockHash) {
        // A block the chain does not know, or without the extrinsic, is a final not-found.
        const block = await this.reader.blockByHash(from, blockHash);
        const index = block ? await indexIn(block, txHash) : -1;
        if (block && index >= 0) await this.#takeOrigin(block, index);
      } else {
        const { head, found } = await lookBack(this.reader, from, txHash, this.limits.lookback);
        if (found) await this.#takeOrigin(found.block, found.index);
        else this.#cursor = { leg: 0, chain: from, next: head.number + 1 };
      }
      await this.#readToHead();
    });
  }

  /**
   * Reads each new finalized block of the chain that can change the answer, until the answer is
   * final (or the signal aborts). `changed` is called once the watch is set up (nothing later is
   * missed), and again whenever a leg changed.
   */
  async follow(watchers: HeadWatchers, changed: () => void, signal: AbortSignal): Promise<void> {
    await this.#budgeted(async () => {
      for (let cursor = this.#cursor; cursor; cursor = this.#cursor) {
        const heads = await watchers.watch(cursor.chain, this.reader.endpoints(cursor.chain), signal, this.indexed ? this.#interest(cursor) : undefined);
        this.#heads = { heads, cursor };
        try {
          changed();
          while (!(await this.#take(cursor, await heads.next(signal), signal)));
        } finally {
          if (this.#cursor === cursor && cursor.next !== undefined) cursor.next = heads.caughtUp(cursor.next);
          this.#heads = undefined;
          heads.close();
        }
        await this.#readToHead();
      }
    });
    changed();
  }

  /**
   * Carries on from a snapshot with a block a head watcher offered for its cursor (a watch that
   * waited without a journey of its own): reads first what the watcher did not check for it, looks
   * at the block, and once the cursor moved on reads each later chain up to its finalized head.
   */
  async resumeWith(snapshot: JourneySnapshot, offered: Offered, signal: AbortSignal): Promise<void> {
    this.#load(snapshot);
    await this.#budgeted(async () => {
      const cursor = this.#cursor;
      if (cursor?.chain === offered.block.chain && (await this.#take(cursor, offered, signal))) await this.#readToHead();
    });
  }

  /** Looks at a block offered for `cursor` (after what came before it, unread); true when the cursor moved on. */
  async #take(cursor: Cursor, { block, passedFrom }: Offered, signal: AbortSignal): Promise<boolean> {
    if (passedFrom !== undefined && cursor.next !== undefined) {
      // The watcher looked in the blocks it passed over: read only what came before them.
      if (cursor.next < passedFrom && (await this.#readRange(cursor, passedFrom - 1))) return true;
      if (cursor.next >= passedFrom) cursor.next = Math.max(cursor.next, block.number);
    }
    const next = cursor.next ?? block.number;
    if (block.number < next) return false;
    // A gap (the watch began, or the node skipped ahead): read it first, in order.
    if (block.number > next && (await this.#readRange(cursor, block.number - 1))) return true;
    this.reader.count(block.chain, block.number);
    // The watcher reads the block for every stream: this one stops waiting when it ends, and
    // counts what the block cost against its own budget.
    const found = await abortable(this.#visit(cursor, block), signal);
    this.reader.charge(block);
    return found;
  }

  /** What alone can settle the cursor: its extrinsic on the origin, else its message's outcome. */
  #interest(cursor: Cursor): Interest | undefined {
    return interestOf(this.req, cursor.leg, this.#messageId);
  }

  async #takeOrigin(block: BlockView, index: number): Promise<void> {
    const origin = await readOrigin(block, index);
    if (this.timed) this.#settledAt = await block.timestamp();
    const route = origin.leg.state === 'failed' ? [] : laterLegs(this.req.from, this.req.to, origin.sentTo);
    this.#messageId = origin.messageId;
    this.#cursor = undefined;
    if (route.length > 0 && !origin.messageId && origin.downwardFrom === undefined) {
      this.#legs = [origin.leg, ...route.map((step) => ({ ...pendingLeg(step.chain, step.role), state: 'not-found' as const }))];
      this.#notes.push(NO_MESSAGE);
      return;
    }
    this.#legs = [origin.leg, ...route.map((step) => pendingLeg(step.chain, step.role))];
    if (route.some((step) => step.role === 'bridge')) this.#notes.push(BEYOND_BRIDGE);
    const sentAt = origin.messageId ? {} : { sentAt: origin.downwardFrom };
    if (route.length > 0) this.#cursor = { leg: 1, chain: route[0]!.chain, since: await block.timestamp(), ...sentAt };
  }

  /** Reads the cursor's chain (and then the next ones) up to each finalized head. */
  async #readToHead(): Promise<void> {
    for (let cursor = this.#cursor; cursor; cursor = this.#cursor) {
      let head: number;
      if (cursor.next === undefined) {
        const search = await this.search(this.reader, cursor.chain, cursor.since ?? 0, this.limits.maxBlocks);
        cursor.next = search.start;
        head = search.head.number;
        if (search.beyond) this.#notes.push(`The transfer is older than the last ${this.limits.maxBlocks} blocks of ${cursor.chain} (TRACK_MAX_BLOCKS): its message may have been processed before them.`);
      } else {
        head = (await this.reader.head(cursor.chain)).number;
      }
      if (!(await this.#readRange(cursor, head))) return;
    }
  }

  /** Reads `cursor.next` .. `last`, a batch of blocks at a time; true when the cursor moved on. */
  async #readRange(cursor: Cursor, last: number): Promise<boolean> {
    while (cursor.next !== undefined && cursor.next <= last) {
      const first = cursor.next;
      const numbers = Array.from({ length: Math.min(this.reader.batch(), last - first + 1) }, (_, i) => first + i);
      const blocks = await Promise.all(numbers.map((n) => this.reader.blockAt(cursor.chain, n)));
      // Fetch the batch together; each block is then looked at in order.
      await Promise.all(blocks.map((block) => (cursor.leg === 0 ? block?.extrinsics() : block?.events())));
      for (const block of blocks) {
        if (!block) return false;
        if (await this.#visit(cursor, block)) return true;
      }
    }
    return false;
  }

  /** Looks for the cursor's target in one block; true when found (the cursor moved on). */
  async #visit(cursor: Cursor, block: BlockView): Promise<boolean> {
    cursor.next = block.number + 1;
    if (cursor.leg === 0) {
      const index = await indexIn(block, this.req.txHash);
      if (index < 0) return false;
      await this.#takeOrigin(block, index);
      return true;
    }
    if (this.#messageId === undefined) {
      const taken = await this.#takeDownward(cursor, block);
      // Told apart from none: the leg ends here, and the cursor with it.
      if (taken !== 'found') return taken === 'ambiguous';
    }
    const outcome = findMessage(await block.events(), this.#messageId!);
    if (!outcome) return false;
    const leg = cursor.leg;
    this.#legs[leg] = reachedLeg(this.#legs[leg]!, block, outcome);
    if (this.timed) this.#settledAt = await block.timestamp();
    const next = this.#legs[leg + 1];
    this.#cursor = outcome.state === 'success' && next ? { leg: leg + 1, chain: next.chain, since: await block.timestamp() } : undefined;
    return true;
  }

  /**
   * Looks for the downward message a relay sent without naming it among what `block` received (the
   * one from the origin's block that brings assets): its hash is then the message's id. Several
   * transfers to the chain in the same relay block cannot be told apart.
   */
  async #takeDownward(cursor: Cursor, block: BlockView): Promise<'found' | 'absent' | 'ambiguous'> {
    const sent = (await block.downwardMessages()).filter((m) => m.sentAt === cursor.sentAt && m.bringsAssets);
    if (sent.length === 0) return 'absent';
    if (sent.length > 1) {
      this.#legs[cursor.leg] = { ...this.#legs[cursor.leg]!, state: 'not-found' };
      this.#cursor = undefined;
      this.#notes.push(`${this.req.from} names no message in its events, and ${block.chain} received ${sent.length} that bring assets from its block ${cursor.sentAt}: which is this transfer's cannot be told.`);
      return 'ambiguous';
    }
    this.#messageId = sent[0]!.hash;
    return 'found';
  }

  /** Past TRACK_MAX_BLOCKS the answer is what is known so far, not final, and says why. */
  async #budgeted(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof BlockBudgetSpent)) throw error;
      this.stop(`Stopped after reading ${error.limit} blocks (TRACK_MAX_BLOCKS); ask again to continue from the newest blocks.`);
    }
  }
}
