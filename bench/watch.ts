// Watches (POST /v5/x-transfer/watch) over local test chains that produce blocks, with a webhook
// receiver in this process that verifies every signature: the memory of BENCH_WATCHES (10,000) open
// watches (RSS per watch) next to the memory of open status streams (measured in a service of their
// own, started here, as the baseline), the CPU a block costs with every watch open, the latency
// from the settling block to the receiver (p50/p99) and deliveries per second. With BENCH_REDIS=1
// the watches run again with REDIS_URL, on a redis-server this bench starts (its RSS reported too).
// With BENCH_BASE=<git ref> that build runs first, then this one (BENCH_HEAD=<git ref> in its place),
// each in a service of its own on the same chains and receiver, and new/old is printed
// (BENCH_ROUNDS rounds, ABBA, new/old per round). Over the settling blocks each service's longest
// loop holds are measured in its own CPU time (bench/loop-holds.ts), which the machine's load does
// not lengthen as it does a wall-clock delay; with BENCH_CPU_PROF=<dir> each service runs under
// `--cpu-prof` (written there when the bench stops it) and its longest stretches over those blocks
// are printed with where their time went (bench/profile-stretches.ts).
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { startTestChain, type TestChain } from '../test/support/test-chain';
import { processed } from '../test/support/xcm-events';
import { ratio, withBuilds, type Build } from './baseline';
import { DEPLOYED_FLAGS, startService, type Service } from './harness';
import { monotonicUs, profileOf, stretchesOf, stretchesText, stretchText } from './profile-stretches';
import { startRedis } from './redis';
import { openStatusStreams } from './status-streams';
import { projectRoot } from '../src/project-root';
import { ALICE, cpuPerEmptyBlock, includeTransfers, loadAverage, makeWatches, percentile, SECRET, watchServiceEnv, type Transfer } from './watch-setup';

const WATCHES = Number(process.env.BENCH_WATCHES ?? 10_000);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);
/** Extrinsics per origin block (a watch made reads its block), and the destination blocks that settle every watch (a share each). */
const PER_ORIGIN_BLOCK = 10;
const SETTLING_BLOCKS = 10;
/** Between settling blocks (a real relay chain makes one every 6 s; this is a burst). */
const BLOCK_GAP_MS = 1_000;
/** POST /x-transfer/watch requests in flight while the watches are made. */
const CREATE_CONCURRENCY = Number(process.env.BENCH_CREATE_CONCURRENCY ?? 64);
/** How long deliveries are waited for after the last settling block; the rest are counted as late. */
const DELIVERY_WAIT_MS = Number(process.env.BENCH_DELIVERY_WAIT_MS ?? 120_000);
/** Runs of each build, in ABBA order (BENCH_ROUNDS=2: base, this, this, base). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** Where each service's CPU profile goes (kept), when set. */
const PROFILE_DIR = process.env.BENCH_CPU_PROF;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const settle = () => sleep(2_000);
/** Progress on stderr: a run takes minutes. */
const step = (what: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${what}\n`);

/**
 * Wall-clock ms (Date.now) of the steps of one webhook the receiver can see, for the split of its
 * latency: the event made (its body's `timestamp`, taken by the service when it read the change), the
 * receiver's TCP connection accepted (a kept connection's next request: its head), the request's head
 * and its end.
 */
interface Steps {
  made: number;
  connected: number;
  head: number;
  end: number;
}

/** The webhook receiver: verifies each signature, answers 204, records when each event id first arrived. */
async function startReceiver() {
  const verifier = new Webhook(SECRET);
  const firstSeen = new Map<string, { at: number; type: string; body: string; steps: Steps }>();
  const counts = new Map<string, number>();
  const state = { received: 0, repeats: 0, different: 0, forged: 0 };
  const waiters: Array<() => void> = [];
  const connectedAt = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    const head = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const end = Date.now();
      const body = Buffer.concat(chunks).toString();
      let type: string;
      try {
        type = (verifier.verify(body, req.headers as Record<string, string>) as { type: string }).type;
      } catch {
        state.forged++;
        res.writeHead(400).end();
        return;
      }
      const id = String(req.headers['webhook-id']);
      const seen = firstSeen.get(id);
      if (seen) {
        state.repeats++;
        if (seen.body !== body) state.different++;
      } else {
        const made = Date.parse((JSON.parse(body) as { timestamp: string }).timestamp);
        firstSeen.set(id, { at, type, body, steps: { made, connected: connectedAt.get(req.socket) ?? head, head, end } });
        counts.set(type, (counts.get(type) ?? 0) + 1);
      }
      // A kept connection's next request was not dialled: its connection step is its head.
      connectedAt.delete(req.socket);
      state.received++;
      res.writeHead(204).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  server.on('connection', (socket: object) => connectedAt.set(socket, Date.now()));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const countOf = (type: string) => counts.get(type) ?? 0;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    firstSeen,
    state,
    countOf,
    /** Resolves once `count` distinct events of `type` arrived. */
    async waitFor(type: string, count: number, ms = 600_000): Promise<void> {
      const end = performance.now() + ms;
      while (countOf(type) < count) {
        if (performance.now() > end) throw new Error(`${countOf(type)} of ${count} ${type} events arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 1_000);
        });
      }
    },
    close: () => new Promise((r) => server.close(r)),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function post(url: string, body: unknown): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as unknown;
  return { status: res.status, body: answer, ms: performance.now() - started };
}

