// The watch records in Redis, and the Lua scripts that change them atomically (the bounds, the
// compare-and-set of progress, a try's outcome, removal), so that replicas sharing one Redis never
// see half a change. BullMQ carries the work (redis-backend.ts); these keys are what is true.
//
// Keys, under one prefix (`xcmgw:watch:` by default):
//   w:<id>              hash: watch, progress (JSON), owner, n (events made), head (first event not
//                       settled), ended ('' while followed, else how it ended)
//   w:<id>:events       list: the events' JSON, by seq (fixed once made: every try sends the same body)
//   w:<id>:deliveries   list: each event's Delivery JSON, by seq
//   open                set: ids of watches still followed (MAX_WATCHES)
//   owners              hash: owner -> open watches (MAX_WATCHES_PER_CLIENT)
//   ended               sorted set: ended watches -> when they are forgotten (+inf while events are pending)
//   queued              counter: events not settled
// An ended watch whose events are all settled has its keys PEXPIREd after the retention.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Delivery, Watch, WatchEvent, WatchProgress } from './model';

/** Retention, as both scripts that can end a watch's work apply it. */
const RETAIN = `
local function retain(id, now, retainMs, pending)
  if pending then
    redis.call('ZADD', KEYS[6], '+inf', id)
    return
  end
  redis.call('ZADD', KEYS[6], now + retainMs, id)
  for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], retainMs) end
end
local function close(id, owner)
  redis.call('SREM', KEYS[4], id)
  if redis.call('HINCRBY', KEYS[5], owner, -1) <= 0 then redis.call('HDEL', KEYS[5], owner) end
end
`;

// KEYS: w:<id>, events, deliveries, open, owners, ended, queued (the same order for every script).
const ADD = `${RETAIN}
local id, owner, ended = ARGV[1], ARGV[2], ARGV[5]
local n, now, retainMs = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('watch ' .. id .. ' exists') end
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now)
if redis.call('SCARD', KEYS[4]) >= tonumber(ARGV[6]) then return 'MAX_WATCHES' end
if tonumber(redis.call('HGET', KEYS[5], owner) or '0') >= tonumber(ARGV[7]) then return 'MAX_WATCHES_PER_CLIENT' end
redis.call('HSET', KEYS[1], 'watch', ARGV[3], 'progress', ARGV[4], 'owner', owner, 'n', n, 'head', 0, 'ended', ended)
if n > 0 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 11, 10 + n))
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 11 + n, 10 + 2 * n))
  redis.call('INCRBY', KEYS[7], n)
end
if ended == '' then
  redis.call('SADD', KEYS[4], id)
  redis.call('HINCRBY', KEYS[5], owner, 1)
else
  retain(id, now, retainMs, n > 0)
end
return 'added'
`;

// Returns -1 when refused, else the seq of an event that has just become the head (to queue), or -2.
const ADVANCE = `${RETAIN}
local id, ended = ARGV[1], ARGV[4]
local n, now, retainMs = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local h = redis.call('HMGET', KEYS[1], 'n', 'ended', 'owner', 'head')
if not h[1] or h[2] ~= '' or tonumber(h[1]) ~= tonumber(ARGV[2]) then return -1 end
local before, head = tonumber(h[1]), tonumber(h[4])
redis.call('HSET', KEYS[1], 'progress', ARGV[3], 'n', before + n, 'ended', ended)
if n > 0 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 8, 7 + n))
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 8 + n, 7 + 2 * n))
  redis.call('INCRBY', KEYS[7], n)
end
if ended ~= '' then
  close(id, h[3])
  retain(id, now, retainMs, head < before + n)
end
if n > 0 and head == before then return head end
return -2
`;

