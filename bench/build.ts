// Transfer building over the pool, against local test chains (real metadata, loopback), in parts
// (BENCH_PARTS, comma-separated; all by default):
// - warm: the cold first build of a chain, warm builds over one pooled connection with 1 and 20
//   client connections;
// - cpu: the service's CPU per answer (its threads' schedstat, to the ns) for the teleport, a reserve
//   transfer, /xcm-fee, the unknown-chain 400 and every route of the sandbox's matrix that builds,
//   against a bare baseline of the same run: the SDK's builder alone over the same chains
//   (bench/bare-builder.ts); BENCH_CPU_CASES=<regex> measures only the cases it matches, each on
//   every build's service in turn (ABBA, BENCH_CPU_ROUNDS rounds, 2 by default);
// - memory: RSS after building over 3 chains (as deployed, and with V8's default young
//   generation), then with 1, 4 and 16 chain connections open, to size MAX_CHAINS from a number.
// BENCH_BASE=<git ref> measures that commit too (cpu and memory), old and new side by side.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root';
import { REFUSED, ROUTES, key, networkOf, selector } from '../test/support/route-matrix';
import { TEST_CHAIN_NAMES, startTestChain, type TestChain, type TestChainName } from '../test/support/test-chain';
import { withBuilds, type Build } from './baseline';
import { DEPLOYED_FLAGS, SECONDS, load, row, startService, type Service } from './harness';

const POLKADOT_ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const KUSAMA_ADDRESS = 'HLsPiB2amYFPFYMcYqKxGFLgDUVd4UP1kdA4QdZsH3e91LP';
const EVM_ADDRESS = '0xf24ff3a9cf04c71dbc94d0b566f7a27b94566cac';
const PARTS = (process.env.BENCH_PARTS ?? 'warm,cpu,memory').split(',');
/** Requests per case in the cpu part (after a fifth as many to warm up). */
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 300);
/** Cases whose goal is under this many µs are measured over ten times CPU_REQUESTS (at least 3,000): a few hundred of so cheap an answer weigh little against what else the process does. */
const CHEAP_US = 1_000;
/** Rounds of every cpu case on each build (ABBA); the figure is their median. */
const CPU_ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 2);
/** Only the cpu part's cases whose name this matches. */
const CPU_CASES = new RegExp(process.env.BENCH_CPU_CASES ?? '');

/** A request that makes the service connect to `chain` (and only to it). */
function connecting(chain: TestChain): { path: string; body: unknown } {
  const options = { development: true, apiOverrides: { [chain.chain]: chain.url } };
  switch (chain.chain) {
    case 'Polkadot':
      return { path: '/v5/x-transfer', body: { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: POLKADOT_ADDRESS, options } };
    case 'Kusama':
      return { path: '/v5/x-transfer', body: { from: 'Kusama', to: 'AssetHubKusama', currency: { symbol: 'KSM', amount: '10000000000' }, address: KUSAMA_ADDRESS, options } };
    case 'AssetHubPolkadot':
      return { path: '/v5/balance/AssetHubPolkadot', body: { address: POLKADOT_ADDRESS, options } };
    default:
      return { path: `/v5/balance/${chain.chain}`, body: { address: KUSAMA_ADDRESS, options } };
  }
}

async function post(url: string, body: unknown): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return ms;
}

const settle = () => new Promise((r) => setTimeout(r, 1_500));

/** A transfer as the bare builder and POST /v5/x-transfer both take it (v5 field names). */
interface Transfer {
  name: string;
  from: TestChainName;
  to: TestChainName;
  currency: unknown;
  address: string;
  senderAddress?: string;
  /** At most this CPU per answer, ms. */
  goal?: number;
}