/** RSS of a process, MB (redis-server's too). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

/** kB of RSS per open status stream, in a service of its own (the baseline a watch is set against). */
async function streamCost(options: object, pending: Transfer, build: Build): Promise<number> {
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' }, build.root);
  try {
    const statusUrl = `${service.url}/v5/x-transfer/status`;
    const body = JSON.stringify({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: pending.hash, blockHash: pending.blockHash, options });
    await post(statusUrl, JSON.parse(body));
    await settle();
    const idle = service.rssMb();
    const streams = await openStatusStreams(statusUrl, body, STREAMS);
    await settle();
    const open = service.rssMb();
    await streams.close();
    return ((open - idle) * 1024) / STREAMS;
  } finally {
    await service.stop();
  }
}

/** The V8 heap in use, MB, from the service's /metrics. */
async function heapMb(service: Service): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN) / 2 ** 20;
}

/**
 * What held the service's event loop, from its /metrics (prom-client's defaults, in both builds): GC
 * time so far by kind, ms, and the event-loop delay since the last scrape (each scrape resets it).
 */
async function loopFigures(service: Service): Promise<{ gcMs: Map<string, number>; delayP99Ms: number; delayMaxMs: number }> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const gcMs = new Map([...text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} (\S+)/gm)].map(([, kind, s]) => [kind!, Number(s) * 1000]));
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { gcMs, delayP99Ms: gauge('nodejs_eventloop_lag_p99_seconds'), delayMaxMs: gauge('nodejs_eventloop_lag_max_seconds') };
}

/**
 * The longest hold of the service's loop in its own CPU time since the last call, and holds over
 * 50 ms (bench/loop-holds.ts in the service: SIGUSR2 writes its window and starts the next).
 */
async function cpuHolds(service: Service, file: string): Promise<{ max: number; over50: number; maxFromUs: number; maxToUs: number }> {
  rmSync(file, { force: true });
  service.child.kill('SIGUSR2');
  for (let i = 0; i < 250 && !existsSync(file); i++) await sleep(20);
  return JSON.parse(readFileSync(file, 'utf8')) as { max: number; over50: number; maxFromUs: number; maxToUs: number };
}

/** The service's GC time between two scrapes, ms: in all, and major. */
function gcBetween(before: Map<string, number>, after: Map<string, number>): { all: number; major: number } {
  let all = 0;
  for (const [kind, total] of after) all += total - (before.get(kind) ?? 0);
  return { all, major: (after.get('major') ?? 0) - (before.get('major') ?? 0) };
}

const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : `over ${DELIVERY_WAIT_MS / 1000} s`);