// A try's outcome for event ARGV[2]; returns -1 when the watch is gone or the event is no longer the
// head (another process recorded it), else the seq of the next event to queue, or -2.
const RECORD = `${RETAIN}
local id, seq, now, retainMs = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[5]), tonumber(ARGV[6])
local h = redis.call('HMGET', KEYS[1], 'head', 'n', 'ended')
if not h[1] or tonumber(h[1]) ~= seq then return -1 end
redis.call('LSET', KEYS[3], seq, ARGV[3])
if ARGV[4] ~= '1' then return -2 end
redis.call('HSET', KEYS[1], 'head', seq + 1)
redis.call('DECR', KEYS[7])
if seq + 1 < tonumber(h[2]) then return seq + 1 end
if h[3] ~= '' then retain(id, now, retainMs, false) end
return -2
`;

// Returns -1 when unknown, else the head's seq (its job is the one to take off the queue).
const REMOVE = `${RETAIN}
local id = ARGV[1]
local h = redis.call('HMGET', KEYS[1], 'head', 'n', 'ended', 'owner')
if not h[1] then return -1 end
if h[3] == '' then close(id, h[4]) end
redis.call('ZREM', KEYS[6], id)
redis.call('DECRBY', KEYS[7], tonumber(h[2]) - tonumber(h[1]))
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return tonumber(h[1])
`;

interface Script {
  lua: string;
  sha: string;
}

const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });
const SCRIPTS = { add: script(ADD), advance: script(ADVANCE), record: script(RECORD), remove: script(REMOVE) };

/** Where one watch stands for its delivery work. */
export interface DeliveryTurn {
  watch: Watch;
  event: WatchEvent;
  delivery: Delivery;
  /** The first event not settled. */
  head: number;
  /** Events made. */
  events: number;
}

