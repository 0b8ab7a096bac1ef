// /explain against call data written to cost (issue 42), on the compiled service in its own
// process over a local AssetHubPolkadot test chain:
//   - per body: the answer's status and size, and the service's CPU per request (its threads'
//     schedstat, median of BENCH_EXPLAIN_ROUNDS);
//   - another client's /health p50/p99 (bench/health-probe.ts, its own process) while one client,
//     then four clients from four addresses (127.0.0.2-5), send the costliest body without pause
//     (BENCH_EXPLAIN_ATTACK names another), against the same service idle, with the longest loop
//     holds meanwhile. Each attacker's first request is sent before: it dials a connection of its
//     own to the node it names (apiOverrides), whose metadata decode holds the loop once per
//     connection (printed apart: not /explain's work, any request naming a node pays it);
//   - each window's garbage collections (bench/loop-holds.ts) and the metadata decodes the service
//     counted in it (/metrics xcm_gateway_chain_runtimes_total: decoded, shared, cached; a build
//     without that metric prints none), so a hold over 50 ms can be told apart;
//   - the four clients coming back once their connections closed when idle (CLIENT_IDLE_TIMEOUT_MS):
//     their first requests' loop holds and decodes again;
//   - a decode storm: one more client naming node after node of its own, each answering another
//     chain name (so another runtime to decode), for a /health window: the decodes it caused, its
//     answers by status, /health p99 and the loop holds meanwhile (METADATA_DECODES_PER_CLIENT_PER_MINUTE
//     as shipped; a build without it decodes on every connection).
//   - the machine's floor in each window: the same probe against a bare node:http server in a
//     process of its own (nothing of ours), and the probe's own longest event-loop delay; beside the
//     service's longest loop hold in CPU, its longest in wall time (waiting for a core or the
//     collector's helper threads).
// Goals: every body under 50 ms of CPU and 256 kB of answer; /health p99 under 100 ms meanwhile.
// BENCH_EXPLAIN_ONLY=storm measures the decode storm alone (a service of its own per build and run);
// with BENCH_EXPLAIN_FLAGS="--cpu-prof --cpu-prof-dir=<dir>" it prints whose task the longest hold was.
// BENCH_BASE=<git ref> measures that commit too, in the same run, attacked with the body that costs
// this build most. BENCH_EXPLAIN_FLAGS adds node flags to the service of every build (say
// --single-threaded-gc); flag sets separated by commas are each measured, in the same run
// (",--single-threaded-gc": as deployed, then with the flag added). BENCH_EXPLAIN_RUNS repeats
// the whole, the order reversed every other run; a table of every run's /health p99s ends it.
//   npm run bench:explain
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Registry } from '@polkadot/types/types';
import { loadConfig } from '../src/config';
import { projectRoot } from '../src/project-root';
import { answerTo, startHostileNode, type HostileNode } from '../test/support/hostile-node';
import { callData, executeCall, hostileProgram, nestedReserveSends, unlistedAssets } from '../test/support/hostile-programs';
import { startTestChain, type TestChain } from '../test/support/test-chain';
import { withBuilds, type Build } from './baseline';
import { DEPLOYED_FLAGS, startBare, startService, type Service } from './harness';
import { healthTimes, loopHolds, post, type HealthTimes, type LoopHolds } from './hostile';
import { profileOf, stretchesOf, stretchText } from './profile-stretches';

const ROUNDS = Number(process.env.BENCH_EXPLAIN_ROUNDS ?? 5);
const HEALTH_SAMPLES = Number(process.env.BENCH_EXPLAIN_HEALTH ?? 300);
/** Attackers at once, each from an address of its own. */
const ATTACKS = [1, 4];
const RUNS = Number(process.env.BENCH_EXPLAIN_RUNS ?? 1);
/** Nodes the decode storm's client names in turn (more than its connections and the runtimes kept). */
const STORM_NODES = 12;
/** The decode storm alone: no bodies, attacks or clients coming back. */
const STORM_ONLY = process.env.BENCH_EXPLAIN_ONLY === 'storm';
/** Node flag sets measured, each added to the deployed ones. */
const VARIANTS = (process.env.BENCH_EXPLAIN_FLAGS ?? '').split(',').map((set) => set.split(' ').filter(Boolean));