/** What one build's run of the watches measured, to set it against the other build's. */
interface Figures {
  kbPerWatch: number;
  cpuBlockMs: number;
  p50: number;
  p99: number;
  burstPerSec: number;
  split: Split;
  /** The service's GC time and its longest event-loop delay over the settling blocks. */
  gcMs: number;
  delayMaxMs: number;
  /** Its CPU time over those blocks (every thread's), its longest loop hold in its own CPU time, and holds over 50 ms. */
  cpuSettlingMs: number;
  holdMaxMs: number;
  holdsOver50: number;
  /** With BENCH_CPU_PROF: the longest stretch of its profile over those blocks (wall clock). */
  stretchMaxMs?: number;
}

/**
 * The parts of a webhook's latency, each from the step before (the block for the first): the event
 * made (the service saw the block, read its events, matched the watch, read its answer in a follow
 * run's slot), the receiver's connection accepted (the event recorded, queued for a delivery slot,
 * signed, dialled unless a connection was kept), the request's head, its end.
 */
const PARTS = ['made', 'connected', 'head', 'end'] as const;
type Part = (typeof PARTS)[number];
type Split = Record<Part, { p50: number; p99: number }>;
const PART_NAMES: Record<Part, string> = {
  made: 'block -> event made',
  connected: 'made -> connection accepted (kept: head)',
  head: 'connection -> request head',
  end: 'head -> body end',
};
const splitText = ({ p50, p99 }: { p50: number; p99: number }): string => `${p50.toFixed(0)} / ${p99.toFixed(0)} ms`;

