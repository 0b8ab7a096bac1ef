// What a watch is, what it has seen and what it owes its receiver: the records every watch backend
// (memory, Redis) keeps the same way, plain JSON so they cross processes unchanged.
import type { StatusRequest } from '../../schemas/status';
import type { StatusAnswer } from '../status';

export interface Webhook {
  /** http(s) URL that passed the address guard when the watch was made (checked again at each try). */
  url: string;
  /** Standard Webhooks signing secret, `whsec_` and base64. */
  secret: string;
}

export interface Watch {
  /** Unguessable: holding it is what lets a client read or end the watch. Letters, digits, `_`, `-` and `.` (BullMQ job ids). */
  id: string;
  /** The client that made it (`key:<name>` with API keys, else `ip:<address>`): only it sees or ends it. */
  owner: string;
  request: StatusRequest;
  webhook: Webhook;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms after which following stops with a `transfer.timeout` event. */
  expiresAt: number;
}

/** One webhook the watch owes: fixed when it is made, so every retry sends the same id and body. */
export interface WatchEvent {
  /** The `webhook-id`: `<watch id>.<seq>`, the same on every try and every replica. */
  id: string;
  /** 0, 1, 2... in the order the changes happened; delivered in this order. */
  seq: number;
  /** `transfer.<status>` or `transfer.timeout`. */
  type: string;
  /** The exact JSON body sent: `{ type, timestamp, data }`. */
  body: string;
  /** Epoch ms of the block that settled the change (for the block-to-receiver latency), when known. */
  settledAt?: number;
}

export type DeliveryState = 'waiting' | 'retrying' | 'delivered' | 'failed' | 'cancelled';

/** Where one event's delivery stands (what `GET /x-transfer/watch/:id` lists). */
export interface Delivery {
  eventId: string;
  type: string;
  state: DeliveryState;
  attempts: number;
  /** The receiver's last HTTP status, absent when it gave none (refused, timed out). */
  lastCode?: number;
  /** Why the last try was not a delivery, when it was not. */
  lastError?: string;
  /** Epoch ms of the last try. */
  lastAt?: number;
  /** Epoch ms of the next try, while retrying. */
  nextAt?: number;
}

/** How following a watch stands: enough for another process to carry on where this one stopped. */
export interface WatchProgress {
  /** The status answer as last read. */
  status: StatusAnswer;
  /** Opaque to backends: what the follower needs to resume (the journey's cursor and legs). */
  resume?: unknown;
  /** Set once following has stopped for good. */
  ended?: 'final' | 'timeout' | 'deleted';
  /** Events made so far (the next event's seq). */
  events: number;
}

/** The outcome of one try to deliver an event; `slow`: no answer within the deadline (retried at a slower pace). */
export type DeliveryResult = { ok: true; code: number } | { ok: false; code?: number; error: string; slow?: true };

/** Fields whose strings are each watch's own (ids, hashes, secrets): not worth sharing. */
const OWN = new Set(['id', 'secret', 'txHash', 'blockHash', 'messageId', 'hash']);
/** Strings shared by the records that hold them; started afresh past this many (a bound, not a cache to keep). */
const SHARED_MAX = 10_000;
let shared = new Map<string, string>();

/** One string for equal values (a chain's name, a leg's state, an event's name, an owner, a webhook URL). */
function share(key: string, value: string): string {
  if (OWN.has(key) || value.startsWith('0x')) return value;
  const held = shared.get(value);
  if (held !== undefined) return held;
  if (shared.size >= SHARED_MAX) shared = new Map();
  shared.set(value, value);
  return value;
}

/** The strings of a parse shared in place: a field set to an equal string keeps its object's layout. */
function shareIn(value: unknown): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const held: unknown = value[i];
      if (typeof held === 'string') value[i] = share('', held);
      else shareIn(held);
    }
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const held = record[key];
      if (typeof held === 'string') record[key] = share(key, held);
      else shareIn(held);
    }
  }
}

/**
 * `value` as parsed JSON, its repeated strings shared: V8 lays out each object and array of a parse
 * at its exact size, where the records a request or a journey builds by spreading and pushing take
 * about twice that. A waiting watch holds its records for up to an hour (100,000 watches: most of
 * the heap), and records are plain JSON by design. The strings are shared by a walk over the
 * parse, not by a reviver: V8 calls a reviver through a slower parse, for every value.
 */
export function compact<T>(value: T): T {
  const copy: unknown = JSON.parse(JSON.stringify(value));
  if (typeof copy === 'string') return share('', copy) as T;
  shareIn(copy);
  return copy as T;
}

/** Progress as kept once following has ended: what resumes following is no longer needed. */
export function endedProgress({ status, events, ended }: WatchProgress): WatchProgress {
  // Field by field: a rest copy (`{ resume, ...kept }`) took 45 ms of self time over a burst of 5,000 endings (issue 44).
  return ended === undefined ? { status, events } : { status, events, ended };
}
