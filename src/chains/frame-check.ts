// What a connection accepts from a node: an answer to a request it sent, or a notification on a
// subscription a node gave it in answer to a subscribe request, with that subscription's method.
// Anything else fails the connection before a client sees it. This is also the connection's memory
// bound for node data: polkadot.js keeps every notification it cannot place ("for an id that may
// come later", one entry per method and subscription id, without bound); here none reaches it.
// What the check itself holds is our own request ids and the subscription ids we were given.
//
// A large frame (a block of big extrinsics, a metadata blob) is not parsed here: it is skimmed
// (skim.ts), its envelope read and its nesting bounded in one pass that jumps over strings, and
// the client's own parse is the only one. What the skim does not read, the contents of strings,
// the client's parse refuses if it is not JSON, and that fails the connection too (containment).
//
// One reordering is tolerated: a notification for a subscription id not yet given, while a subscribe
// request whose notifications carry its method still awaits its answer (chopsticks sends the first
// runtime version before the answer with its id; polkadot.js and polkadot-api accept that). It is
// held, within a bound of frames, bytes and time, and delivered right after the answer that gives
// its id; past the bound, or once no pending request can give that id, it fails the connection.
import { quote } from './address-guard';
import { OVER_BUDGET_CODE, type AnswerBudget } from './answer-budget';
import { skim, SkimRefusal, UNREAD } from './skim';

/** Deepest JSON nesting accepted in a frame (a few levels is all any answer we read has). */
export const MAX_JSON_DEPTH = 64;
/** Requests awaiting an answer that are remembered; past it the oldest is forgotten (its answer then fails the connection). */
const MAX_PENDING_IDS = 10_000;
/** Longest subscription id accepted (nodes give a number or a short string). */
const MAX_SUBSCRIPTION_ID = 128;
/**
 * Runtime versions one subscription may announce: the current one, then upgrades. Each change
 * makes ApiPromise fetch and decode the metadata again; a chain upgrades every few weeks.
 */
export const MAX_RUNTIME_VERSIONS = 3;
/** Notifications held at once for subscription ids not yet given (chopsticks sends one per subscription). */
export const MAX_HELD_FRAMES = 16;
/** Characters of the notifications held at once. */
export const MAX_HELD_CHARS = 1024 * 1024;
/** How long a notification may wait for the answer that gives its subscription id. */
export const HOLD_MS = 5_000;

// Subscribe methods and the methods of their notifications: polkadot.js's `pubsub` definitions
// (with their aliases) and the JSON-RPC spec's, as polkadot-api sends them.
const NOTIFICATIONS: Record<string, readonly string[]> = {
  state_subscribeRuntimeVersion: ['state_runtimeVersion'],
  chain_subscribeRuntimeVersion: ['state_runtimeVersion'],
  state_subscribeStorage: ['state_storage'],
  chain_subscribeNewHead: ['chain_newHead'],
  chain_subscribeNewHeads: ['chain_newHead'],
  subscribe_newHead: ['chain_newHead'],
  chain_subscribeFinalizedHeads: ['chain_finalizedHead', 'chain_finalisedHead'],
  chain_subscribeFinalisedHeads: ['chain_finalizedHead', 'chain_finalisedHead'],
  chain_subscribeAllHeads: ['chain_allHead'],
  author_submitAndWatchExtrinsic: ['author_extrinsicUpdate'],
  grandpa_subscribeJustifications: ['grandpa_justifications'],
  beefy_subscribeJustifications: ['beefy_justifications'],
  eth_subscribe: ['eth_subscription'],
  chainHead_v1_follow: ['chainHead_v1_followEvent'],
  chainHead_unstable_follow: ['chainHead_unstable_followEvent'],
  transactionWatch_v1_submitAndWatch: ['transactionWatch_v1_watchEvent'],
  transactionWatch_unstable_submitAndWatch: ['transactionWatch_unstable_watchEvent'],
};