/** Makes WATCHES watches of pending transfers, measures them open, then settles every transfer; prints as it goes. */
async function runWatches(name: string, build: Build, env: Record<string, string>, assetHub: TestChain, options: object, transfers: Transfer[], receiver: Receiver, streamKb: number, redisPid?: number): Promise<Figures> {
  const holdsFile = join(tmpdir(), `watch-loop-holds-${process.pid}.json`);
  const profileDir = PROFILE_DIR && join(PROFILE_DIR, name.replace(/[^\w.-]+/g, '-'));
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const service = await startService(
    { ...watchServiceEnv(WATCHES), NODE_OPTIONS: `--require ${join(projectRoot(), 'dist/bench/loop-holds.js')}`, LOOP_HOLDS_FILE: holdsFile, ...env },
    build.root,
    profileDir ? [...DEPLOYED_FLAGS, '--cpu-prof', `--cpu-prof-dir=${profileDir}`] : DEPLOYED_FLAGS,
  );
  /** The settling blocks' window on the profile's clock, and its longest CPU-time hold (its turns, its CPU). */
  const window = { fromUs: 0, toUs: 0, hold: { fromUs: 0, toUs: 0, ms: 0 } };
  let figures: Figures;
  try {
    // Chains connected (one status read), then nothing open.
    await post(`${service.url}/v5/x-transfer/status`, { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: transfers[0].hash, blockHash: transfers[0].blockHash, options });
    await settle();
    const idleMb = service.rssMb();
    const idleHeap = await heapMb(service);
    const [cpuIdleBlock] = await cpuPerEmptyBlock([service], assetHub);

    step(`${name}: making watches`);
    const before = receiver.countOf('transfer.in-flight');
    const made = await makeWatches(service, transfers, { from: 'Polkadot', to: 'AssetHubPolkadot', options, webhook: { url: receiver.url, secret: SECRET } }, CREATE_CONCURRENCY);
    const watchOf = new Map(made.ids.map((id, i) => [id, i]));
    console.log(`${name}: ${transfers.length} watches made at ${made.perSec.toFixed(0)}/s (${CREATE_CONCURRENCY} at a time, POST p50 ${made.p50.toFixed(0)} ms, p99 ${made.p99.toFixed(0)} ms; ${made.cpuMs.toFixed(1)} ms of service CPU each${made.retried ? `; ${made.retried} answered 503 and sent again` : ''})`);
    // Each watch tells of its origin leg at once (`in-flight`).
    const lateInFlight = await receiver.waitFor('transfer.in-flight', before + transfers.length, DELIVERY_WAIT_MS).then(() => 0, () => before + transfers.length - receiver.countOf('transfer.in-flight'));
    await settle();
    const openMb = service.rssMb();
    const openHeap = await heapMb(service);
    const kbPerWatch = ((openMb - idleMb) * 1024) / transfers.length;
    console.log(
      `  RSS idle ${idleMb.toFixed(0)} MB, with the watches open ${openMb.toFixed(0)} MB: ${kbPerWatch.toFixed(1)} kB per watch (${(kbPerWatch / streamKb).toFixed(1)}x an open stream); ` +
        `V8 heap ${idleHeap.toFixed(0)} -> ${openHeap.toFixed(0)} MB: ${(((openHeap - idleHeap) * 1024) / transfers.length).toFixed(1)} kB per watch` +
        (redisPid === undefined ? '' : `; redis-server RSS ${rssMb(redisPid).toFixed(0)} MB`) +
        (lateInFlight ? `; ${lateInFlight} first events not arrived` : ''),
    );
    const [cpuBlock] = await cpuPerEmptyBlock([service], assetHub);
    console.log(`  service CPU per empty destination block (median of ${cpuBlock!.blocks}): ${cpuIdleBlock!.median.toFixed(1)} ms with no watch, ${cpuBlock!.median.toFixed(1)} ms with the watches open (p10 ${cpuBlock!.p10.toFixed(1)}, p90 ${cpuBlock!.p90.toFixed(1)})`);

    step(`${name}: settling the transfers`);
    // Half the transfers settle SETTLING_BLOCKS destination blocks, BLOCK_GAP_MS apart, a share each
    // (latency from block to receiver); the other half in one block (deliveries per second).
    const settledAt = new Map<number, number>();
    /** The block's wall-clock time, to set against the steps the receiver saw. */
    const settledWall = new Map<number, number>();
    const settleTransfers = (from: number, to: number): number => {
      assetHub.produceBlock({ events: transfers.slice(from, to).map((t) => processed(t.topic, { Parent: null }, true)) });
      const now = performance.now();
      const wall = Date.now();
      for (let i = from; i < to; i++) {
        settledAt.set(i, now);
        settledWall.set(i, wall);
      }
      return now;
    };
    const half = Math.floor(transfers.length / 2);
    const loopBefore = await loopFigures(service);
    service.child.kill('SIGUSR2');
    window.fromUs = monotonicUs();
    const cpuBefore = service.threadsCpuMs();
    const share = Math.ceil(half / SETTLING_BLOCKS);
    const delivered = receiver.countOf('transfer.delivered');
    for (let at = 0; at < half; at += share) {
      settleTransfers(at, Math.min(at + share, half));
      await sleep(BLOCK_GAP_MS);
    }
    const lateFirst = await receiver.waitFor('transfer.delivered', delivered + half, DELIVERY_WAIT_MS).then(() => 0, () => delivered + half - receiver.countOf('transfer.delivered'));
    window.toUs = monotonicUs();
    const cpuSettling = service.threadsCpuMs() - cpuBefore;
    const holds = await cpuHolds(service, holdsFile);
    window.hold = { fromUs: holds.maxFromUs, toUs: holds.maxToUs, ms: holds.max };
    const loopAfter = await loopFigures(service);
    const gc = gcBetween(loopBefore.gcMs, loopAfter.gcMs);
    const latencies: number[] = [];
    const parts: Record<Part, number[]> = { made: [], connected: [], head: [], end: [] };
    for (const [id, event] of receiver.firstSeen) {
      const i = watchOf.get(id.slice(0, id.lastIndexOf('.')));
      if (event.type !== 'transfer.delivered' || i === undefined || i >= half) continue;
      latencies.push(event.at - settledAt.get(i)!);
      const { made, connected, head, end } = event.steps;
      parts.made.push(made - settledWall.get(i)!);
      parts.connected.push(connected - made);
      parts.head.push(head - connected);
      parts.end.push(end - head);
    }
    const split = Object.fromEntries(PARTS.map((part) => [part, { p50: percentile(parts[part].sort((a, b) => a - b), 0.5), p99: percentile(parts[part], 0.99) }])) as Split;
    // Those not arrived within the wait count as the slowest.
    while (latencies.length < half) latencies.push(Infinity);
    latencies.sort((a, b) => a - b);
    console.log(`  block to receiver, ${half} transfer.delivered over ${SETTLING_BLOCKS} blocks ${BLOCK_GAP_MS} ms apart: p50 ${ms(percentile(latencies, 0.5))}, p99 ${ms(percentile(latencies, 0.99))}${lateFirst ? `; ${lateFirst} not arrived within ${DELIVERY_WAIT_MS / 1000} s` : ''}`);
    console.log(`  split of those (p50 / p99 of each part): ${PARTS.map((part) => `${PART_NAMES[part]} ${splitText(split[part])}`).join('; ')}`);
    console.log(`  the service over those blocks: CPU ${cpuSettling.toFixed(0)} ms in ${((window.toUs - window.fromUs) / 1000).toFixed(0)} ms, GC ${gc.all.toFixed(0)} ms (major ${gc.major.toFixed(0)} ms), event-loop delay p99 ${loopAfter.delayP99Ms.toFixed(0)} ms, max ${loopAfter.delayMaxMs.toFixed(0)} ms; longest loop hold in its CPU time ${holds.max.toFixed(0)} ms, ${holds.over50} over 50 ms`);

    // Counted by watch: stragglers of the first half may still be arriving.
    const burstAt = settleTransfers(half, transfers.length);
    const burstTimes = (): number[] =>
      [...receiver.firstSeen].flatMap(([id, event]) => {
        const i = watchOf.get(id.slice(0, id.lastIndexOf('.')));
        return event.type === 'transfer.delivered' && i !== undefined && i >= half ? [event.at] : [];
      });
    const burstEnd = performance.now() + DELIVERY_WAIT_MS;
    while (burstTimes().length < transfers.length - half && performance.now() < burstEnd) await sleep(500);
    const times = burstTimes();
    const rate = times.length === 0 ? 0 : (times.length * 1000) / (Math.max(...times) - burstAt);
    const lateBurst = transfers.length - half - times.length;
    console.log(`  ${transfers.length - half} settled by one block: ${times.length} delivered at ${rate.toFixed(0)}/s from the block to the last${lateBurst ? `; ${lateBurst} not within ${DELIVERY_WAIT_MS / 1000} s` : ''}`);
    const { repeats, different, forged } = receiver.state;
    console.log(`  receiver so far: ${repeats} repeated ids (${different} with a different body), ${forged} bad signatures; ${loadAverage()}`);
    figures = { kbPerWatch, cpuBlockMs: cpuBlock!.median, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), burstPerSec: rate, split, gcMs: gc.all, delayMaxMs: loopAfter.delayMaxMs, holdMaxMs: holds.max, holdsOver50: holds.over50, cpuSettlingMs: cpuSettling };
  } finally {
    // SIGTERM: the service shuts down and exits, which writes its profile.
    await service.stop();
  }
  if (profileDir) {
    const stretches = stretchesOf(profileOf(profileDir, service.child.pid!), window.fromUs, window.toUs);
    console.log(`  its profile over the settling blocks (${profileDir}, monotonic ${window.fromUs}-${window.toUs} µs): ${stretchesText(stretches, window.fromUs)}`);
    figures.stretchMaxMs = stretches.longest[0]?.ms;
    // The profile between the two timer turns of the longest CPU-time hold: whose task it was.
    const [hold] = stretchesOf(profileOf(profileDir, service.child.pid!), window.hold.fromUs, window.hold.toUs, 1).longest;
    if (hold) console.log(`  its longest loop hold (${window.hold.ms.toFixed(0)} ms of CPU) in its profile: ${stretchText(hold, window.fromUs)}`);
  }
  return figures;
}