const TELEPORT: Transfer = { name: 'Polkadot -> AssetHubPolkadot DOT (teleport)', from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: POLKADOT_ADDRESS, goal: 0.7 };
const RESERVE: Transfer = { name: 'AssetHubPolkadot -> Hydration USDt (reserve)', from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' }, address: POLKADOT_ADDRESS, goal: 1.5 };

/** Every route of the sandbox's matrix that builds (test/support/route-matrix.ts), with its accounts. */
function matrix(): Transfer[] {
  const account = (chain: TestChainName) => (chain === 'Moonbeam' ? EVM_ADDRESS : POLKADOT_ADDRESS);
  return ROUTES.filter((r) => !REFUSED[key(r)]).map((r) => ({
    name: key(r),
    from: r.from,
    to: r.to,
    currency: { location: selector(r.asset, networkOf(r.from)), amount: '10000000000' },
    address: account(r.to),
    senderAddress: account(r.from),
    goal: 1.5,
  }));
}

/** The bare baseline's CPU per build (µs), or its error, by transfer name. */
async function bareBuilds(chains: Record<string, string>, transfers: Transfer[]): Promise<Map<string, number | string>> {
  const child = spawn(process.execPath, [join(projectRoot(), 'dist/bench/bare-builder.js')], {
    env: { ...process.env, BARE_CHAINS: JSON.stringify(chains), BARE_TRANSFERS: JSON.stringify(transfers) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('exit', resolve));
  const results = new Map<string, number | string>();
  for (const line of out.split('\n').filter((l) => l.startsWith('{'))) {
    const r = JSON.parse(line) as { name: string; cpuUs?: number; error?: string };
    results.set(r.name, r.cpuUs ?? `fails: ${r.error}`);
  }
  return results;
}

/** A chain name no request asked before: 16 random characters, as an abusive client would send. */
const randomChainPath = () => `/v5/assets/NoSuchChain${Math.random().toString(36).slice(2, 10)}${Math.random().toString(36).slice(2, 10)}`;

/**
 * Waits (at most 5 s) until the service's threads use under 1% of a core over 200 ms: what the
 * previous case left running (a major GC of its garbage, V8 compiling its code, idle timers)
 * then falls outside the next case's figure. An idle service uses 0.3-0.4% (measured with none and with 2 chain connections).
 */
async function quiet(service: Service): Promise<void> {
  const end = Date.now() + 5_000;
  for (;;) {
    const before = service.threadsCpuMs();
    await new Promise((r) => setTimeout(r, 200));
    if (service.threadsCpuMs() - before < 2 || Date.now() > end) return;
  }
}

/**
 * The service's CPU per answer (µs, all its threads) over `amount` requests after a fifth as many,
 * 4 connections, from a quiet service; `nextPath` gives each its own path.
 */
async function cpuPerAnswer(service: Service, path: string, body: unknown, amount: number, nextPath?: () => string): Promise<number> {
  const request = { url: service.url + path, method: body === undefined ? ('GET' as const) : ('POST' as const), body, connections: 4, seconds: 0, nextPath };
  await load({ ...request, amount: Math.ceil(amount / 5) });
  await quiet(service);
  const before = service.threadsCpuMs();
  const r = await load({ ...request, amount });
  const expected = path.includes('NoSuchChain') ? r.non2xx === amount : r.non2xx === 0;
  if (!expected || r.errors > 0) throw new Error(`${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return ((service.threadsCpuMs() - before) * 1000) / amount;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const us = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} ms` : `${Math.round(n)} µs`);

async function cpuPart(builds: Build[]): Promise<void> {
  const chains = {} as Record<TestChainName, TestChain>;
  for (const name of TEST_CHAIN_NAMES) chains[name] = await startTestChain(name, { partialFee: 1_000_000n });
  const urls = Object.fromEntries(TEST_CHAIN_NAMES.map((n) => [n, chains[n].url]));
  const options = { development: true, apiOverrides: urls, abstractDecimals: false };
  const transfers = [TELEPORT, RESERVE, ...matrix()];
  const bare = await bareBuilds(urls, transfers.filter((t) => CPU_CASES.test(`POST /v5/x-transfer ${t.name}`)));
  const strip = ({ name: _name, goal: _goal, ...fields }: Transfer) => fields;
  const fee = { ...strip(TELEPORT), senderAddress: POLKADOT_ADDRESS, options };
  const all = [
    { name: 'POST /v5/xcm-fee, the teleport', path: '/v5/xcm-fee', body: fee as unknown, goal: 7, bare: undefined as number | string | undefined },
    { name: 'GET /v5/assets/NoSuchChain (400)', path: '/v5/assets/NoSuchChain', body: undefined as unknown, goal: 0.1, bare: undefined as number | string | undefined },
    { name: 'GET /v5/assets/<a new random name each> (400)', path: '/v5/assets/NoSuchChain', body: undefined as unknown, goal: 0.5, bare: undefined, nextPath: randomChainPath },
    ...transfers.map((t) => ({ name: `POST /v5/x-transfer ${t.name}`, path: '/v5/x-transfer', body: { ...strip(t), options } as unknown, goal: t.goal ?? 1.5, bare: bare.get(t.name) })),
  ];
  const cases = all.filter((c) => CPU_CASES.test(c.name));
  const amountOf = (c: (typeof cases)[number]) => (c.goal * 1000 < CHEAP_US ? Math.max(3_000, CPU_REQUESTS * 10) : CPU_REQUESTS);
  // Every build's service runs from the start, and each case is measured on them in turn, ABBA
  // over CPU_ROUNDS rounds: the machine's load changes by the minute, the ratio should not.
  const services = await Promise.all(builds.map((build) => startService({ ALLOW_PRIVATE_OVERRIDES: 'true' }, build.root)));
  const figures = cases.map(() => builds.map(() => [] as number[]));
  for (const [i, c] of cases.entries()) {
    for (let round = 0; round < CPU_ROUNDS; round++) {
      const order = round % 2 === 0 ? [...builds.keys()] : [...builds.keys()].reverse();
      for (const b of order) figures[i][b].push(await cpuPerAnswer(services[b], c.path, c.body, amountOf(c), 'nextPath' in c ? c.nextPath : undefined));
    }
  }
  await Promise.all(services.map((service) => service.stop()));
  const labels = builds.map((b) => b.label);
  console.log(
    `\nCPU per answer (${CPU_REQUESTS} requests, those with a goal under ${us(CHEAP_US)} ${Math.max(3_000, CPU_REQUESTS * 10)}; 4 connections, after a fifth as many and until the service is quiet; the service's threads; median of ${CPU_ROUNDS} rounds, ABBA, [lowest-highest]): ${labels.join(' -> ')}; bare: the SDK's builder alone`,
  );
  for (const [i, c] of cases.entries()) {
    const ours = figures[i].map(median);
    const now = ours.at(-1)!;
    const change = ours.length > 1 ? ` (x${(now / ours[0]).toFixed(2)})` : '';
    const spread = figures[i].map((f) => `[${us(Math.min(...f))}-${us(Math.max(...f))}]`).join(' ');
    const baseline = typeof c.bare === 'number' ? `   bare ${us(c.bare)}, ours x${(now / c.bare).toFixed(2)}` : c.bare === undefined ? '' : `   bare ${c.bare.split('\n')[0].slice(0, 50)}`;
    const goal = now <= c.goal * 1000 ? '' : `   over ${us(c.goal * 1000)}`;
    console.log(`${c.name.padEnd(70)} ${ours.map(us).join(' -> ')}${change} ${CPU_ROUNDS > 1 ? spread : ''}${baseline}${goal}`);
  }
  await Promise.all(TEST_CHAIN_NAMES.map((n) => chains[n].close()));
}

async function warmPart(chains: TestChain[]): Promise<void> {
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  // Cold: the first build on a chain the process has never seen (connect, metadata, build).
  const first = connecting(chains[0]);
  const url = service.url + first.path;
  const cpuBefore = service.cpuMs();
  const coldMs = await post(url, first.body);
  console.log(`cold first build (connect + metadata + build): ${coldMs.toFixed(0)} ms, ${service.cpuMs() - cpuBefore} ms of service CPU (goal < 300 ms)`);
  const secondKind = connecting(chains[1]);
  console.log(`cold first build of a second chain (Kusama): ${(await post(service.url + secondKind.path, secondKind.body)).toFixed(0)} ms`);

  for (const connections of [1, 20]) {
    await load({ url, method: 'POST', body: first.body, connections, seconds: 3 });
    const r = await load({ url, method: 'POST', body: first.body, connections, seconds: SECONDS, server: service });
    const goal = connections === 1 ? '(goal p50 < 2 ms)' : '(goal >= 1,500 builds/s)';
    // On a shared machine the service gets what CPU others leave: what one free core would do.
    const perCore = r.cpuUsPerReq ? Math.round(1e6 / r.cpuUsPerReq) : 0;
    console.log(`${row(`POST /v5/x-transfer, ${connections} connection(s)`, r)}   = ${perCore} builds per CPU-second   ${goal}`);
  }
  console.log(`connections opened at the first test chain: ${chains[0].connectionsOpened}`);
  await service.stop();
}

/** RSS after the teleport, the reserve transfer and /xcm-fee over 3 chains, 5 s each at 20 connections. */
async function afterThreeChains(build: Build, nodeFlags?: readonly string[]): Promise<string> {
  const three = await Promise.all((['Polkadot', 'AssetHubPolkadot', 'Hydration'] as const).map((n) => startTestChain(n, { partialFee: 1_000_000n })));
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' }, build.root, nodeFlags);
  const options = { development: true, apiOverrides: Object.fromEntries(three.map((c) => [c.chain, c.url])) };
  await settle();
  const before = service.rssMb();
  for (const [path, t] of [['/v5/x-transfer', TELEPORT], ['/v5/x-transfer', RESERVE], ['/v5/xcm-fee', { ...TELEPORT, senderAddress: POLKADOT_ADDRESS }]] as const) {
    const { name: _name, goal: _goal, ...fields } = t;
    await load({ url: service.url + path, method: 'POST', body: { ...fields, options }, connections: 20, seconds: 5 });
  }
  await settle();
  const figure = `${service.rssMb()} MB (${before} MB before, ${service.peakRssMb()} MB at most)`;
  await service.stop();
  await Promise.all(three.map((c) => c.close()));
  return figure;
}

async function memoryPart(builds: Build[], chains: TestChain[]): Promise<void> {
  console.log('\nRSS after building over 3 chains (Polkadot, AssetHubPolkadot, Hydration), goal < 400 MB:');
  for (const build of builds) {
    console.log(`  ${build.label}, as deployed (${DEPLOYED_FLAGS.join(' ')}): ${await afterThreeChains(build)}`);
    console.log(`  ${build.label}, V8's default young generation: ${await afterThreeChains(build, [])}`);
  }

  // Memory per chain connection, in a fresh service: idle, then 1, 4 and 16 chains connected.
  const fresh = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  await settle();
  const idle = fresh.rssMb();
  console.log(`RSS idle: ${idle} MB`);
  let connected = 0;
  let last = { chains: 0, rss: idle };
  for (const target of [1, 4, 16]) {
    for (; connected < target; connected++) {
      const c = connecting(chains[connected]);
      await post(fresh.url + c.path, c.body);
    }
    await settle();
    const rss = fresh.rssMb();
    const added = ((rss - last.rss) / (target - last.chains)).toFixed(1);
    console.log(`RSS with ${String(target).padStart(2)} chain(s) connected: ${rss} MB (${((rss - idle) / target).toFixed(1)} MB per chain; ${added} MB per chain added since ${last.chains})`);
    last = { chains: target, rss };
  }
  await fresh.stop();
}

async function main(): Promise<void> {
  console.log(`Node.js ${process.version}, parts: ${PARTS.join(', ')}`);
  const KINDS: TestChainName[] = ['Polkadot', 'Kusama', 'AssetHubPolkadot', 'AssetHubKusama'];
  const needsSixteen = PARTS.includes('warm') || PARTS.includes('memory');
  const chains = needsSixteen ? await Promise.all(Array.from({ length: 16 }, (_, i) => startTestChain(KINDS[i % KINDS.length]))) : [];
  await withBuilds(async (builds) => {
    if (PARTS.includes('warm')) await warmPart(chains);
    if (PARTS.includes('cpu')) await cpuPart(builds);
    if (PARTS.includes('memory')) await memoryPart(builds, chains);
  });
  await Promise.all(chains.map((c) => c.close()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
