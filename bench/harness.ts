import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { projectRoot } from '../src/project-root';

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Service {
  url: string;
  child: ChildProcess;
  rssMb(): number;
  /** The most RSS the process has held so far (VmHWM), MB. */
  peakRssMb(): number;
  /** CPU time (user + system) the process has used so far, in ms. */
  cpuMs(): number;
  /**
   * CPU time of its threads, in ms to the ns (each thread's /proc schedstat): cpuMs counts in
   * 10 ms ticks, too coarse for the few ms a block costs. Threads that ended are not counted.
   */
  threadsCpuMs(): number;
  stop(): Promise<void>;
}

/** A figure of /proc/PID/status (kB there), MB. */
function statusMb(pid: number | undefined, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

/** Starts a compiled script (of the checkout at `root`) in its own process and waits until `readyPath` answers. */
async function startProcess(script: string, env: Record<string, string>, readyPath: string, args: string[] = [], root = projectRoot(), nodeFlags: string[] = []): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, join(root, script), ...args], {
    // Load from one address would hit the rate limits at once, and autocannon keeps sending on a
    // connection the server closes after MAX_REQUESTS_PER_SOCKET answers (Node answers those 503):
    // benchmarks measure the work, not the limits.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0', METADATA_DECODES_PER_CLIENT_PER_MINUTE: '0', MAX_REQUESTS_PER_SOCKET: '0', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 20_000;
  for (;;) {
    try {
      await fetch(url + readyPath);
      break;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`${script} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    rssMb: () => statusMb(child.pid, 'VmRSS'),
    peakRssMb: () => statusMb(child.pid, 'VmHWM'),
    cpuMs: () => {
      // Fields 14 and 15 of /proc/PID/stat (utime, stime) in clock ticks of 10 ms; the name in
      // field 2 may hold spaces, so count from the closing parenthesis.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    threadsCpuMs: () => {
      let ns = 0;
      for (const task of readdirSync(`/proc/${child.pid}/task`)) {
        try {
          ns += Number(readFileSync(`/proc/${child.pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
        } catch {
          // the thread ended meanwhile
        }
      }
      return ns / 1e6;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The young generation's cap the Deployment starts the service with (its heap cap is not applied here). */
const DEPLOYED_SEMI_SPACE = /--max-semi-space-size=\d+/.exec(readFileSync(join(projectRoot(), 'deploy/kubernetes/deployment.yaml'), 'utf8'))?.[0];

export const DEPLOYED_FLAGS: readonly string[] = DEPLOYED_SEMI_SPACE ? [DEPLOYED_SEMI_SPACE] : [];

/**
 * Starts the compiled server in its own process (request logging on, to /dev/null), with the
 * Deployment's young-generation cap (or `nodeFlags`); `root`, a compiled checkout of another
 * commit, compares that commit with this one in one run.
 */
export function startService(env: Record<string, string> = {}, root?: string, nodeFlags: readonly string[] = DEPLOYED_FLAGS): Promise<Service> {
  // Load from one address would hit the rate limits at once; benchmarks measure the work, not the limiter.
  return startProcess('dist/src/server.js', { LOG_LEVEL: 'info', ...env }, '/health', [], root, [...nodeFlags]);
}

export interface BareAnswer {
  method: 'GET' | 'POST';
  path: string;
  body: Buffer;
}

/** Starts a bare `node:http` server or a bare Express app answering `answers` (bench/bare-server.ts). */
export function startBare(kind: 'http' | 'express', answers: BareAnswer[]): Promise<Service> {
  const encoded = answers.map((a) => ({ method: a.method, path: a.path, body: a.body.toString('base64') }));
  return startProcess('dist/bench/bare-server.js', { BARE_ANSWERS: JSON.stringify(encoded) }, '/', [kind]);
}

export interface LoadResult {
  reqPerSec: number;
  /** Answers received. */
  answers: number;
  p50: number;
  p99: number;
  /** Mean bytes on the wire per answer (headers included). */
  bytesPerReq: number;
  /** CPU time the server spent per answer (µs), when `server` was given: robust to a busy machine. */
  cpuUsPerReq?: number;
  non2xx: number;
  errors: number;
}

export interface Load {
  url: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /** Send this many requests instead of loading for `seconds`. */
  amount?: number;
  /** The process serving `url`, to measure its CPU time. */
  server?: Service;
  /** Each request's path, in place of `url`'s (a new one per request). */
  nextPath?: () => string;
}

export async function load({ url, method = 'GET', body, headers = {}, connections, seconds, amount, server, nextPath }: Load): Promise<LoadResult> {
  const cpuBefore = server?.cpuMs();
  const result = await autocannon({
    url,
    method,
    connections,
    ...(amount === undefined ? { duration: seconds } : { amount }),
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    ...(nextPath ? { requests: [{ setupRequest: (request: object) => ({ ...request, path: nextPath() }) }] } : {}),
  });
  return {
    reqPerSec: Math.round(result.requests.average),
    answers: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerReq: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : 0,
    cpuUsPerReq: server && cpuBefore !== undefined && result.requests.total ? Math.round(((server.cpuMs() - cpuBefore) * 1000) / result.requests.total) : undefined,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function row(name: string, r: LoadResult): string {
  const cpu = r.cpuUsPerReq === undefined ? '' : `   CPU ${r.cpuUsPerReq} µs/req`;
  return `${name.padEnd(44)} ${String(r.reqPerSec).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms${cpu}${r.non2xx || r.errors ? `   (non-2xx ${r.non2xx}, errors ${r.errors})` : ''}`;
}

/** Seconds of each measured load; BENCH_SECONDS shortens or lengthens every bench. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
