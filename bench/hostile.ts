// Hostile chain nodes (loopback, in front of the test chains, real metadata) against the compiled
// service in its own process:
//   - service CPU per hostile request for the heavy cases: a status lookback over blocks of 100,000
//     extrinsics, over ~15 MB block frames, a block whose System.Events hold 3,999 records (the most the default budget decodes), and
//     metadata v15 of ~15 MB announcing 90,000 types (each under the per-frame and per-block
//     bounds; the per-request budget, REQUEST_MAX_CHAIN_BYTES / _ITEMS, stops them);
//   - /health p50/p99 while four such requests run, against the same server idle (ratio), and the
//     longest the service's main thread held its event loop meanwhile, in its own CPU time
//     (bench/loop-holds.ts: a figure a shared machine's load does not move);
//   - RSS after filling the pool (MAX_CHAINS) with override connections to distinct hostile nodes,
//     and the memory per connection.
// Prints a Markdown summary and one JSON line.
//   npx tsc -p tsconfig.json && node dist/bench/hostile.js
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root';
import { startHostileNode, type Behaviour, type HostileNode, type RpcFrame } from '../test/support/hostile-node';
import { bigExtrinsics, blockAnswer, hexAnswer, LONE_EXTRINSIC, LONE_EXTRINSIC_HASH, manyEvents, manyExtrinsics, metadataAnswer } from '../test/support/hostile-answers';
import { EVENTS_KEY } from '../test/support/test-blocks';
import { startTestChain, type TestChain } from '../test/support/test-chain';
import { startService, type Service } from './harness';

const HEALTH_SAMPLES = Number(process.env.BENCH_HOSTILE_HEALTH ?? 300);
const ROUNDS = Number(process.env.BENCH_HOSTILE_ROUNDS ?? 3);
const ATTACKERS = 4;

export interface HostileCase {
  name: string;
  path: string;
  body: unknown;
}

const param = (frame: RpcFrame, i: number): unknown => (Array.isArray(frame.params) ? frame.params[i] : undefined);

