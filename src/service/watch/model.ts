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

/** Progress as kept once following has ended: what resumes following is no longer needed. */
export function endedProgress(progress: WatchProgress): WatchProgress {
  const { resume: _resume, ...kept } = progress;
  return kept;
}