/** Methods that end the subscription named by their first parameter. */
const UNSUBSCRIBES = new Set([
  'state_unsubscribeRuntimeVersion',
  'chain_unsubscribeRuntimeVersion',
  'state_unsubscribeStorage',
  'chain_unsubscribeNewHead',
  'chain_unsubscribeNewHeads',
  'unsubscribe_newHead',
  'chain_unsubscribeFinalizedHeads',
  'chain_unsubscribeFinalisedHeads',
  'chain_unsubscribeAllHeads',
  'author_unwatchExtrinsic',
  'grandpa_unsubscribeJustifications',
  'beefy_unsubscribeJustifications',
  'eth_unsubscribe',
  'chainHead_v1_unfollow',
  'chainHead_unstable_unfollow',
  'transactionWatch_v1_unwatch',
  'transactionWatch_unstable_unwatch',
]);

/** A request awaiting its answer: what its answer starts or ends, if anything, and the budget it is read under. */
interface Asked {
  readonly budget?: AnswerBudget;
  /** A subscribe request: the methods its notifications will carry. */
  readonly notifications?: readonly string[];
  /** An unsubscribe request: the subscription it ends once answered. */
  readonly ends?: string;
}

interface Subscription {
  readonly methods: readonly string[];
  /** Notifications delivered so far. */
  delivered: number;
  /** Unsubscribe sent: notifications still on the way are dropped (the client no longer listens). */
  ending: boolean;
}

/** A notification waiting for the answer that gives its subscription id. */
interface Held {
  readonly text: string;
  readonly method: string;
  readonly subscription: string;
}

/**
 * Deliver the frame, drop it unseen, hold it (until its subscription id is given), deliver a small
 * answer `instead` of it, deliver it and `then` the notifications held for the subscription it gives,
 * or fail the connection for the reason given.
 */
export type Verdict = 'deliver' | 'drop' | 'hold' | { instead: string } | { then: readonly string[] } | { problem: string };

const problem = (text: string): Verdict => ({ problem: text });

/**
 * Whether JSON text nests arrays and objects deeper than `max`, read without parsing and without
 * recursion (a 300,000-deep value would overflow the stack of whatever walks it later: a decoder,
 * JSON.stringify). Text that is not JSON may answer either way; the parse that follows refuses it.
 * Linear in the text; most answers (a metadata blob, a block) hold too few brackets to need the scan.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  if (bracketsAtMost(text, max)) return false;
  let depth = 0;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // A string: its brackets do not count. Skip to its closing quote, past escaped characters.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

const [QUOTE, BACKSLASH, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x22, 0x5c, 0x5b, 0x5d, 0x7b, 0x7d];

/** Whether `text` holds at most `limit` opening brackets in all (then it cannot nest deeper); found natively. */
function bracketsAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const open of ['[', '{']) {
    for (let at = text.indexOf(open); at >= 0; at = text.indexOf(open, at + 1)) if (++count > limit) return false;
  }
  return true;
}

const deepProblem = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const neverGiven = (held: Held): string => `notification ${quote(held.method, 60)} for subscription ${quote(held.subscription, 40)}, which was never given`;
const isId = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';

/** Frames at least this long (characters) are skimmed, not parsed. */
export const SKIM_FROM_CHARS = 64 * 1024;

/** The frame check of one connection: what it asked, what it subscribed to, what it accepts. */
export class FrameCheck {
  readonly #pending = new Map<string, Asked>();
  readonly #subscriptions = new Map<string, Subscription>();
  /** Notifications that came before the answer giving their subscription id, in arrival order. */
  #held: Held[] = [];
  #heldChars = 0;
  /** When the oldest held notification came (`now()`'s clock). */
  #heldSince = 0;

  /**
   * `skimFrom`: the frame length from which frames are skimmed (tests skim every frame with 0);
   * `now`: the clock the hold is timed by.
   */
  constructor(
    readonly skimFrom = SKIM_FROM_CHARS,
    readonly now: () => number = Date.now,
  ) {}