/** The hostile nodes of the heavy cases, each in front of `upstream`, and the request that reaches each. */
export async function heavyCases(polkadot: TestChain, assetHub: TestChain): Promise<{ cases: HostileCase[]; nodes: HostileNode[] }> {
  const huge = manyExtrinsics();
  // 7 extrinsics of 1 MiB: a frame of about 14.7 MB, under the 16 MiB frame bound.
  const big = bigExtrinsics(7, 1024 * 1024);
  const lone = JSON.stringify([LONE_EXTRINSIC]);
  const events = manyEvents(polkadot.registry, 3_999);
  const metadata = metadataAnswer(90_000, 7_000_000);
  let metadataReads = 0;
  const behaviours: Record<string, (frame: RpcFrame) => Behaviour> = {
    'lookback over blocks of 100,000 extrinsics': (f) => (f.method === 'chain_getBlock' ? { send: blockAnswer(f, huge) } : 'forward'),
    'lookback over ~15 MB block frames': (f) => (f.method === 'chain_getBlock' ? { send: blockAnswer(f, big) } : 'forward'),
    'events decode of 3,999 records (at the bound)': (f) => {
      if (f.method === 'chain_getBlock') return { send: blockAnswer(f, lone) };
      return f.method === 'state_getStorage' && param(f, 0) === EVENTS_KEY ? { send: hexAnswer(f, events) } : 'forward';
    },
    // polkadot.js reads metadata v15 when it connects: that first read gets the chain's own.
    'metadata v15 of ~15 MB, 90,000 types': (f) => (f.method === 'state_call' && param(f, 0) === 'Metadata_metadata_at_version' && metadataReads++ > 0 ? { send: hexAnswer(f, metadata) } : 'forward'),
  };
  const nodes: HostileNode[] = [];
  const cases: HostileCase[] = [];
  for (const [name, onRequest] of Object.entries(behaviours)) {
    const node = await startHostileNode({ upstream: polkadot.url, onRequest });
    nodes.push(node);
    const options = { development: true, apiOverrides: { Polkadot: node.url, AssetHubPolkadot: assetHub.url } };
    const status = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'ab'.repeat(32)}`, options };
    if (name.startsWith('metadata')) cases.push({ name, path: '/v5/metadata-hash', body: { chain: 'Polkadot', options } });
    else if (name.startsWith('events')) cases.push({ name, path: '/v5/x-transfer/status', body: { ...status, txHash: LONE_EXTRINSIC_HASH, blockHash: `0x${'cd'.repeat(32)}` } });
    else cases.push({ name, path: '/v5/x-transfer/status', body: status });
  }
  return { cases, nodes };
}

export async function post(service: Service, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(service.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const settle = (ms = 1_500) => new Promise((r) => setTimeout(r, ms));

export interface HealthTimes {
  p50: number;
  p99: number;
  n: number;
  /** The probe's own longest event-loop delay and its p99 (ms): time the probe itself waited for a core. */
  probeDelayMax: number;
  probeDelayP99: number;
}

/** /health answer times (ms), `samples` one after another, taken by bench/health-probe.ts in its own process. */
export async function healthTimes(service: Pick<Service, 'url'>, samples: number): Promise<HealthTimes> {
  const probe = spawn(process.execPath, [join(projectRoot(), 'dist/bench/health-probe.js'), service.url, String(samples)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  probe.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => probe.on('close', resolve));
  if (code !== 0) throw new Error(`the /health probe failed (exit ${code})`);
  const probed = JSON.parse(out) as { times: number[]; ownDelayMaxMs: number; ownDelayP99Ms: number };
  const times = probed.times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), n: times.length, probeDelayMax: probed.ownDelayMaxMs, probeDelayP99: probed.ownDelayP99Ms };
}

export interface LoopHolds {
  /** The longest hold, ms of main-thread CPU between two turns of the loop. */
  max: number;
  /** The longest wall time between two turns of the loop (ms), and how many passed 50 ms: over `max`, the main thread waited for a core or for the collector's helper threads. */
  wallMax: number;
  wallOver50: number;
  /** Holds over 50 ms. */
  over50: number;
  /** Holds over 20 ms. */
  over20: number;
  /** The longest garbage collection meanwhile (wall ms), and how many took over 20 ms. */
  gcMax: number;
  gcOver20: number;
  /** The longest mark-compact collection and how many ran; the heap in use at the window's end (MB). */
  majorGcMax: number;
  majorGcs: number;
  heapMb: number;
}

/** The service's loop holds since the last call, read from bench/loop-holds.ts in it (SIGUSR2); a new window starts. */
export async function loopHolds(service: Service, file: string): Promise<LoopHolds> {
  rmSync(file, { force: true });
  service.child.kill('SIGUSR2');
  for (let i = 0; i < 250 && !existsSync(file); i++) await settle(20);
  return JSON.parse(readFileSync(file, 'utf8')) as LoopHolds;
}

interface CaseResult {
  name: string;
  status: number;
  cpuMs: number;
  message: string;
}

async function main(): Promise<void> {
  const [polkadot, assetHub] = await Promise.all([startTestChain('Polkadot'), startTestChain('AssetHubPolkadot')]);
  const { cases, nodes } = await heavyCases(polkadot, assetHub);
  const holdsFile = join(tmpdir(), `loop-holds-${process.pid}.json`);
  const service = await startService({
    ALLOW_PRIVATE_OVERRIDES: 'true',
    LOG_LEVEL: 'warn',
    NODE_OPTIONS: `--require ${join(projectRoot(), 'dist/bench/loop-holds.js')}`,
    LOOP_HOLDS_FILE: holdsFile,
  });
  console.log(`Node.js ${process.version}`);
  try {
    // Service CPU per hostile request, connections warm (the first request of each case connects).
    const results: CaseResult[] = [];
    for (const c of cases) {
      console.log(`  ${c.name}: ${(await post(service, c.path, c.body)).status} (first request: connects)`);
      await settle(500);
      const cpu: number[] = [];
      let last = { status: 0, text: '' };
      for (let i = 0; i < ROUNDS; i++) {
        const before = service.cpuMs();
        last = await post(service, c.path, c.body);
        // Frames of the same request still in flight when it answered are part of its cost.
        await settle(300);
        cpu.push(service.cpuMs() - before);
      }
      cpu.sort((a, b) => a - b);
      const message = (JSON.parse(last.text) as { message?: string }).message ?? last.text;
      results.push({ name: c.name, status: last.status, cpuMs: cpu[Math.floor(cpu.length / 2)]!, message });
    }

    // /health idle, then with four hostile requests running at all times.
    await settle();
    service.child.kill('SIGUSR2');
    const idle = await healthTimes(service, HEALTH_SAMPLES);
    const idleHolds = await loopHolds(service, holdsFile);
    let stop = false;
    const attackers = Array.from({ length: ATTACKERS }, async (_, i) => {
      let sent = 0;
      while (!stop) {
        const c = cases[(i + sent++) % 2]!;
        await post(service, c.path, c.body);
      }
      return sent;
    });
    await settle(300);
    const attacked = await healthTimes(service, HEALTH_SAMPLES);
    const attackedHolds = await loopHolds(service, holdsFile);
    stop = true;
    const attackRequests = (await Promise.all(attackers)).reduce((a, b) => a + b, 0);

    // The pool filled with override connections to distinct hostile nodes.
    await settle();
    const rssBefore = service.rssMb();
    const maxChains = 32;
    const fill: HostileNode[] = [];
    for (let i = 0; i < maxChains; i++) fill.push(await startHostileNode({ upstream: polkadot.url }));
    const fillStatuses = new Map<number, number>();
    for (const node of fill) {
      const body = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'ab'.repeat(32)}`, blockHash: `0x${'cd'.repeat(32)}`, options: { development: true, apiOverrides: { Polkadot: node.url } } };
      const { status } = await post(service, '/v5/x-transfer/status', body);
      fillStatuses.set(status, (fillStatuses.get(status) ?? 0) + 1);
    }
    await settle(3_000);
    const rssFull = service.rssMb();
    const connected = fill.filter((n) => n.openConnections > 0).length;
    const perConnection = connected ? (rssFull - rssBefore) / connected : 0;

    const lines = [
      '| hostile request (one at a time, connection warm) | answer | service CPU |',
      '|---|---|---|',
      ...results.map((r) => `| ${r.name} | ${r.status}: ${r.message.slice(0, 110)} | ${r.cpuMs} ms |`),
      '',
      `| /health, ${HEALTH_SAMPLES} sequential | p50 | p99 | longest loop hold (main-thread CPU) | holds over 50 ms |`,
      '|---|---|---|---|---|',
      `| idle | ${idle.p50.toFixed(1)} ms | ${idle.p99.toFixed(1)} ms | ${idleHolds.max.toFixed(0)} ms | ${idleHolds.over50} |`,
      `| ${ATTACKERS} hostile lookbacks running (${attackRequests} sent) | ${attacked.p50.toFixed(1)} ms (${(attacked.p50 / idle.p50).toFixed(1)}x) | ${attacked.p99.toFixed(1)} ms (${(attacked.p99 / idle.p99).toFixed(1)}x) | ${attackedHolds.max.toFixed(0)} ms | ${attackedHolds.over50} |`,
      '',
      `RSS before filling the pool: ${rssBefore} MB; with ${connected} override connections to distinct hostile nodes open: ${rssFull} MB; ${perConnection.toFixed(1)} MB per connection (answers: ${[...fillStatuses].map(([s, n]) => `${n} x ${s}`).join(', ')})`,
    ];
    console.log(lines.join('\n'));
    console.log(
      JSON.stringify({
        cpuMsPerHostileRequest: Object.fromEntries(results.map((r) => [r.name, r.cpuMs])),
        health: { idle, attacked, p50Ratio: attacked.p50 / idle.p50, p99Ratio: attacked.p99 / idle.p99, loopHolds: { idle: idleHolds, attacked: attackedHolds } },
        pool: { rssBeforeMb: rssBefore, rssFullMb: rssFull, connections: connected, mbPerConnection: perConnection },
      }),
    );
    await Promise.all(fill.map((n) => n.close()));
  } finally {
    await service.stop();
    await Promise.all([...nodes.map((n) => n.close()), polkadot.close(), assetHub.close()]);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
