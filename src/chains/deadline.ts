import { DeadlineExceededError } from '../errors';

/**
 * Runs `work` with a signal that aborts after `ms`. The SDK never gives up on its own
 * (an unreachable chain is retried forever), so every live call gets a deadline of ours.
 * An overrun rejects with DeadlineExceededError even if `work` ignores the signal; errors
 * from `work` (ApiErrors included) pass through unchanged.
 */
export function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, what: string): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new DeadlineExceededError(what, ms);
      // Whatever waits on the signal (pool acquires) rejects with the same error.
      controller.abort(error);
      reject(error);
    }, ms);
    Promise.resolve()
      .then(() => work(controller.signal))
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}