export class WatchStore {
  readonly prefix: string;
  readonly #redis: Redis;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.prefix = prefix;
  }

  /** The channel a removal is announced on, so the process following the watch stops at once. */
  get removedChannel(): string {
    return `${this.prefix}removed`;
  }

  #keys(id: string): string[] {
    const w = `${this.prefix}w:${id}`;
    return [w, `${w}:events`, `${w}:deliveries`, `${this.prefix}open`, `${this.prefix}owners`, `${this.prefix}ended`, `${this.prefix}queued`];
  }

  /** EVALSHA, loading the script once per Redis (after a restart or SCRIPT FLUSH too). */
  async #run(which: keyof typeof SCRIPTS, id: string, args: (string | number)[]): Promise<unknown> {
    const { lua, sha } = SCRIPTS[which];
    const keys = this.#keys(id);
    try {
      return await this.#redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await this.#redis.eval(lua, keys.length, ...keys, ...args);
    }
  }

  async add(watch: Watch, progress: WatchProgress, events: readonly WatchEvent[], deliveries: readonly Delivery[], bounds: { maxWatches: number; maxWatchesPerClient: number; retainMs: number }): Promise<string> {
    const args = [watch.id, watch.owner, JSON.stringify(watch), JSON.stringify(progress), progress.ended ?? '', bounds.maxWatches, bounds.maxWatchesPerClient, events.length, Date.now(), bounds.retainMs];
    return String(await this.#run('add', watch.id, [...args, ...events.map((e) => JSON.stringify(e)), ...deliveries.map((d) => JSON.stringify(d))]));
  }

  /** -1: refused; else the seq that became the head (queue it), or -2. */
  async advance(id: string, progress: WatchProgress, events: readonly WatchEvent[], deliveries: readonly Delivery[], retainMs: number): Promise<number> {
    const args = [id, progress.events - events.length, JSON.stringify(progress), progress.ended ?? '', events.length, Date.now(), retainMs];
    return Number(await this.#run('advance', id, [...args, ...events.map((e) => JSON.stringify(e)), ...deliveries.map((d) => JSON.stringify(d))]));
  }

  /** -1: stale (gone, or recorded elsewhere); else the next seq to queue, or -2. */
  async record(id: string, seq: number, delivery: Delivery, settled: boolean, retainMs: number): Promise<number> {
    return Number(await this.#run('record', id, [id, seq, JSON.stringify(delivery), settled ? '1' : '0', Date.now(), retainMs]));
  }

  /** -1: unknown; else the head's seq. */
  async remove(id: string): Promise<number> {
    return Number(await this.#run('remove', id, [id]));
  }

  async view(id: string): Promise<{ watch: Watch; progress: WatchProgress; deliveries: Delivery[] } | undefined> {
    const [w, , deliveries] = this.#keys(id) as [string, string, string];
    const [hash, list] = await this.#exec<[(string | null)[], string[]]>(this.#redis.multi().hmget(w, 'watch', 'progress').lrange(deliveries, 0, -1));
    const [watch, progress] = hash;
    if (!watch || !progress) return undefined;
    return { watch: JSON.parse(watch) as Watch, progress: JSON.parse(progress) as WatchProgress, deliveries: list.map((d) => JSON.parse(d) as Delivery) };
  }

  /** The watch and its progress, unless gone or ended. */
  async following(id: string): Promise<{ watch: Watch; progress: WatchProgress } | undefined> {
    const [watch, progress, ended] = await this.#redis.hmget(`${this.prefix}w:${id}`, 'watch', 'progress', 'ended');
    if (!watch || !progress || ended !== '') return undefined;
    return { watch: JSON.parse(watch) as Watch, progress: JSON.parse(progress) as WatchProgress };
  }

  async turn(id: string, seq: number): Promise<DeliveryTurn | undefined> {
    const [w, events, deliveries] = this.#keys(id) as [string, string, string];
    const [hash, event, delivery] = await this.#exec<[(string | null)[], string | null, string | null]>(
      this.#redis.multi().hmget(w, 'watch', 'head', 'n').lindex(events, seq).lindex(deliveries, seq),
    );
    const [watch, head, n] = hash;
    if (!watch || head == null || n == null || !event || !delivery) return undefined;
    return { watch: JSON.parse(watch) as Watch, event: JSON.parse(event) as WatchEvent, delivery: JSON.parse(delivery) as Delivery, head: Number(head), events: Number(n) };
  }

  async counts(): Promise<{ open: number; ended: number; queued: number }> {
    const [open, ended, queued] = await this.#exec<[number, number, string | null]>(
      this.#redis.multi().scard(`${this.prefix}open`).zcount(`${this.prefix}ended`, `(${Date.now()}`, '+inf').get(`${this.prefix}queued`),
    );
    return { open, ended, queued: Number(queued ?? 0) };
  }

  /** Ids of the watches still followed, and of ended ones with events pending: what start() re-queues. */
  async live(): Promise<{ open: string[]; pending: string[] }> {
    const [open, pending] = await this.#exec<[string[], string[]]>(
      this.#redis.multi().smembers(`${this.prefix}open`).zrangebyscore(`${this.prefix}ended`, '+inf', '+inf'),
    );
    return { open, pending };
  }

  /** The head and the number of events of each watch (absent when gone). */
  async heads(ids: readonly string[]): Promise<Map<string, { head: number; events: number }>> {
    const multi = this.#redis.multi();
    for (const id of ids) multi.hmget(`${this.prefix}w:${id}`, 'head', 'n');
    const rows = await this.#exec<(string | null)[][]>(multi);
    const heads = new Map<string, { head: number; events: number }>();
    rows.forEach(([head, n], i) => {
      const id = ids[i];
      if (id !== undefined && head != null && n != null) heads.set(id, { head: Number(head), events: Number(n) });
    });
    return heads;
  }

  async #exec<T extends unknown[]>(multi: ReturnType<Redis['multi']>): Promise<T> {
    const replies = await multi.exec();
    if (!replies) throw new Error('redis transaction aborted');
    return replies.map(([error, value]) => {
      if (error) throw error;
      return value;
    }) as T;
  }
}
