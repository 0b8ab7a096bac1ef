// The watch records in Redis, and the Lua scripts that change them atomically (the bounds, the
// compare-and-set of progress, a try's outcome, removal), so that replicas sharing one Redis never
// see half a change. Leases say which replica follows a watch (redis-leases.ts) and BullMQ carries the
// deliveries (redis-backend.ts); these keys are what is true.
//
// Keys, under one prefix (`xcmgw:watch:` by default):
//   w:<id>              hash: watch (JSON, sealed when a key is set), progress (JSON), owner, n (events
//                       made), head (first event not settled), ended ('' while followed, else how it
//                       ended), by (the follower that last took it: redis-leases.ts), at (a waiting
//                       watch's position, '<next block>@<chain>', newer than its progress's cursor)
//   w:<id>:events       list: the events' JSON, by seq (fixed once made: every try sends the same
//                       body); dropped once every event is settled
//   w:<id>:deliveries   list: each event's Delivery JSON, by seq
//   open                set: ids of watches still followed
//   unfollowed          set: of those, the ids no replica holds (redis-leases.ts); following:<token>
//                       holds each replica's
//   held                set: ids of watches that count against the bounds (followed, or owing deliveries)
//   owners              hash: owner -> watches held (MAX_WATCHES_PER_CLIENT)
//   ended               sorted set: ended watches -> when they are forgotten (+inf while events are pending)
//   queued              counter: events not settled
//   retained:<owner>    sorted set: the owner's ended, settled records -> when they were retained
//   retainedBytes:<owner>  hash: their sizes, and '#total' (the per-client bounds on retained records)
// An ended watch whose events are all settled has its keys PEXPIREd after the retention, or is
// forgotten sooner when its owner's retained records pass WATCH_RETAIN_PER_CLIENT or
// WATCH_RETAIN_BYTES_PER_CLIENT (oldest first). The per-owner keys are named inside the scripts:
// the backend needs a single Redis, not Cluster (docs/watches.md).
import type { Redis } from 'ioredis';
import type { Position } from './backend';
import type { Delivery, Watch, WatchEvent, WatchProgress } from './model';
import { endedProgress } from './model';
import { runScript, script } from './redis-scripts';
import type { Sealer } from './sealing';

// Every script gets KEYS w:<id>, events, deliveries, open, owners, ended, queued, held, unfollowed, followers, and ARGV
// prefix, now, retainMs, retainPerClient, retainBytesPerClient, id, then its own from ARGV[7].
const COMMON = `
local prefix, now, retainMs, retainCount, retainBytes, id = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
-- Stops counting the watch against the bounds (it is neither followed nor owes a delivery).
local function release(owner)
  if redis.call('SREM', KEYS[8], id) == 1 and redis.call('HINCRBY', KEYS[5], owner, -1) <= 0 then redis.call('HDEL', KEYS[5], owner) end
end
local function hold(owner)
  redis.call('SADD', KEYS[8], id)
  redis.call('HINCRBY', KEYS[5], owner, 1)
end
-- The watch is no longer followed: out of open and of its follower's lease.
local function unfollow()
  redis.call('SREM', KEYS[4], id)
  redis.call('SREM', KEYS[9], id)
  local by = redis.call('HGET', KEYS[1], 'by')
  if by and by ~= '' then redis.call('SREM', prefix .. 'following:' .. by, id) end
end
-- Deletes a record of owner's, and its place among the owner's retained records.
local function forget(owner, other)
  local index, sizes = prefix .. 'retained:' .. owner, prefix .. 'retainedBytes:' .. owner
  local size = redis.call('HGET', sizes, other)
  if size then
    redis.call('HDEL', sizes, other)
    redis.call('HINCRBY', sizes, '#total', -tonumber(size))
    redis.call('ZREM', index, other)
  end
  redis.call('ZREM', KEYS[6], other)
  local w = prefix .. 'w:' .. other
  redis.call('DEL', w, w .. ':events', w .. ':deliveries')
end
-- An ended watch: kept while events are pending; once settled, retained within the owner's bounds.
local function retain(owner, pending)
  if pending then
    redis.call('ZADD', KEYS[6], '+inf', id)
    return
  end
  release(owner)
  redis.call('ZADD', KEYS[6], now + retainMs, id)
  redis.call('DEL', KEYS[2])
  redis.call('PEXPIRE', KEYS[1], retainMs)
  redis.call('PEXPIRE', KEYS[3], retainMs)
  local index, sizes = prefix .. 'retained:' .. owner, prefix .. 'retainedBytes:' .. owner
  -- Records whose retention passed have expired: their entries go.
  for _, old in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', now - retainMs)) do forget(owner, old) end
  local size = redis.call('HSTRLEN', KEYS[1], 'watch') + redis.call('HSTRLEN', KEYS[1], 'progress')
  for _, d in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do size = size + #d end
  redis.call('ZADD', index, now, id)
  redis.call('HSET', sizes, id, size)
  local total = redis.call('HINCRBY', sizes, '#total', size)
  while redis.call('ZCARD', index) > retainCount or total > retainBytes do
    local oldest = redis.call('ZRANGE', index, 0, 0)[1]
    if not oldest then break end
    forget(owner, oldest)
    total = tonumber(redis.call('HGET', sizes, '#total') or '0')
  end
  redis.call('PEXPIRE', index, retainMs)
  redis.call('PEXPIRE', sizes, retainMs)
end
`;

