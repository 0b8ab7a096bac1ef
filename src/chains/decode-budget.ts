// Metadata decodes a client may make the service do, per minute. A decode costs 170-250 ms of CPU
// (Asset Hub's metadata, polkadot.js), in pieces that hold the loop up to ~90 ms each
// (runtime-cache.ts), spent for every client: the runtime cache
// (runtime-cache.ts) spares a client who comes back to the same node, but a client naming node
// after node, or a node that changes its answers, would otherwise make one on every connection.
// Decodes of a registry connection (the operator's work) and those a kept runtime spares are free.
import { TooManyDecodesError } from '../errors';

const MINUTE_MS = 60_000;

export class DecodeBudget {
  /** Each client's decodes in the last minute, oldest first (at most `perMinute`). */
  readonly #spent = new Map<string, number[]>();

  /** `perMinute` 0: no bound. */
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a decode for `client`, or throws TooManyDecodesError when its minute's are spent. */
  spend(client: string): void {
    if (this.perMinute === 0) return;
    const now = this.now();
    // Clients whose last decode is a minute old are forgotten: the map holds only this minute's.
    for (const [name, times] of this.#spent) if (times.at(-1)! <= now - MINUTE_MS) this.#spent.delete(name);
    const times = (this.#spent.get(client) ?? []).filter((t) => t > now - MINUTE_MS);
    if (times.length >= this.perMinute) throw new TooManyDecodesError(this.perMinute, Math.ceil((times[0]! + MINUTE_MS - now) / 1000));
    times.push(now);
    this.#spent.set(client, times);
  }
}
