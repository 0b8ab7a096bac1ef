// Which replica follows which watch, in Redis. Each process follows under one token and one lease,
// renewed as a whole (one script per interval however many watches it follows: BullMQ held a job,
// a lock and a renewal per watch). A lease that lapsed (its process died, or stalled past it) is
// reaped by the next replica to renew: its watches go back to `unfollowed`, where any replica with
// room takes them. Leases run on Redis's clock, so replicas' clocks may disagree.
//
// Keys, under the store's prefix (redis-store.ts has the rest):
//   followers           sorted set: token -> when its lease lapses (ms, Redis's clock)
//   following:<token>   set: the watches the token follows
//   unfollowed          set: open watches no token follows
// The watch records name their last follower (`by`), so that ending or removing one takes it out of
// its follower's set (the store's scripts).
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { runScript, script } from './redis-scripts';

// KEYS followers, unfollowed, open; ARGV prefix, token, leaseMs, n, joining ('1': a new token).
// Renews the token's lease (returns {0} when it lapsed and was reaped: the token follows nothing
// any more), reaps lapsed leases, then takes up to n unfollowed watches: {1, id...}.
const CLAIM = `
local prefix, token, lease, n = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if ARGV[5] ~= '1' and not redis.call('ZSCORE', KEYS[1], token) then return {0} end
redis.call('ZADD', KEYS[1], now + lease, token)
for _, lapsed in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. now, 'LIMIT', 0, 16)) do
  local held = prefix .. 'following:' .. lapsed
  redis.call('SUNIONSTORE', KEYS[2], KEYS[2], held)
  redis.call('DEL', held)
  redis.call('ZREM', KEYS[1], lapsed)
end
local taken = {1}
if n > 0 then
  local mine = prefix .. 'following:' .. token
  for _, id in ipairs(redis.call('SPOP', KEYS[2], n)) do
    if redis.call('SISMEMBER', KEYS[3], id) == 1 then
      redis.call('SADD', mine, id)
      redis.call('HSET', prefix .. 'w:' .. id, 'by', token)
      taken[#taken + 1] = id
    end
  end
end
return taken
`;

// KEYS followers, unfollowed; ARGV prefix, token. The token's watches go back to unfollowed, its lease ends.
const HAND_BACK = `
local held = ARGV[1] .. 'following:' .. ARGV[2]
local n = redis.call('SCARD', held)
redis.call('SUNIONSTORE', KEYS[2], KEYS[2], held)
redis.call('DEL', held)
redis.call('ZREM', KEYS[1], ARGV[2])
return n
`;

// KEYS followers, unfollowed, open, and a scratch key; ARGV prefix. Open watches no lease holds (those
// an earlier version followed as BullMQ jobs) go to unfollowed.
const ADOPT = `
local sets = {KEYS[3], KEYS[2]}
for _, token in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do sets[#sets + 1] = ARGV[1] .. 'following:' .. token end
local n = redis.call('SDIFFSTORE', KEYS[4], unpack(sets))
if n > 0 then redis.call('SUNIONSTORE', KEYS[2], KEYS[2], KEYS[4]) end
redis.call('DEL', KEYS[4])
return n
`;

const SCRIPTS = { claim: script(CLAIM), handBack: script(HAND_BACK), adopt: script(ADOPT) };

/** A fresh follower token: a process takes a new one whenever its lease lapsed. */
export const newToken = (): string => randomBytes(9).toString('base64url');

export class Leases {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** The channel a replica announces unfollowed watches on (added without a follower, handed back), for others to take at once. */
  get unfollowedChannel(): string {
    return `${this.prefix}unfollowed`;
  }

  /**
   * Renews `token`'s lease (starts it when `joining`) and takes up to `n` unfollowed watches for it;
   * 'lost' when its lease lapsed and another replica reaped it.
   */
  async claim(token: string, leaseMs: number, n: number, joining: boolean): Promise<string[] | 'lost'> {
    const [ok, ...ids] = (await this.#run('claim', ['followers', 'unfollowed', 'open'], [token, leaseMs, n, joining ? '1' : '0'])) as [number, ...string[]];
    return ok === 1 ? ids : 'lost';
  }

  /** Ends `token`'s lease and leaves its watches for another replica; how many. */
  async handBack(token: string): Promise<number> {
    return Number(await this.#run('handBack', ['followers', 'unfollowed'], [token]));
  }

  /** Leaves open watches that no lease holds for a replica to take (those of an earlier version); how many. */
  async adopt(): Promise<number> {
    return Number(await this.#run('adopt', ['followers', 'unfollowed', 'open', `adopting:${newToken()}`], []));
  }

  async #run(which: keyof typeof SCRIPTS, keys: string[], args: (string | number)[]): Promise<unknown> {
    return runScript(this.redis, SCRIPTS[which], keys.map((k) => this.prefix + k), [this.prefix, ...args]);
  }
}