// ARGV: owner, watch, progress, ended, maxWatches, maxWatchesPerClient, by, n, then n events and n
// deliveries. by: the follower token of the replica that follows it from now on ('': none yet).
// Returns 'added' (its follower took it, or it is ended), 'unfollowed' (left for a replica to take) or the bound.
const ADD = `${COMMON}
local owner, ended, by, n = ARGV[7], ARGV[10], ARGV[13], tonumber(ARGV[14])
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('watch ' .. id .. ' exists') end
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now)
if redis.call('SCARD', KEYS[8]) >= tonumber(ARGV[11]) then return 'MAX_WATCHES' end
if tonumber(redis.call('HGET', KEYS[5], owner) or '0') >= tonumber(ARGV[12]) then return 'MAX_WATCHES_PER_CLIENT' end
redis.call('HSET', KEYS[1], 'watch', ARGV[8], 'progress', ARGV[9], 'owner', owner, 'n', n, 'head', 0, 'ended', ended, 'by', by)
if n > 0 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 15, 14 + n))
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 15 + n, 14 + 2 * n))
  redis.call('INCRBY', KEYS[7], n)
end
if ended == '' or n > 0 then hold(owner) end
if ended ~= '' then
  retain(owner, n > 0)
  return 'added'
end
redis.call('SADD', KEYS[4], id)
-- A follower whose lease lapsed (and was reaped) cannot take it: it waits for another.
if by ~= '' and redis.call('ZSCORE', KEYS[10], by) then
  redis.call('SADD', prefix .. 'following:' .. by, id)
  return 'added'
end
redis.call('HSET', KEYS[1], 'by', '')
redis.call('SADD', KEYS[9], id)
return 'unfollowed'
`;

// ARGV: events expected, progress, ended, n, then n events and n deliveries.
// Returns -1 when refused, else the seq of an event that has just become the head (to queue), or -2.
const ADVANCE = `${COMMON}
local ended, n = ARGV[9], tonumber(ARGV[10])
local h = redis.call('HMGET', KEYS[1], 'n', 'ended', 'owner', 'head')
if not h[1] or h[2] ~= '' or tonumber(h[1]) ~= tonumber(ARGV[7]) then return -1 end
local before, head = tonumber(h[1]), tonumber(h[4])
redis.call('HSET', KEYS[1], 'progress', ARGV[8], 'n', before + n, 'ended', ended)
redis.call('HDEL', KEYS[1], 'at')
if n > 0 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 11, 10 + n))
  redis.call('RPUSH', KEYS[3], unpack(ARGV, 11 + n, 10 + 2 * n))
  redis.call('INCRBY', KEYS[7], n)
end
if ended ~= '' then
  unfollow()
  retain(h[3], head < before + n)
end
if n > 0 and head == before then return head end
return -2
`;

// ARGV: seq, delivery, settled ('1' or '0'). A try's outcome for event seq; returns -1 when the watch
// is gone or the event is no longer the head (another process recorded it), else the seq of the next
// event to queue, or -2.
const RECORD = `${COMMON}
local seq = tonumber(ARGV[7])
local h = redis.call('HMGET', KEYS[1], 'head', 'n', 'ended', 'owner')
if not h[1] or tonumber(h[1]) ~= seq then return -1 end
redis.call('LSET', KEYS[3], seq, ARGV[8])
if ARGV[9] ~= '1' then return -2 end
redis.call('HSET', KEYS[1], 'head', seq + 1)
redis.call('DECR', KEYS[7])
if seq + 1 < tonumber(h[2]) then return seq + 1 end
if h[3] ~= '' then retain(h[4], false) end
return -2
`;