  /** Whether notifications are held for subscription ids not yet given. */
  get holding(): boolean {
    return this.#held.length > 0;
  }

  /** Why the connection must fail if notifications have been held longer than HOLD_MS; undefined if not. */
  heldTooLong(): string | undefined {
    const oldest = this.#held[0];
    if (!oldest || this.now() - this.#heldSince < HOLD_MS) return undefined;
    return `${neverGiven(oldest)} in ${HOLD_MS} ms`;
  }

  /** Notes a request the client sends (JSON text; anything else is not a request of ours), read under `budget` if given. */
  sent(text: string, budget?: AnswerBudget): void {
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch {
      return;
    }
    if (!isPlainObject(request) || !isId(request.id)) return;
    const method = typeof request.method === 'string' ? request.method : '';
    const first = Array.isArray(request.params) ? request.params[0] : undefined;
    let asked: Asked = { budget };
    if (Object.hasOwn(NOTIFICATIONS, method)) asked = { budget, notifications: NOTIFICATIONS[method] };
    else if (UNSUBSCRIBES.has(method) && isId(first)) {
      const subscription = this.#subscriptions.get(String(first));
      if (subscription) {
        subscription.ending = true;
        asked = { budget, ends: String(first) };
      }
    }
    if (this.#pending.size >= MAX_PENDING_IDS) this.#pending.delete(this.#pending.keys().next().value as string);
    this.#pending.set(String(request.id), asked);
  }

  /** The verdict on one frame from the node; `onRpcError` hears each JSON-RPC error answer (`code: message`). */
  received(text: string, isBinary: boolean, onRpcError: (error: string) => void): Verdict {
    if (isBinary) return problem('binary frame');
    let frame: unknown;
    if (text.length >= this.skimFrom) {
      try {
        frame = skim(text, MAX_JSON_DEPTH);
      } catch (error) {
        if (error instanceof SkimRefusal) return problem(error.deep ? deepProblem : `not JSON (${error.message})`);
        throw error;
      }
    } else {
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return problem(deepProblem);
      try {
        frame = JSON.parse(text);
      } catch (error) {
        return problem(`not JSON (${error instanceof Error ? error.message : 'unparsable'})`);
      }
    }
    if (!isPlainObject(frame)) return problem(`not a JSON-RPC object (${frame === null ? 'null' : Array.isArray(frame) ? 'array' : frame === UNREAD ? 'a long value' : typeof frame})`);
    if (frame.jsonrpc !== '2.0') return problem('jsonrpc is not "2.0"');
    const late = this.heldTooLong();
    if (late !== undefined) return problem(late);
    return frame.method === undefined ? this.#answer(frame, text, onRpcError) : this.#notification(frame, text);
  }

  #notification(frame: Record<string, unknown>, text: string): Verdict {
    const { method, params } = frame;
    if (typeof method !== 'string') return problem('method is not a string');
    const name = quote(method, 60);
    if (!isPlainObject(params)) return problem(`notification ${name} without params`);
    if (!isId(params.subscription)) return problem(`notification ${name} without a subscription id`);
    if (!('result' in params) && !('error' in params)) return problem(`notification ${name} without a result`);
    const id = String(params.subscription);
    const subscription = this.#subscriptions.get(id);
    if (!subscription) return this.#hold({ text, method, subscription: id });
    return this.#onSubscription(subscription, method) ?? 'deliver';
  }

  /** The problem with one more notification `method` on `subscription`, or undefined when it is delivered (and counted). */
  #onSubscription(subscription: Subscription, method: string): Verdict | undefined {
    if (subscription.ending) return 'drop';
    if (!subscription.methods.includes(method)) return problem(`notification ${quote(method, 60)} on a subscription whose notifications are ${subscription.methods[0]}`);
    if (method === 'state_runtimeVersion' && subscription.delivered >= MAX_RUNTIME_VERSIONS) {
      return problem(`more than ${MAX_RUNTIME_VERSIONS} runtime versions announced on one subscription (each one is the metadata downloaded and decoded again)`);
    }
    subscription.delivered++;
    return undefined;
  }