const ratioRow = (backend: string, older: Figures, newer: Figures): string =>
  `${backend} new/old: RSS per watch ${ratio(newer.kbPerWatch, older.kbPerWatch)}, CPU per empty block ${ratio(newer.cpuBlockMs, older.cpuBlockMs)}, ` +
  `block to receiver p50 ${ratio(newer.p50, older.p50)}, p99 ${ratio(newer.p99, older.p99)}, deliveries per second after one block ${ratio(newer.burstPerSec, older.burstPerSec)}; ` +
  `p99 of ${PARTS.map((part) => `${PART_NAMES[part]} ${ratio(newer.split[part].p99, older.split[part].p99)}`).join(', ')}`;

async function main(): Promise<void> {
  await withBuilds(async (builds) => {
    const latest = builds.at(-1)!;
    const polkadot = await startTestChain('Polkadot', { partialFee: 1_000_000n });
    const assetHub = await startTestChain('AssetHubPolkadot');
    const options = { development: true, apiOverrides: { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url } };
    const receiver = await startReceiver();
    console.log(`Node.js ${process.version}; ${loadAverage()}`);
    try {
      // The call data, built once by a service of its own, signed with a new nonce per transfer.
      const builder = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' }, latest.root);
      const build = await post(`${builder.url}/v5/x-transfer`, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, options });
      await builder.stop();
      if (build.status !== 200) throw new Error(`build: ${build.status} ${JSON.stringify(build.body)}`);
      const callHex = build.body as string;
      let nonce = 0;
      const pendingTransfers = async (count: number): Promise<Transfer[]> => {
        const transfers = await includeTransfers(polkadot, callHex, nonce, count, PER_ORIGIN_BLOCK);
        nonce += count;
        return transfers;
      };

      const [pending] = await pendingTransfers(1);
      const streamKb = await streamCost(options, pending!, latest);
      console.log(`baseline: ${STREAMS} open status streams (${latest.label}): ${streamKb.toFixed(1)} kB per stream`);

      for (const backend of ['memory backend', ...(process.env.BENCH_REDIS === '1' ? ['redis backend'] : [])]) {
        const figures = builds.map((): Figures[] => []);
        for (let round = 0; round < ROUNDS; round++) {
          // ABBA: the build measured second signs on chains the first already grew, so the order alternates.
          for (const b of round % 2 === 0 ? [...builds.keys()] : [...builds.keys()].reverse()) {
            const build = builds[b]!;
            const name = `${backend}, ${build.label}${ROUNDS > 1 ? `, round ${round + 1}` : ''}`;
            step(`${name}: signing`);
            const transfers = await pendingTransfers(WATCHES);
            const redis = backend === 'redis backend' ? await startRedis() : undefined;
            try {
              figures[b]!.push(await runWatches(name, build, redis ? { REDIS_URL: redis.url } : {}, assetHub, options, transfers, receiver, streamKb, redis?.child.pid));
            } finally {
              await redis?.stop();
            }
          }
        }
        if (builds.length > 1) for (let round = 0; round < ROUNDS; round++) console.log(`round ${round + 1}: ${ratioRow(backend, figures[0]![round]!, figures.at(-1)![round]!)}`);
        if (ROUNDS > 1) for (const [b, runs] of figures.entries()) console.log(`${backend}, ${builds[b]!.label}: block to receiver p50 ${runs.map((f) => ms(f.p50)).join(', ')}; p99 ${runs.map((f) => ms(f.p99)).join(', ')}`);
        for (const [b, runs] of figures.entries()) console.log(`${backend}, ${builds[b]!.label}: over the settling blocks, CPU ${runs.map((f) => `${f.cpuSettlingMs.toFixed(0)} ms`).join(', ')}; GC ${runs.map((f) => `${f.gcMs.toFixed(0)} ms`).join(', ')}; longest event-loop delay ${runs.map((f) => `${f.delayMaxMs.toFixed(0)} ms`).join(', ')}; longest loop hold in CPU time ${runs.map((f) => `${f.holdMaxMs.toFixed(0)} ms (${f.holdsOver50} over 50)`).join(', ')}${runs[0]?.stretchMaxMs === undefined ? '' : `; longest profiled stretch ${runs.map((f) => `${f.stretchMaxMs?.toFixed(0)} ms`).join(', ')}`}`);
        for (const [b, runs] of figures.entries()) for (const part of PARTS) console.log(`${backend}, ${builds[b]!.label}: ${PART_NAMES[part]} (p50 / p99) ${runs.map((f) => splitText(f.split[part])).join(', ')}`);
      }
    } finally {
      await receiver.close();
      await Promise.all([polkadot.close(), assetHub.close()]);
    }
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
