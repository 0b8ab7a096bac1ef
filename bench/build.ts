// Transfer building over the pool, against local test chains (real metadata, loopback), in parts
// (BENCH_PARTS, comma-separated; all by default):
// - warm: the cold first build of a chain, warm builds over one pooled connection with 1 and 20
//   client connections;
// - cpu: the service's CPU per answer (its threads' schedstat, to the ns) for the teleport, a reserve
//   transfer, /xcm-fee, the unknown-chain 400 and every route of the sandbox's matrix that builds,
//   against a bare baseline of the same run: the SDK's builder alone over the same chains
//   (bench/bare-builder.ts);
// - memory: RSS after building over 3 chains, then with 1, 4 and 16 chain connections open, to
//   size MAX_CHAINS from a number.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root';
import { REFUSED, ROUTES, key, networkOf, selector } from '../test/support/route-matrix';
import { TEST_CHAIN_NAMES, startTestChain, type TestChain, type TestChainName } from '../test/support/test-chain';
import { SECONDS, load, row, startService, type Service } from './harness';

const POLKADOT_ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const KUSAMA_ADDRESS = 'HLsPiB2amYFPFYMcYqKxGFLgDUVd4UP1kdA4QdZsH3e91LP';
const EVM_ADDRESS = '0xf24ff3a9cf04c71dbc94d0b566f7a27b94566cac';
const PARTS = (process.env.BENCH_PARTS ?? 'warm,cpu,memory').split(',');
/** Requests per case in the cpu part (after a fifth as many to warm up). */
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 300);

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

/** The service's CPU per answer (µs, all its threads) over CPU_REQUESTS requests, 4 connections. */
async function cpuPerAnswer(service: Service, path: string, body?: unknown): Promise<number> {
  const request = { url: service.url + path, method: body === undefined ? ('GET' as const) : ('POST' as const), body, connections: 4, seconds: 0 };
  await load({ ...request, amount: Math.ceil(CPU_REQUESTS / 5) });
  const before = service.threadsCpuMs();
  const r = await load({ ...request, amount: CPU_REQUESTS });
  const expected = path.includes('NoSuchChain') ? r.non2xx === CPU_REQUESTS : r.non2xx === 0;
  if (!expected || r.errors > 0) throw new Error(`${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return ((service.threadsCpuMs() - before) * 1000) / CPU_REQUESTS;
}

const us = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} ms` : `${Math.round(n)} µs`);

async function cpuPart(): Promise<void> {
  const chains = {} as Record<TestChainName, TestChain>;
  for (const name of TEST_CHAIN_NAMES) chains[name] = await startTestChain(name, { partialFee: 1_000_000n });
  const urls = Object.fromEntries(TEST_CHAIN_NAMES.map((n) => [n, chains[n].url]));
  const options = { development: true, apiOverrides: urls, abstractDecimals: false };
  const transfers = [TELEPORT, RESERVE, ...matrix()];
  const bare = await bareBuilds(urls, transfers);
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  console.log(`\nCPU per answer (${CPU_REQUESTS} requests, 4 connections; the service's threads), against the SDK's builder alone (bare)`);
  const strip = ({ name: _name, goal: _goal, ...fields }: Transfer) => fields;
  const fee = { ...strip(TELEPORT), senderAddress: POLKADOT_ADDRESS, options };
  for (const [name, path, body, goal] of [
    ['POST /v5/xcm-fee, the teleport', '/v5/xcm-fee', fee, 7],
    ['GET /v5/assets/NoSuchChain (400)', '/v5/assets/NoSuchChain', undefined, 0.1],
  ] as const) {
    const cpu = await cpuPerAnswer(service, path, body);
    console.log(`${name.padEnd(56)} ${us(cpu).padStart(9)}   (goal < ${us(goal * 1000)}${cpu <= goal * 1000 ? ', met' : ', NOT met'})`);
  }
  let worst = { name: '', cpu: 0 };
  for (const t of transfers) {
    const cpu = await cpuPerAnswer(service, '/v5/x-transfer', { ...strip(t), options });
    const base = bare.get(t.name);
    const baseline = typeof base === 'number' ? `bare ${us(base).padStart(9)}, x${(cpu / base).toFixed(2)}` : `bare ${base ?? '-'}`;
    const met = t.goal === undefined ? '' : cpu <= t.goal * 1000 ? '' : `   over ${us(t.goal * 1000)}`;
    console.log(`POST /v5/x-transfer ${t.name.padEnd(44)} ${us(cpu).padStart(9)}   ${baseline}${met}`);
    if (t !== TELEPORT && cpu > worst.cpu) worst = { name: t.name, cpu };
  }
  console.log(`dearest route: ${worst.name}, ${us(worst.cpu)} (goal < 1.5 ms on every route)`);
  await service.stop();
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

async function memoryPart(chains: TestChain[]): Promise<void> {
  // After building over 3 chains: the teleport, the reserve transfer and /xcm-fee, 50 each.
  const three = await Promise.all((['Polkadot', 'AssetHubPolkadot', 'Hydration'] as const).map((n) => startTestChain(n, { partialFee: 1_000_000n })));
  const built = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  const options = { development: true, apiOverrides: Object.fromEntries(three.map((c) => [c.chain, c.url])) };
  await settle();
  const before = built.rssMb();
  for (const [path, t] of [['/v5/x-transfer', TELEPORT], ['/v5/x-transfer', RESERVE], ['/v5/xcm-fee', { ...TELEPORT, senderAddress: POLKADOT_ADDRESS }]] as const) {
    const { name: _name, goal: _goal, ...fields } = t;
    await load({ url: built.url + path, method: 'POST', body: { ...fields, options }, connections: 4, seconds: 0, amount: 50 });
  }
  await settle();
  console.log(`\nRSS after building over 3 chains (Polkadot, AssetHubPolkadot, Hydration): ${built.rssMb()} MB, ${before} MB before, ${built.peakRssMb()} MB at most (goal < 400 MB)`);
  await built.stop();
  await Promise.all(three.map((c) => c.close()));

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
  if (PARTS.includes('warm')) await warmPart(chains);
  if (PARTS.includes('cpu')) await cpuPart();
  if (PARTS.includes('memory')) await memoryPart(chains);
  await Promise.all(chains.map((c) => c.close()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