  /** Holds a notification for an id not yet given, if a pending subscribe request may still give it. */
  #hold(held: Held): Verdict {
    const never = neverGiven(held);
    if (!this.#awaited(held.method)) return problem(never);
    if (this.#held.length >= MAX_HELD_FRAMES || this.#heldChars + held.text.length > MAX_HELD_CHARS) {
      return problem(`${never}: more than ${MAX_HELD_FRAMES} notifications or ${MAX_HELD_CHARS} bytes wait for subscription ids`);
    }
    if (this.#held.length === 0) this.#heldSince = this.now();
    this.#held.push(held);
    this.#heldChars += held.text.length;
    return 'hold';
  }

  /** Whether a subscribe request awaiting its answer has notifications carrying `method`. */
  #awaited(method: string): boolean {
    for (const asked of this.#pending.values()) if (asked.notifications?.includes(method)) return true;
    return false;
  }

  /**
   * The notifications held for the subscription just given, to deliver after its answer; a problem if
   * one is refused on it, or if others are held that no pending subscribe request can give an id to.
   */
  #release(id: string, subscription: Subscription): Verdict {
    const released: string[] = [];
    const kept: Held[] = [];
    for (const held of this.#held) {
      if (held.subscription !== id) kept.push(held);
      else {
        const refusal = this.#onSubscription(subscription, held.method);
        if (refusal === 'drop') continue;
        if (refusal !== undefined) return refusal;
        released.push(held.text);
      }
    }
    this.#held = kept;
    this.#heldChars = kept.reduce((sum, held) => sum + held.text.length, 0);
    return this.#orphaned() ?? (released.length > 0 ? { then: released } : 'deliver');
  }

  /** A problem if a notification is held that no pending subscribe request can give an id to any more. */
  #orphaned(): Verdict | undefined {
    const orphan = this.#held.find((held) => !this.#awaited(held.method));
    return orphan && problem(neverGiven(orphan));
  }

  #answer(frame: Record<string, unknown>, text: string, onRpcError: (error: string) => void): Verdict {
    const length = text.length;
    if (!isId(frame.id)) return problem('answer without an id');
    const id = String(frame.id);
    const asked = this.#pending.get(id);
    if (!asked) return problem(`answer to id ${quote(id, 40)}, which was never asked`);
    this.#pending.delete(id);
    if (asked.ends !== undefined) this.#subscriptions.delete(asked.ends);
    if (asked.budget && !asked.budget.fits(length)) {
      const message = `an answer of ${length} bytes, more than the request may still read`;
      return (asked.notifications && this.#orphaned()) ?? { instead: JSON.stringify({ jsonrpc: '2.0', id: frame.id, error: { code: OVER_BUDGET_CODE, message } }) };
    }
    if ('error' in frame) {
      const e = frame.error;
      if (!isPlainObject(e) || typeof e.code !== 'number' || typeof e.message !== 'string') return problem('error without a numeric code and a message');
      onRpcError(`${e.code}: ${e.message}`);
      return (asked.notifications && this.#orphaned()) ?? 'deliver';
    }
    if (!('result' in frame)) return problem('answer without result or error');
    if (asked.notifications) {
      const subscription = frame.result;
      if (!isId(subscription) || String(subscription).length > MAX_SUBSCRIPTION_ID) return problem(`subscription id ${quote(JSON.stringify(subscription) ?? '', 40)} is not a short string or a number`);
      const given: Subscription = { methods: asked.notifications, delivered: 0, ending: false };
      this.#subscriptions.set(String(subscription), given);
      if (this.#held.length > 0) return this.#release(String(subscription), given);
    }
    return 'deliver';
  }
}
