// Lua scripts run by their SHA1, loaded into Redis on first use (after a restart or SCRIPT FLUSH too).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface Script {
  lua: string;
  sha: string;
}

export const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });

/** EVALSHA, or EVAL when Redis does not hold the script yet. */
export async function runScript(redis: Redis, { lua, sha }: Script, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  try {
    return await redis.evalsha(sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return await redis.eval(lua, keys.length, ...keys, ...args);
  }
}
