// A FollowWork written as an async function of an AbortSignal, the shape a test or bench finds
// easiest: the signal aborts on `stop`, and `done` is called once the function has returned (or thrown).
import type { FollowWork } from '../../src/service/watch/backend';
import type { Watch, WatchProgress } from '../../src/service/watch/model';

export const followAsync =
  (work: (watch: Watch, progress: WatchProgress, signal: AbortSignal) => Promise<unknown>): FollowWork =>
  (watch, progress, done) => {
    const controller = new AbortController();
    void work(watch, progress, controller.signal)
      .catch(() => undefined)
      .finally(done);
    return { stop: (reason) => controller.abort(reason) };
  };