// Returns -1 when unknown, else the head's seq (its job is the one to take off the queue).
const REMOVE = `${COMMON}
local h = redis.call('HMGET', KEYS[1], 'head', 'n', 'ended', 'owner')
if not h[1] then return -1 end
unfollow()
release(h[4])
redis.call('DECRBY', KEYS[7], tonumber(h[2]) - tonumber(h[1]))
forget(h[4], id)
return tonumber(h[1])
`;

// KEYS w:<id> of each watch; ARGV events and position of each. A waiting watch's position ('at': the
// next block and its chain, applied to the progress's cursor when read), written only while it is
// followed and has that many events (a batch for many watches).
const POSITIONS = `
for i, key in ipairs(KEYS) do
  local h = redis.call('HMGET', key, 'n', 'ended')
  if h[1] and h[2] == '' and tonumber(h[1]) == tonumber(ARGV[2 * i - 1]) then redis.call('HSET', key, 'at', ARGV[2 * i]) end
end
return 0
`;
const POSITIONS_SCRIPT = script(POSITIONS);

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

/** What the store is given: the retention of ended records, its per-owner bounds, and the sealer of watch records. */
export interface StoreOptions {
  retainMs: number;
  retainPerClient: number;
  retainBytesPerClient: number;
  sealer: Sealer;
}

export class WatchStore {
  readonly prefix: string;
  readonly #redis: Redis;
  readonly #options: StoreOptions;

  constructor(redis: Redis, prefix: string, options: StoreOptions) {
    this.#redis = redis;
    this.prefix = prefix;
    this.#options = options;
  }

  /** The channel a removal is announced on, so the process following the watch stops at once. */
  get removedChannel(): string {
    return `${this.prefix}removed`;
  }

