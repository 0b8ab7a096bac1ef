// A redis-server of a bench's own (no persistence) on a free loopback port, its pid at hand to
// weigh its RSS beside the service's.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './harness';

export interface BenchRedis {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<BenchRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve())).once('error', reject);
      });
      break;
    } catch {
      await sleep(50);
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
