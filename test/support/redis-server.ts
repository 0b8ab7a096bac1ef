import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRelay, type Relay } from './relay';

/**
 * A throwaway redis-server (no persistence) on a Unix socket in a folder of the test's own. Clients
 * reach it over TCP through a relay whose port the test holds (test/support/relay.ts): Redis can
 * stop and start again behind the same port, and no other process can take that port meanwhile.
 */
export async function startRedis(socket: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no'], { stdio: 'pipe' });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/ready to accept connections/i.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return child;
}

export async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** A Redis of the test's own at `url` (redis://127.0.0.1:<port>), gone with `stop()`. */
export async function redisForTest(): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'xcm-redis-'));
  const socket = join(dir, 'redis.sock');
  let relay: Relay | undefined;
  let server: ChildProcess | undefined;
  try {
    relay = await startRelay(socket);
    server = await startRedis(socket);
  } catch (error) {
    await relay?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const [held, child] = [relay, server];
  return {
    url: `redis://127.0.0.1:${held.port}`,
    stop: async () => {
      await stopRedis(child);
      await held.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