  #keys(id: string): string[] {
    const w = `${this.prefix}w:${id}`;
    return [w, `${w}:events`, `${w}:deliveries`, ...['open', 'owners', 'ended', 'queued', 'held', 'unfollowed', 'followers'].map((k) => this.prefix + k)];
  }

  async #run(which: keyof typeof SCRIPTS, id: string, args: (string | number)[]): Promise<unknown> {
    const { retainMs, retainPerClient, retainBytesPerClient } = this.#options;
    return runScript(this.#redis, SCRIPTS[which], this.#keys(id), [this.prefix, Date.now(), retainMs, retainPerClient, retainBytesPerClient, id, ...args]);
  }

  #progress(progress: WatchProgress): string {
    return JSON.stringify(progress.ended ? endedProgress(progress) : progress);
  }

  #watch(stored: string, id: string): Watch {
    return JSON.parse(this.#options.sealer.open(stored, id)) as Watch;
  }

  /**
   * `by`: the follower token that follows the watch from now on ('': left for a replica to take).
   * 'added', 'unfollowed' (added, and left for a replica to take: `by` was '' or its lease lapsed) or the bound.
   */
  async add(watch: Watch, progress: WatchProgress, events: readonly WatchEvent[], deliveries: readonly Delivery[], bounds: { maxWatches: number; maxWatchesPerClient: number }, by: string): Promise<string> {
    const sealed = this.#options.sealer.seal(JSON.stringify(watch), watch.id);
    const args = [watch.owner, sealed, this.#progress(progress), progress.ended ?? '', bounds.maxWatches, bounds.maxWatchesPerClient, by, events.length];
    return String(await this.#run('add', watch.id, [...args, ...events.map((e) => JSON.stringify(e)), ...deliveries.map((d) => JSON.stringify(d))]));
  }

  /** -1: refused; else the seq that became the head (queue it), or -2. */
  async advance(id: string, progress: WatchProgress, events: readonly WatchEvent[], deliveries: readonly Delivery[]): Promise<number> {
    const args = [progress.events - events.length, this.#progress(progress), progress.ended ?? '', events.length];
    return Number(await this.#run('advance', id, [...args, ...events.map((e) => JSON.stringify(e)), ...deliveries.map((d) => JSON.stringify(d))]));
  }

  /** Records waiting watches' positions, each only if it still has that many events and is followed. */
  async positions(rows: readonly Position[]): Promise<void> {
    if (rows.length === 0) return;
    const keys = rows.map((r) => `${this.prefix}w:${r.id}`);
    await runScript(this.#redis, POSITIONS_SCRIPT, keys, rows.flatMap((r) => [r.events, `${r.next}@${r.chain}`]));
  }

  /** The recorded progress, its cursor moved on to the recorded position (`at`) when that is further on the same chain. */
  #progressOf(progress: string, at: string | null | undefined): WatchProgress {
    const parsed = JSON.parse(progress) as WatchProgress;
    const cursor = (parsed.resume as { cursor?: { chain?: string; next?: number } } | undefined)?.cursor;
    const [next, chain] = at?.split('@') ?? [];
    if (cursor && chain === cursor.chain && cursor.next !== undefined && Number(next) > cursor.next) cursor.next = Number(next);
    return parsed;
  }

  /** -1: stale (gone, or recorded elsewhere); else the next seq to queue, or -2. */
  async record(id: string, seq: number, delivery: Delivery, settled: boolean): Promise<number> {
    return Number(await this.#run('record', id, [seq, JSON.stringify(delivery), settled ? '1' : '0']));
  }

  /** -1: unknown; else the head's seq. */
  async remove(id: string): Promise<number> {
    return Number(await this.#run('remove', id, []));
  }

  async view(id: string): Promise<{ watch: Watch; progress: WatchProgress; deliveries: Delivery[] } | undefined> {
    const [w, , deliveries] = this.#keys(id) as [string, string, string];
    const [hash, list] = await this.#exec<[(string | null)[], string[]]>(this.#redis.multi().hmget(w, 'watch', 'progress', 'at').lrange(deliveries, 0, -1));
    const [watch, progress, at] = hash;
    if (!watch || !progress) return undefined;
    return { watch: this.#watch(watch, id), progress: this.#progressOf(progress, at), deliveries: list.map((d) => JSON.parse(d) as Delivery) };
  }

  /** The watch and its progress, unless gone or ended. */
  async following(id: string): Promise<{ watch: Watch; progress: WatchProgress } | undefined> {
    return (await this.followingAll([id])).get(id);
  }

  /** Of `ids`, those still followed, with their watch and progress. */
  async followingAll(ids: readonly string[]): Promise<Map<string, { watch: Watch; progress: WatchProgress }>> {
    const multi = this.#redis.multi();
    for (const id of ids) multi.hmget(`${this.prefix}w:${id}`, 'watch', 'progress', 'ended', 'at');
    const rows = await this.#exec<(string | null)[][]>(multi);
    const found = new Map<string, { watch: Watch; progress: WatchProgress }>();
    rows.forEach(([watch, progress, ended, at], i) => {
      const id = ids[i];
      if (id !== undefined && watch && progress && ended === '') found.set(id, { watch: this.#watch(watch, id), progress: this.#progressOf(progress, at) });
    });
    return found;
  }

  async turn(id: string, seq: number): Promise<DeliveryTurn | undefined> {
    const [w, events, deliveries] = this.#keys(id) as [string, string, string];
    const [hash, event, delivery] = await this.#exec<[(string | null)[], string | null, string | null]>(
      this.#redis.multi().hmget(w, 'watch', 'head', 'n').lindex(events, seq).lindex(deliveries, seq),
    );
    const [watch, head, n] = hash;
    if (!watch || head == null || n == null || !event || !delivery) return undefined;
    return { watch: this.#watch(watch, id), event: JSON.parse(event) as WatchEvent, delivery: JSON.parse(delivery) as Delivery, head: Number(head), events: Number(n) };
  }

  async counts(): Promise<{ open: number; ended: number; queued: number }> {
    const [open, ended, queued] = await this.#exec<[number, number, string | null]>(
      this.#redis.multi().scard(`${this.prefix}open`).zcount(`${this.prefix}ended`, `(${Date.now()}`, '+inf').get(`${this.prefix}queued`),
    );
    return { open, ended, queued: Number(queued ?? 0) };
  }

  /**
   * Every followed watch is held (counted against the bounds). Records written before `held`
   * existed counted only followed watches, in `owners`: adding them to `held` keeps the bounds
   * right across the upgrade (a no-op otherwise).
   */
  async adoptFollowed(): Promise<void> {
    await this.#redis.sunionstore(`${this.prefix}held`, `${this.prefix}held`, `${this.prefix}open`);
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
