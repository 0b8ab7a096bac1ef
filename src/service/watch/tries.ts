// What one delivery try does to an event's record, the same in every backend: a 2xx settles it; any
// other answer schedules the next try from the RetryPolicy (slower after a try the receiver left
// unanswered: it held a slot for the whole deadline), unless that try would come after the
// policy gives up, in which case the event is failed now rather than after a pointless wait.
import type { RetryPolicy } from './backend';
import type { Delivery, DeliveryResult } from './model';

/** The record after the try that started at `now` and answered `result`; `firstAt` is when the first try started. */
export function afterTry(delivery: Delivery, result: DeliveryResult, policy: RetryPolicy, firstAt: number, now: number): Delivery {
  const attempts = delivery.attempts + 1;
  const tried: Delivery = { eventId: delivery.eventId, type: delivery.type, state: delivery.state, attempts, lastAt: now };
  if (result.code !== undefined) tried.lastCode = result.code;
  if (result.ok) return { ...tried, state: 'delivered' };
  tried.lastError = result.error;
  const nextAt = now + Math.max(0, policy.delayMs(attempts, result.slow === true));
  if (nextAt > firstAt + policy.giveUpAfterMs) return { ...tried, state: 'failed' };
  return { ...tried, state: 'retrying', nextAt };
}

export const waiting = (event: { id: string; type: string }): Delivery => ({ eventId: event.id, type: event.type, state: 'waiting', attempts: 0 });

/** A deliver work that broke its promise never to reject counts as a failed try. */
export const failedTry = (error: unknown): DeliveryResult => ({ ok: false, error: error instanceof Error ? error.message : String(error) });