function bodiesFor(registry: Registry): Record<string, string> {
  const remark = callData(registry, 'System', 'remark', { remark: '0x1234' });
  const teleport = callData(registry, 'PolkadotXcm', 'limited_teleport_assets', {
    dest: { V4: { parents: 1, interior: 'Here' } },
    beneficiary: { V4: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: `0x${'d2'.repeat(32)}` } }] } } },
    assets: { V4: [{ id: { parents: 1, interior: 'Here' }, fun: { Fungible: 10_000_000_000n } }] },
    fee_asset_item: 0,
    weight_limit: 'Unlimited',
  });
  const inBounds = executeCall(registry, hostileProgram(3, 20, 7));
  const clearOrigins = executeCall(registry, Array.from({ length: 100 }, () => ({ ClearOrigin: null })));
  const sends = (n: number) => executeCall(registry, [{ WithdrawAsset: unlistedAssets(20) }, ...Array.from({ length: n }, () => nestedReserveSends(1)[0]!)]);
  const batch = (calls: string[]) => callData(registry, 'Utility', 'batch_all', { calls });
  return {
    'a teleport (for scale)': teleport,
    'system.remark': remark,
    // The issue's bodies: one list of N distinct unlisted assets, then D nested reserve sends.
    'issue: 300 assets x 40 hops (7 kB)': executeCall(registry, [{ WithdrawAsset: unlistedAssets(300) }, ...nestedReserveSends(40)]),
    'issue: 1,500 assets x 120 hops (35 kB)': executeCall(registry, [{ WithdrawAsset: unlistedAssets(1_500) }, ...nestedReserveSends(120)]),
    'issue: 2,000 assets x 200 hops (48 kB)': executeCall(registry, [{ WithdrawAsset: unlistedAssets(2_000) }, ...nestedReserveSends(200)]),
    // Inside every bound a chain keeps: 3 lists of 20 distinct assets, 7 nested sends.
    'in bounds: 60 assets x 7 hops': inBounds,
    'past the call data bounds: 30 of those in a batch': batch(Array.from({ length: 30 }, () => inBounds)),
    'in bounds: 40 sends of one asset': executeCall(registry, [{ WithdrawAsset: unlistedAssets(1) }, ...Array.from({ length: 40 }, () => nestedReserveSends(1)[0]!)]),
    'past the call data bounds: 40 programs of 100 instructions in a batch': batch(Array.from({ length: 40 }, () => clearOrigins)),
    'past the holding: 50 lists of 20 assets x 7 hops': executeCall(registry, hostileProgram(50, 20, 7)),
    // Near the values bound (MAX_EXPLAIN_VALUES): 3 programs of 20 assets and 70 sends.
    'in bounds: 3 x (20 assets, 70 sends) in a batch': batch(Array.from({ length: 3 }, () => sends(70))),
    // polkadot.js decodes nesting until its stack runs out (polkadotXcm.execute is 0x1f03 here).
    'SetAppendix nested 1,000 deep (2 kB)': `0x1f030404${'1604'.repeat(1_000)}0a02286bee821a0600`,
    'a batch of 2,000 remarks (6 kB)': callData(registry, 'Utility', 'batch', { calls: Array.from({ length: 2_000 }, () => callData(registry, 'System', 'remark', { remark: '0x' })) }),
  };
}

/** Connects by runtime origin (decoded, shared, cached) so far, all chains; {} from a build without the metric. */
async function runtimeCounts(service: Service): Promise<Record<string, number>> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const [, runtime, count] of text.matchAll(/^xcm_gateway_chain_runtimes_total\{chain="[^"]*",runtime="(\w+)"\} (\d+)$/gm)) counts[runtime!] = (counts[runtime!] ?? 0) + Number(count);
  return counts;
}

