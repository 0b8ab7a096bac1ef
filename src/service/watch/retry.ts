// When a webhook that was not delivered is tried again.
import type { RetryPolicy } from './backend';

export interface RetrySettings {
  /** WATCH_RETRY_FIRST_MS: the step before the second try. */
  firstMs: number;
  /** WATCH_RETRY_MAX_MS: the longest wait between two tries. */
  maxMs: number;
  /** WATCH_RETRY_FOR_MS: tries stop this long after the first. */
  forMs: number;
}

/** A try left unanswered until its deadline is retried as if it had failed this many more times (4x the wait). */
export const SLOW_STEPS = 2;

/**
 * Exponential backoff with "equal jitter": the step doubles from `firstMs` up to `maxMs`, and each
 * wait is drawn between half the step and the whole of it. The jitter spreads the retries of the
 * many events that fail together when a receiver goes down, so they do not all land on it the
 * moment it comes back; keeping half the step (rather than full jitter's 0..step) keeps the
 * schedule growing and never retries a receiver that just failed within milliseconds.
 */
export class ExponentialRetry implements RetryPolicy {
  readonly giveUpAfterMs: number;

  constructor(
    private readonly settings: RetrySettings,
    /** A number in [0, 1): Math.random, or a fixed sequence in tests. */
    private readonly random: () => number = Math.random,
  ) {
    this.giveUpAfterMs = settings.forMs;
  }

  /** The step after `attempt` failed tries (1-based): firstMs · 2^(attempt−1), at most maxMs. */
  stepMs(attempt: number): number {
    const { firstMs, maxMs } = this.settings;
    // 2^52 is past any maxMs the config admits; the cap keeps the power finite.
    return Math.min(maxMs, firstMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 52));
  }

  /**
   * `slow`: the try had no answer in time. Such a receiver held a delivery slot for the whole
   * deadline; its next try waits the step of SLOW_STEPS more failures, so that it holds fewer.
   */
  delayMs(attempt: number, slow = false): number {
    const step = this.stepMs(slow ? attempt + SLOW_STEPS : attempt);
    return Math.round(step / 2 + (this.random() * step) / 2);
  }
}

/** The policy the config asks for. */
export function retryPolicyFrom(config: { WATCH_RETRY_FIRST_MS: number; WATCH_RETRY_MAX_MS: number; WATCH_RETRY_FOR_MS: number }): ExponentialRetry {
  return new ExponentialRetry({ firstMs: config.WATCH_RETRY_FIRST_MS, maxMs: config.WATCH_RETRY_MAX_MS, forMs: config.WATCH_RETRY_FOR_MS });
}
