// Slots of one process shared fairly: no owner and no host holds more than its cap, and a freed slot
// goes to the waiting owner served least recently (round robin, a newcomer first), each owner's hosts
// in turn too. Delivery tries take them (WATCH_MAX_DELIVERIES; the host is the receiver's): first come,
// first served let receivers that never answer hold every slot, and another client's first webhook
// waited behind all of their tries. Follows take them for each run (follower.ts): a herd of watches
// woken at once reads a bounded number at a time, each owner in turn.
// A receiver host whose try got no answer in time is in the slow lane until a try of its answers 2xx:
// its tries hold at most `slow` slots together, so hung receivers, however many owners hold them, leave
// the other slots to everyone else (six owners' hung receivers had held all 64: issue 42).
// A host not yet known to hang is in the usual lane: a usual-lane try left unanswered for `cutMs` while
// another owner's try waits for a slot is cut (its signal aborts) and its host moves to the slow lane,
// so that a burst of new hung receivers holds every slot for `cutMs`, not for a whole delivery
// timeout. That holds behind a host's cap too: another owner's webhook to a host whose cap is held by
// hung tries (receivers of two clients on one host) has one of them cut. A try nobody else waits
// behind is never cut.

import type { BackendOptions } from './backend';

/** Whom a slot is for: its watch's owner and (for a delivery) its receiver's host. */
export interface SlotKey {
  owner: string;
  host: string;
}

export interface SlotLimits {
  /** WATCH_MAX_DELIVERIES: tries in flight at once. */
  total: number;
  /** WATCH_MAX_DELIVERIES_PER_CLIENT: tries of one owner in flight at once. */
  perOwner: number;
  /** WATCH_MAX_DELIVERIES_PER_HOST: tries to one receiver host in flight at once. */
  perHost: number;
  /** Slots the slow lane's hosts may hold together (0: no slow lane, as for follows). */
  slow?: number;
  /** WATCH_DELIVERY_CUT_MS: a usual-lane try this old is cut when another owner waits (none: never cut, as for follows). */
  cutMs?: number;
}

/** A slot held: `release` gives it back (once); `cut` aborts when the try holding it is cut (slots with `cutMs`). */
export interface Slot {
  release(): void;
  cut?: AbortSignal;
}

/** A try holding a slot: whose, since when, in which lane, and how to cut it. */
interface Held {
  key: SlotKey;
  at: number;
  slow: boolean;
  cut: AbortController;
}

/** Waiting tries of an owner a cut could free a slot for: `host` named when only a slot of that host helps. */
interface Wanted {
  owner: string;
  host?: string;
  n: number;
}

/** Hosts remembered as slow at most: past it the one marked longest ago is forgotten (back to the fast lane). */
const MAX_SLOW_HOSTS = 10_000;

/** The slow lane's share of WATCH_MAX_DELIVERIES: an eighth, at least one (none when there is one slot). */
export const slowLaneOf = (total: number): number => (total > 1 ? Math.max(1, Math.floor(total / 8)) : 0);

/** The delivery slots of a backend with these options (both backends share them out alike). */
export const deliverySlotsOf = (options: BackendOptions): FairSlots =>
  new FairSlots({
    total: options.maxDeliveries,
    perOwner: options.maxDeliveriesPerClient,
    perHost: options.maxDeliveriesPerHost,
    slow: slowLaneOf(options.maxDeliveries),
    cutMs: options.deliveryCutMs,
  });

/** Waits for a slot: `grant` is called with it. */
export interface Waiter {
  grant(slot: Slot): void;
}

const bump = (counts: Map<string, number>, key: string, by: 1 | -1): void => {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
};

export class FairSlots {
  readonly #limits: SlotLimits;
  #running = 0;
  readonly #byOwner = new Map<string, number>();
  readonly #byHost = new Map<string, number>();
  /** Owners with tries waiting, each with its hosts in turn order (a Map keeps insertion order), each host's tries first come first served. */
  readonly #waiting = new Map<string, Map<string, Waiter[]>>();
  /** When each owner with tries running or waiting was last given a slot (a rising count). */
  readonly #served = new Map<string, number>();
  #tick = 0;
  /** Below every owner's turn (a new owner's is -1): the owner a try was cut for is served next. */
  #front = -2;
  /** Hosts in the slow lane (a Set keeps the order they were marked in), and the slots their tries hold. */
  readonly #slowHosts = new Set<string>();
  #slowRunning = 0;
  /** With `cutMs`: the tries holding slots, oldest first, and the timer of the next look for one to cut. */
  readonly #held = new Set<Held>();
  #cutTimer?: NodeJS.Timeout;
  /** The timer is a pause after a look that could not cut (not a try coming of age). */
  #paused = false;