const delta = (after: Record<string, number>, before: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]).filter(([, v]) => v !== 0));

/** Client connections open to the node, as /metrics counts them (0 once they closed when idle). */
async function openConnections(service: Service): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  return Number(/^xcm_gateway_chain_connections\{chain="AssetHubPolkadot",state="open"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

/** POSTs `body` from the local address `from` over a keep-alive connection of its own. */
function postFrom(service: Service, agent: Agent, from: string, path: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(service.url + path, { method: 'POST', agent, localAddress: from, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

interface Figures {
  rows: { name: string; bodyKb: number; status: number; kind: string; answerKb: number; cpuMs: number }[];
  costliest: string;
  /** The load average when the measure ended. */
  load: number;
  idle: HealthTimes;
  /** The same probe against a bare node:http server meanwhile: the floor the machine allows. */
  idleFloor: HealthTimes;
  /** With the service's longest loop holds meanwhile (bench/loop-holds.ts: its main thread's CPU, which the machine's load does not move). */
  /** `windowMs`: the probe's window; `busy`: the service's CPU (all its threads) over it, in cores. */
  attacked: { attackers: number; sent: number; windowMs: number; busy: number; health: HealthTimes; floor: HealthTimes; holds: LoopHolds; connecting: LoopHolds; decodes: Record<string, number>; connectingDecodes: Record<string, number> }[];
  /** The idle /health window's loop holds. */
  idleHolds: LoopHolds;
  /** The four clients' first requests again, once their connections closed when idle. */
  back: { holds: LoopHolds; decodes: Record<string, number> };
  storm: Storm;
}

interface Storm {
  health: HealthTimes;
  holds: LoopHolds;
  decodes: Record<string, number>;
  statuses: Record<number, number>;
  /** The load average when the window ended. */
  load: number;
  /** With --cpu-prof-dir among the flags: the profile between the two timer turns of the longest hold (whose task it was). */
  longestHold?: string;
}

/** The service with the settings every window measures under. */
function serviceFor(build: Build, flags: string[], holdsFile: string): Promise<Service> {
  return startService(
    { ALLOW_PRIVATE_OVERRIDES: 'true', LOG_LEVEL: 'warn', METADATA_DECODES_PER_CLIENT_PER_MINUTE: String(loadConfig({}).METADATA_DECODES_PER_CLIENT_PER_MINUTE), NODE_OPTIONS: `--require ${join(projectRoot(), 'dist/bench/loop-holds.js')}`, LOOP_HOLDS_FILE: holdsFile },
    build.root,
    [...DEPLOYED_FLAGS, ...flags],
  );
}

const explainBody = (hex: string, url: string) => ({ chain: 'AssetHubPolkadot', hex, options: { development: true, apiOverrides: { AssetHubPolkadot: url } } });

/** A decode storm: one client's requests each name the next of `stormNodes`, so each dials (and decodes) anew, over a /health window. */
async function stormWindow(service: Service, holdsFile: string, stormNodes: HostileNode[], remark: string): Promise<Storm> {
  const beforeStorm = await runtimeCounts(service);
  service.child.kill('SIGUSR2');
  let storming = true;
  const statuses: Record<number, number> = {};
  const storm = (async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; storming; i++) {
      const status = await postFrom(service, agent, '127.0.0.6', '/v5/explain', explainBody(remark, stormNodes[i % stormNodes.length]!.url));
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    agent.destroy();
  })();
  const health = await healthTimes(service, HEALTH_SAMPLES);
  const holds = await loopHolds(service, holdsFile);
  storming = false;
  await storm;
  return { health, holds, decodes: delta(await runtimeCounts(service), beforeStorm), statuses, load: loadavg()[0]! };
}

/** The decode storm alone, on a service of its own (the remark connects it to `assetHub` first). */
async function measureStorm(build: Build, flags: string[], assetHub: TestChain, stormNodes: HostileNode[], remark: string): Promise<Storm> {
  const holdsFile = join(tmpdir(), `explain-loop-holds-${process.pid}.json`);
  const service = await serviceFor(build, flags, holdsFile);
  let storm: Storm;
  try {
    await post(service, '/v5/explain', explainBody(remark, assetHub.url));
    storm = await stormWindow(service, holdsFile, stormNodes, remark);
  } finally {
    // SIGTERM: the service exits, which writes its profile.
    await service.stop();
    rmSync(holdsFile, { force: true });
  }
  const profileDir = flags.find((flag) => flag.startsWith('--cpu-prof-dir='))?.slice('--cpu-prof-dir='.length);
  if (profileDir) {
    const { maxFromUs, maxToUs } = storm.holds as LoopHolds & { maxFromUs: number; maxToUs: number };
    const [hold] = stretchesOf(profileOf(profileDir, service.child.pid!), maxFromUs, maxToUs, 1).longest;
    storm.longestHold = hold ? stretchText(hold, maxFromUs) : 'not in the profile';
  }
  return storm;
}

/** `attack`: the body the attackers send; by default the costliest of this build's. `bare`: the floor's server. */
async function measure(build: Build, flags: string[], assetHub: TestChain, bare: Service, stormNodes: HostileNode[], bodies: Record<string, string>, attack?: string): Promise<Figures> {
  const holdsFile = join(tmpdir(), `explain-loop-holds-${process.pid}.json`);
  const service = await serviceFor(build, flags, holdsFile);
  const body = (hex: string) => explainBody(hex, assetHub.url);
  try {
    await post(service, '/v5/explain', body(bodies['system.remark']!)); // connects
    const rows: Figures['rows'] = [];
    for (const [name, hex] of Object.entries(bodies)) {
      const cpu: number[] = [];
      let last = { status: 0, text: '' };
      for (let i = 0; i < ROUNDS; i++) {
        const before = service.threadsCpuMs();
        last = await post(service, '/v5/explain', body(hex));
        cpu.push(service.threadsCpuMs() - before);
      }
      cpu.sort((a, b) => a - b);
      const kind = last.status === 200 ? '' : ((JSON.parse(last.text) as { kind?: string }).kind ?? '');
      rows.push({ name, bodyKb: JSON.stringify(body(hex)).length / 1024, status: last.status, kind, answerKb: Buffer.byteLength(last.text) / 1024, cpuMs: cpu[Math.floor(cpu.length / 2)]! });
    }
    const costliest = attack ?? rows.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a)).name;
    service.child.kill('SIGUSR2');
    const idle = await healthTimes(service, HEALTH_SAMPLES);
    const idleHolds = await loopHolds(service, holdsFile);
    const idleFloor = await healthTimes(bare, HEALTH_SAMPLES);
    const attacked: Figures['attacked'] = [];
    for (const attackers of ATTACKS) {
      const agents = Array.from({ length: attackers }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
      const from = (i: number) => `127.0.0.${i + 2}`;
      // Each attacker's first request dials a connection of its own to the node it names, whose
      // metadata polkadot.js decodes in one synchronous piece: measured apart, before the attack.
      service.child.kill('SIGUSR2'); // a window of loop holds starts
      const beforeConnecting = await runtimeCounts(service);
      await Promise.all(agents.map((agent, i) => postFrom(service, agent, from(i), '/v5/explain', body(bodies[costliest]!))));
      const connecting = await loopHolds(service, holdsFile); // and the attack's window starts
      const beforeAttack = await runtimeCounts(service);
      let attacking = true;
      let answered = 0;
      const sending = agents.map(async (agent, i) => {
        while (attacking) {
          await postFrom(service, agent, from(i), '/v5/explain', body(bodies[costliest]!));
          answered++;
        }
        agent.destroy();
      });
      const [wallBefore, cpuBefore] = [performance.now(), service.threadsCpuMs()];
      const health = await healthTimes(service, HEALTH_SAMPLES);
      const holds = await loopHolds(service, holdsFile);
      const sent = answered;
      const windowMs = performance.now() - wallBefore;
      const busy = (service.threadsCpuMs() - cpuBefore) / windowMs;
      const floor = await healthTimes(bare, HEALTH_SAMPLES); // the attack goes on
      attacking = false;
      await Promise.all(sending);
      const afterAttack = await runtimeCounts(service);
      attacked.push({ attackers, sent, windowMs, busy, health, floor, holds, connecting, decodes: delta(afterAttack, beforeAttack), connectingDecodes: delta(beforeAttack, beforeConnecting) });
    }
    // The clients come back once their connections closed when idle.
    while ((await openConnections(service)) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    const agents = Array.from({ length: ATTACKS.at(-1)! }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const beforeBack = await runtimeCounts(service);
    service.child.kill('SIGUSR2');
    await Promise.all(agents.map((agent, i) => postFrom(service, agent, `127.0.0.${i + 2}`, '/v5/explain', body(bodies[costliest]!))));
    const back = { holds: await loopHolds(service, holdsFile), decodes: delta(await runtimeCounts(service), beforeBack) };
    agents.forEach((agent) => agent.destroy());
    const storm = await stormWindow(service, holdsFile, stormNodes, bodies['system.remark']!);
    return { rows, costliest, load: loadavg()[0]!, idle, idleFloor, idleHolds, attacked, back, storm };
  } finally {
    await service.stop();
    rmSync(holdsFile, { force: true });
  }
}

const health = (h: HealthTimes) => `p50 ${h.p50.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms (the probe's own loop delay at most ${h.probeDelayMax.toFixed(1)} ms)`;
const floor = (h: HealthTimes) => `a bare node:http server meanwhile: p99 ${h.p99.toFixed(1)} ms (probe delay at most ${h.probeDelayMax.toFixed(1)} ms)`;
const wall = (h: LoopHolds) => `in wall time at most ${h.wallMax.toFixed(1)} ms, ${h.wallOver50} times over 50 ms`;

function print(label: string, f: Figures): void {
  console.log(`\n## ${label} (load average ${f.load.toFixed(1)})\n\n| body | size | answer | CPU per request |\n|---|---|---|---|`);
  for (const r of f.rows) console.log(`| ${r.name} | ${r.bodyKb.toFixed(1)} kB | ${r.status}${r.kind ? ` ${r.kind}` : ''}, ${r.answerKb.toFixed(1)} kB | ${r.cpuMs.toFixed(1)} ms |`);
  const gc = (h: LoopHolds) => `GC at most ${h.gcMax.toFixed(1)} ms, ${h.gcOver20} over 20 ms, ${h.majorGcs} mark-compacts (longest ${h.majorGcMax.toFixed(1)} ms), heap ${h.heapMb.toFixed(0)} MB`;
  const decodes = (d: Record<string, number>) => `runtimes ${JSON.stringify(d)}`;
  console.log(`\n/health (${HEALTH_SAMPLES} one after another): idle ${health(f.idle)}; the loop held at most ${f.idleHolds.max.toFixed(1)} ms of CPU, ${wall(f.idleHolds)}; ${gc(f.idleHolds)}; ${floor(f.idleFloor)}`);
  for (const a of f.attacked) {
    console.log(`  while ${a.attackers} client(s) from ${a.attackers} address(es) sent "${f.costliest}" (${a.sent} requests in ${(a.windowMs / 1000).toFixed(1)} s, the service busy ${a.busy.toFixed(2)} cores): ${health(a.health)}; the loop held at most ${a.holds.max.toFixed(1)} ms of CPU, ${a.holds.over50} times over 50 ms, ${a.holds.over20} over 20 ms, ${wall(a.holds)}; ${gc(a.holds)}; ${decodes(a.decodes)}; ${floor(a.floor)}`);
    console.log(`    (before, their first requests, connecting: the loop held at most ${a.connecting.max.toFixed(1)} ms of CPU, ${a.connecting.over50} times over 50 ms; ${decodes(a.connectingDecodes)})`);
  }
  console.log(`  the ${ATTACKS.at(-1)} clients back once their connections closed when idle, their first requests: the loop held at most ${f.back.holds.max.toFixed(1)} ms of CPU, ${f.back.holds.over50} times over 50 ms; ${decodes(f.back.decodes)}`);
  console.log(`  a decode storm (one client naming ${STORM_NODES} nodes of other runtimes in turn), answers ${JSON.stringify(f.storm.statuses)}: ${health(f.storm.health)}; the loop held at most ${f.storm.holds.max.toFixed(1)} ms of CPU, ${f.storm.holds.over50} times over 50 ms; ${decodes(f.storm.decodes)}`);
  const worst = f.rows.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
  const largest = f.rows.reduce((a, b) => (b.answerKb > a.answerKb ? b : a));
  const healthP99 = Math.max(...f.attacked.map((a) => a.health.p99));
  console.log(JSON.stringify({ build: label, worstCpuMs: worst.cpuMs, worstCpuBody: worst.name, largestAnswerKb: largest.answerKb, healthIdleP99: f.idle.p99, healthBusyP99: healthP99, healthP99s: f.attacked.map((a) => a.health.p99), floorP99s: f.attacked.map((a) => a.floor.p99), comingBackHoldMs: f.back.holds.max, goals: { cpu: worst.cpuMs < 50, answer: largest.answerKb < 256, health: healthP99 < 100 } }));
}

/** One line a run: /health p99 idle, then per attack (the bare server's in brackets), and the service's longest loop hold. */
function summary(label: string, run: number, f: Figures): string {
  const cell = (h: HealthTimes, bare: HealthTimes) => `${h.p99.toFixed(0)} (${bare.p99.toFixed(0)})`;
  const holds = f.attacked.map((a) => `${a.holds.max.toFixed(0)} / ${a.holds.wallMax.toFixed(0)}`).join(', ');
  const gcs = f.attacked.map((a) => a.holds.gcMax.toFixed(0)).join(', ');
  const probe = Math.max(f.idle.probeDelayMax, ...f.attacked.map((a) => a.health.probeDelayMax));
  const busy = f.attacked.map((a) => a.busy.toFixed(2)).join(', ');
  const storm = `${f.storm.health.p99.toFixed(0)}, ${f.storm.decodes.decoded ?? 0} decodes, ${f.storm.holds.over50} holds over 50 ms`;
  return `| ${label} | ${run + 1} | ${f.load.toFixed(1)} | ${cell(f.idle, f.idleFloor)} | ${f.attacked.map((a) => cell(a.health, a.floor)).join(' | ')} | ${holds} | ${gcs} | ${busy} | ${probe.toFixed(0)} | ${storm} |`;
}

/** BENCH_EXPLAIN_ONLY=storm: each build's decode storm, RUNS times (the order reversed every other run), in a table. */
async function storms(builds: Build[], assetHub: TestChain, stormNodes: HostileNode[], remark: string): Promise<void> {
  const configs = [...builds].reverse().flatMap((build) => VARIANTS.map((flags) => ({ build, flags, label: `${build.label}${flags.length ? `, node ${flags.join(' ')}` : ''}` })));
  const results: { label: string; run: number; storm: Storm }[] = [];
  for (let run = 0; run < RUNS; run++) {
    for (const config of run % 2 ? [...configs].reverse() : configs) results.push({ label: config.label, run, storm: await measureStorm(config.build, config.flags, assetHub, stormNodes, remark) });
  }
  console.log(`\na decode storm (one client naming ${STORM_NODES} nodes of other runtimes in turn) over ${HEALTH_SAMPLES} /health probes: another client's /health, the service's loop holds (main-thread CPU between two turns of a 1 ms timer) and the decodes meanwhile\n\n| build | run | load | answers | /health p50 | /health p99 | longest hold, CPU ms | holds over 50 ms | over 20 ms | longest in wall time, ms | runtimes |\n|---|---|---|---|---|---|---|---|---|---|---|`);
  for (const label of new Set(results.map((r) => r.label))) {
    for (const { run, storm: s } of results.filter((r) => r.label === label)) {
      console.log(`| ${label} | ${run + 1} | ${s.load.toFixed(1)} | ${JSON.stringify(s.statuses)} | ${s.health.p50.toFixed(1)} | ${s.health.p99.toFixed(1)} | ${s.holds.max.toFixed(1)} | ${s.holds.over50} | ${s.holds.over20} | ${s.holds.wallMax.toFixed(1)} | ${JSON.stringify(s.decodes)} |`);
    }
  }
  for (const { label, run, storm } of results) if (storm.longestHold) console.log(`${label}, run ${run + 1}: the longest hold in its profile: ${storm.longestHold}`);
}

async function main(): Promise<void> {
  const assetHub = await startTestChain('AssetHubPolkadot');
  const bare = await startBare('http', [{ method: 'GET', path: '/health', body: Buffer.from('{"status":"ok"}') }]);
  // Each answers another chain name: what the service hashes with the metadata to key a runtime.
  const stormNodes = await Promise.all(
    Array.from({ length: STORM_NODES }, (_, i) => startHostileNode({ upstream: assetHub.url, onRequest: (f) => (f.method === 'system_chain' ? { send: answerTo(f, `Asset Hub ${i}`) } : 'forward') })),
  );
  console.log(`Node.js ${process.version}`);
  try {
    const bodies = bodiesFor(assetHub.registry);
    if (STORM_ONLY) {
      await withBuilds((builds) => storms(builds, assetHub, stormNodes, bodies['system.remark']!));
      return;
    }
    await withBuilds(async (builds) => {
      // This build first: the base is attacked with the body that costs this build most.
      const configs = [...builds].reverse().flatMap((build) => VARIANTS.map((flags) => ({ build, flags, label: `${build.label}${flags.length ? `, node ${flags.join(' ')}` : ''}` })));
      let attack = process.env.BENCH_EXPLAIN_ATTACK;
      const results: { label: string; run: number; figures: Figures }[] = [];
      for (let run = 0; run < RUNS; run++) {
        for (const config of run % 2 ? [...configs].reverse() : configs) {
          const figures = await measure(config.build, config.flags, assetHub, bare, stormNodes, bodies, attack);
          attack ??= figures.costliest;
          results.push({ label: config.label, run, figures });
        }
      }
      for (const r of results) print(`${r.label}, run ${r.run + 1}`, r.figures);
      console.log(`\n/health p99, ms (a bare node:http server's in the same window); the service's longest loop hold, CPU / wall ms; its longest GC, wall ms; its CPU in cores; the probe's longest own loop delay, ms; the decode storm's /health p99\n\n| build | run | load | idle | ${ATTACKS.map((n) => `${n} attacker${n > 1 ? 's' : ''}`).join(' | ')} | holds (${ATTACKS.join(', ')}) | GC (${ATTACKS.join(', ')}) | busy (${ATTACKS.join(', ')}) | probe delay | decode storm |\n|---|---|---|---|${ATTACKS.map(() => '---|').join('')}---|---|---|---|---|`);
      for (const label of new Set(results.map((r) => r.label))) for (const r of results.filter((x) => x.label === label)) console.log(summary(r.label, r.run, r.figures));
    });
  } finally {
    await Promise.all([assetHub.close(), bare.stop(), ...stormNodes.map((node) => node.close())]);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