  constructor(limits: SlotLimits) {
    this.#limits = {
      total: limits.total,
      perOwner: Math.min(limits.perOwner, limits.total),
      perHost: Math.min(limits.perHost, limits.total),
      slow: Math.min(limits.slow ?? 0, limits.total),
      cutMs: limits.cutMs,
    };
  }

  /** How a try to `host` ended: no answer in time (`slow`) moves the host to the slow lane, a 2xx takes it back. */
  tried(host: string, result: { ok: boolean; slow?: true }): void {
    if (!this.#limits.slow) return;
    if (result.ok) {
      // Its tries waiting on the slow lane may take a free slot now.
      if (this.#slowHosts.delete(host)) this.#grant();
    } else if (result.slow) this.#markSlow(host);
  }

  #markSlow(host: string): void {
    if (this.#slowHosts.has(host)) return;
    this.#slowHosts.add(host);
    if (this.#slowHosts.size > MAX_SLOW_HOSTS) this.#slowHosts.delete(this.#slowHosts.values().next().value!);
  }

  /** Whether a try to `host` may take a slot by its lane: a slow host only while the slow lane has one free. */
  #laneOpen(host: string): boolean {
    return !this.#slowHosts.has(host) || this.#slowRunning < (this.#limits.slow ?? 0);
  }

  /** The caps (perOwner and perHost no more than total). */
  get limits(): SlotLimits {
    return this.#limits;
  }

  /** Tries holding a slot. */
  get running(): number {
    return this.#running;
  }

  /** Tries waiting for one. */
  get waiting(): number {
    let n = 0;
    for (const hosts of this.#waiting.values()) for (const queue of hosts.values()) n += queue.length;
    return n;
  }

  /** Waiters of the key's owner, or for its host, whichever are more. */
  backlog(key: SlotKey): number {
    let host = 0;
    for (const hosts of this.#waiting.values()) host += hosts.get(key.host)?.length ?? 0;
    let owner = 0;
    for (const queue of this.#waiting.get(key.owner)?.values() ?? []) owner += queue.length;
    return Math.max(owner, host);
  }

  /**
   * A slot now if the key is under its caps and one is free, else undefined. It jumps no one: slots
   * are handed out whenever one frees, so whoever still waits is at a cap (or none is free).
   */
  tryAcquire(key: SlotKey): Slot | undefined {
    const { total, perOwner, perHost } = this.#limits;
    if (this.#running >= total || (this.#byOwner.get(key.owner) ?? 0) >= perOwner || (this.#byHost.get(key.host) ?? 0) >= perHost || !this.#laneOpen(key.host)) return undefined;
    this.#served.set(key.owner, this.#tick++);
    return this.#take(key);
  }

  /** Resolves with the slot (give it back once); a waiter whose signal aborts is rejected with its reason. */
  acquire(key: SlotKey, signal?: AbortSignal): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const onAbort = (): void => {
        this.cancel(key, waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.wait(key, waiter);
    });
  }

  /** Queues `waiter` for a slot (granted at once when one is free), without a promise: the waiter is the only object held. */
  wait(key: SlotKey, waiter: Waiter): void {
    let hosts = this.#waiting.get(key.owner);
    let queue = hosts?.get(key.host);
    // An owner that starts waiting (for a host) may be whom a cut was missing: it is looked for now, not after the pause.
    if (!queue && this.#paused) {
      clearTimeout(this.#cutTimer);
      this.#cutTimer = undefined;
      this.#paused = false;
    }
    if (!hosts) this.#waiting.set(key.owner, (hosts = new Map()));
    if (!queue) hosts.set(key.host, (queue = []));
    queue.push(waiter);
    this.#grant();
    this.#lookForCuts();
  }

  /** Takes a waiter that was not granted yet out of its queue. */
  cancel(key: SlotKey, waiter: Waiter): void {
    const queue = this.#waiting.get(key.owner)?.get(key.host);
    const at = queue?.indexOf(waiter) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    this.#prune(key);
  }

  /** Gives free slots to waiters: owners in turn, skipping an owner or a host at its cap. */
  #grant(): void {
    while (this.#running < this.#limits.total) {
      const next = this.#next();
      if (!next) return;
      next.waiter.grant(this.#take(next.key));
    }
  }

  #take(key: SlotKey): Slot {
    this.#running += 1;
    // The lane the slot was taken in is the one it goes back to, whatever the try tells meanwhile.
    const slow = this.#slowHosts.has(key.host);
    if (slow) this.#slowRunning += 1;
    bump(this.#byOwner, key.owner, 1);
    bump(this.#byHost, key.host, 1);
    const held: Held | undefined = this.#limits.cutMs ? { key, at: Date.now(), slow, cut: new AbortController() } : undefined;
    if (held) this.#held.add(held);
    let done = false;
    const release = (): void => {
      if (done) return;
      done = true;
      this.#running -= 1;
      if (slow) this.#slowRunning -= 1;
      bump(this.#byOwner, key.owner, -1);
      bump(this.#byHost, key.host, -1);
      if (held) this.#held.delete(held);
      if (!this.#byOwner.has(key.owner) && !this.#waiting.has(key.owner)) this.#served.delete(key.owner);
      this.#grant();
      this.#lookForCuts();
    };
    return held ? { release, cut: held.cut.signal } : { release };
  }

  /**
   * With `cutMs`, while tries wait behind a full process or behind their host's cap: cuts the
   * usual-lane tries older than `cutMs`, oldest first, as many as other owners' waiting tries could
   * take (a try is never cut for its own owner's; behind a host's cap, only a try to that host is), and
   * moves their hosts to the slow lane. Looks again when the oldest uncut try comes of age; a look that
   * found nothing to cut waits a quarter of `cutMs` before the next one (each look reads the waiting
   * owners: 10,000 tries queued at once must not read them 10,000 times).
   */
  #lookForCuts(): void {
    const { cutMs } = this.#limits;
    if (!cutMs || this.#cutTimer || this.#waiting.size === 0) return;
    this.#paused = false;
    const now = Date.now();
    const due: Held[] = [];
    const cutting: Held[] = [];
    let nextAt = Infinity;
    for (const held of this.#held) {
      if (held.cut.signal.aborted) cutting.push(held);
      else if (held.slow) continue;
      else if (now - held.at >= cutMs) due.push(held);
      else {
        // Taken in order: the rest are younger.
        nextAt = held.at + cutMs;
        break;
      }
    }
    if (due.length > 0) {
      const full = this.#running >= this.#limits.total;
      const wanted = this.#wanted(due.length + cutting.length, full, due);
      // Whom a slot freed by cutting `held` could go to (its host's, when the waiter is at that host's cap).
      const taker = (held: Held): Wanted | undefined => wanted.find((w) => w.n > 0 && w.owner !== held.key.owner && (w.host === undefined ? full : w.host === held.key.host));
      // Cut tries not yet given back free slots already: those go first.
      for (const held of cutting) {
        const w = taker(held);
        if (w) w.n -= 1;
      }
      let cut = 0;
      for (const held of due) {
        const w = taker(held);
        if (!w) continue;
        w.n -= 1;
        // The slot freed goes to the owner it was cut for, before the cut try's owner's own waiting tries.
        this.#served.set(w.owner, this.#front--);
        this.#markSlow(held.key.host);
        held.cut.abort(new Error(`cut after ${now - held.at} ms: another client's webhook waited for a slot`));
        cut += 1;
      }
      if (cut < due.length) nextAt = Math.min(nextAt, now + Math.max(1, Math.ceil(cutMs / 4)));
      this.#paused = cut < due.length;
    }
    if (nextAt === Infinity) return;
    this.#cutTimer = setTimeout(() => {
      this.#cutTimer = undefined;
      this.#paused = false;
      this.#lookForCuts();
    }, nextAt - now).unref();
  }

  /**
   * The waiting tries a slot freed by cutting `due` could go to, per owner and host, up to `enough` in
   * all, of two owners at least when there are (a try is cut for another owner than its own). A try
   * whose owner is under its cap counts when its host is under its cap and lane (any freed slot helps,
   * `host` undefined; only when the process is `full`: otherwise it would hold one already), or when
   * its host is at its cap and has a due try (`host` named: only a cut there helps; the host then is in
   * the slow lane, so that lane needs room).
   */
  #wanted(enough: number, full: boolean, due: readonly Held[]): Wanted[] {
    const { perOwner, perHost, slow = 0 } = this.#limits;
    const dueAt = new Map<string, number>();
    for (const held of due) bump(dueAt, held.key.host, 1);
    const wanted: Wanted[] = [];
    const owners = new Set<string>();
    let all = 0;
    for (const [owner, hosts] of this.#waiting) {
      let room = perOwner - (this.#byOwner.get(owner) ?? 0);
      for (const [host, queue] of hosts) {
        if (room <= 0) break;
        const hostRoom = perHost - (this.#byHost.get(host) ?? 0);
        let take: number;
        if (hostRoom > 0) take = full && this.#laneOpen(host) ? Math.min(room, queue.length, hostRoom) : 0;
        else take = Math.min(room, queue.length, dueAt.get(host) ?? 0, slow - this.#slowRunning);
        if (take <= 0) continue;
        wanted.push(hostRoom > 0 ? { owner, n: take } : { owner, host, n: take });
        owners.add(owner);
        room -= take;
        all += take;
      }
      if (all >= enough && owners.size > 1) break;
    }
    return wanted;
  }

  /**
   * The next waiter: of the owners under their cap with a host under its cap (and its lane's), the one served least
   * recently (a new owner first); of its hosts, the first in turn. It leaves its queue, and its host
   * goes to the back of the owner's turn.
   */
  #next(): { key: SlotKey; waiter: Waiter } | undefined {
    const { perOwner, perHost } = this.#limits;
    let best: { owner: string; host: string; queue: Waiter[]; served: number } | undefined;
    for (const [owner, hosts] of this.#waiting) {
      if ((this.#byOwner.get(owner) ?? 0) >= perOwner) continue;
      const served = this.#served.get(owner) ?? -1;
      if (best && best.served <= served) continue;
      for (const [host, queue] of hosts) {
        if ((this.#byHost.get(host) ?? 0) >= perHost || queue.length === 0 || !this.#laneOpen(host)) continue;
        best = { owner, host, queue, served };
        break;
      }
    }
    if (!best) return undefined;
    const { owner, host, queue } = best;
    const waiter = queue.shift()!;
    const hosts = this.#waiting.get(owner)!;
    hosts.delete(host);
    if (queue.length > 0) hosts.set(host, queue);
    if (hosts.size === 0) this.#waiting.delete(owner);
    this.#served.set(owner, this.#tick++);
    return { key: { owner, host }, waiter };
  }

  #prune(key: SlotKey): void {
    const hosts = this.#waiting.get(key.owner);
    if (hosts?.get(key.host)?.length === 0) hosts.delete(key.host);
    if (hosts?.size === 0) this.#waiting.delete(key.owner);
    if (!this.#byOwner.has(key.owner) && !this.#waiting.has(key.owner)) this.#served.delete(key.owner);
  }
}

/**
 * Per owner and per host: the jobs a process holds for them, and when a try of theirs last ended (or
 * their first job was taken), to tell receivers that hang from receivers that are merely busy.
 */
export class DeliveryActivity {
  readonly #byKey = new Map<string, { held: number; lastEnded: number }>();

  /** Owners and hosts counted apart. */
  static #keysOf(key: SlotKey): string[] {
    return [`o:${key.owner}`, `h:${key.host}`];
  }

  enter(key: SlotKey): void {
    for (const k of DeliveryActivity.#keysOf(key)) {
      const seen = this.#byKey.get(k);
      if (seen) seen.held += 1;
      else this.#byKey.set(k, { held: 1, lastEnded: Date.now() });
    }
  }

  /** `ended`: a try was made (a job that only went back to Redis did not end one). */
  leave(key: SlotKey, ended: boolean): void {
    for (const k of DeliveryActivity.#keysOf(key)) {
      const seen = this.#byKey.get(k);
      if (!seen) continue;
      if (ended) seen.lastEnded = Date.now();
      if (--seen.held === 0) this.#byKey.delete(k);
    }
  }

  /** Whether no try of the key's owner, or of its host, ended within `ms`. */
  stalled(key: SlotKey, ms: number): boolean {
    const now = Date.now();
    return DeliveryActivity.#keysOf(key).some((k) => now - (this.#byKey.get(k)?.lastEnded ?? now) > ms);
  }
}

/** Webhook URLs whose host is known: most watches share a few receivers, and a `new URL` per try (twice) showed in profiles. */
const HOSTS_KEPT = 1_024;
const hosts = new Map<string, string>();

/** The host a webhook URL names (the cap's key); a URL that does not parse is its own key (the sender refuses it). */
export function hostOf(url: string): string {
  let host = hosts.get(url);
  if (host !== undefined) return host;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    host = url;
  }
  // Bounded: the oldest URL learnt goes first.
  if (hosts.size >= HOSTS_KEPT) hosts.delete(hosts.keys().next().value!);
  hosts.set(url, host);
  return host;
}
