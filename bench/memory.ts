// Where the service's memory goes, as deltas of its RSS (a service of its own per part, over the
// sandbox's emulated chains): at start and at rest; per registry connection (the operator's
// CHAIN_ENDPOINTS) and per client-named connection to a runtime the registry already decoded
// (metadata-hash requests naming the same node under other paths); per open watch at 1,000, 10,000
// and 100,000 watches, in memory and with Redis, with the rate watches are made at and the CPU an
// empty block costs at each count (the median of BENCH_CPU_BLOCKS blocks).
// Run: npm run bench:memory (BENCH_WATCH_COUNTS=1000,10000 to run fewer counts; BENCH_FOLLOW_BLOCKS=600
// follows an hour of empty blocks at each count and prints the RSS drift; BENCH_PARTS=watches skips
// the connections; BENCH_BACKENDS=memory or redis runs one backend). BENCH_BASE=<git ref> runs that build beside this one (BENCH_HEAD=<git ref> in
// place of this one), a service each on the same chains and blocks, and prints new/old.
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestChain, type TestChain } from '../test/support/test-chain';
import { ratio, withBuilds, type Build } from './baseline';
import { startService, type Service } from './harness';
import { openWatches, type WatchLoad } from './memory-watches';
import { loadAverage, steadyRss } from './watch-setup';

const COUNTS = (process.env.BENCH_WATCH_COUNTS ?? '1000,10000,100000').split(',').map(Number);
const PARTS = (process.env.BENCH_PARTS ?? 'connections,watches').split(',');
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'memory,redis').split(',');
const CLIENT_CONNECTIONS = 8;
/** A short rest first: V8 shrinks the heap of a service left alone within a minute or two. */
const REST_MS = Number(process.env.BENCH_REST_MS ?? 120_000);

const step = (what: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${what}\n`);

async function post(service: Service, path: string, body: unknown): Promise<void> {
  const res = await fetch(service.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
}

/** The connections' part, a service per build side by side (the same rest, the same requests one after the other). */
async function connections(chains: TestChain[], builds: Build[]): Promise<void> {
  const [polkadot] = chains as [TestChain];
  const endpoints = Object.fromEntries(chains.map((c) => [c.chain, c.url]));
  const env = { CHAIN_ENDPOINTS: JSON.stringify(endpoints), ALLOW_PRIVATE_OVERRIDES: 'true', MAX_OVERRIDE_CONNECTIONS: '48', MAX_OVERRIDE_CONNECTIONS_PER_HOST: '16', MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: '16' };
  const services: Service[] = [];
  try {
    for (const build of builds) services.push(await startService(env, build.root));
    const start = services.map((s) => s.rssMb());
    step('at rest');
    await sleep(REST_MS);
    const rows = builds.map((build) => ({ label: build.label, start: 0, rest: 0, registry: 0, client: 0 }));
    for (const [i, service] of services.entries()) {
      const row = rows[i]!;
      row.start = start[i]!;
      row.rest = service.rssMb();
      let before = await steadyRss(service);
      for (const chain of chains) await post(service, '/v5/metadata-hash', { chain: chain.chain });
      let after = await steadyRss(service);
      row.registry = (after - before) / chains.length;
      before = after;
      for (let c = 0; c < CLIENT_CONNECTIONS; c++) {
        await post(service, '/v5/metadata-hash', { chain: polkadot.chain, options: { development: true, apiOverrides: { [polkadot.chain]: `${polkadot.url}/client-${c}` } } });
      }
      after = await steadyRss(service);
      row.client = (after - before) / CLIENT_CONNECTIONS;
    }
    const base = rows.length > 1 ? rows[0] : undefined;
    for (const row of rows) {
      console.log(
        `${row.label}: RSS at start ${row.start} MB, at rest (${REST_MS / 1000} s later) ${row.rest} MB; ` +
          `registry connections (${chains.map((c) => c.chain).join(', ')}) ${row.registry.toFixed(1)} MB each; ` +
          `client-named connections to ${polkadot.chain}'s runtime (${CLIENT_CONNECTIONS}) ${row.client.toFixed(1)} MB each` +
          (base && row !== base ? `; new/old: at rest ${ratio(row.rest, base.rest)}, client-named ${ratio(row.client, base.client)}` : ''),
      );
    }
    console.log(`  (${loadAverage()})`);
  } finally {
    for (const service of services) await service.stop();
  }
}

const kbEach = (mb: number, count: number) => (mb * 1024) / count;

function printWatches(backend: string, loads: WatchLoad[]): void {
  const base = loads.length > 1 ? loads[0] : undefined;
  for (const load of loads) {
    const { made, cpu } = load;
    console.log(
      `${backend} ${String(load.watches).padStart(6)} open watches, ${load.build}: +${load.rssDeltaMb} MB RSS (${kbEach(load.rssDeltaMb, load.watches).toFixed(1)} kB each; ${load.rssMb} MB in all, ${load.peakRssMb} MB at most)` +
        (load.redisDeltaMb === undefined ? '' : `, Redis +${load.redisDeltaMb} MB (${kbEach(load.redisDeltaMb, load.watches).toFixed(1)} kB each)`) +
        `; CPU per empty block ${cpu.median.toFixed(1)} ms (median of ${cpu.blocks}; p10 ${cpu.p10.toFixed(1)}, p90 ${cpu.p90.toFixed(1)})` +
        `; made at ${made.perSec.toFixed(0)}/s (POST p50 ${made.p50.toFixed(0)} ms, p99 ${made.p99.toFixed(0)} ms; ${made.cpuMs.toFixed(1)} ms of service CPU each${made.retried ? `; ${made.retried} answered 503 and sent again` : ''})` +
        (load.followed ? `; after ${load.followed.blocks} more empty blocks ${load.followed.rssMb} MB (${(((load.followed.rssMb - load.rssMb) / load.rssMb) * 100).toFixed(1)}%)` : ''),
    );
    if (base && load !== base) {
      console.log(
        `${backend} ${String(load.watches).padStart(6)} new/old: RSS per watch ${ratio(load.rssDeltaMb, base.rssDeltaMb)}` +
          (load.redisDeltaMb === undefined ? '' : `, Redis per watch ${ratio(load.redisDeltaMb, base.redisDeltaMb)}`) +
          `, CPU per empty block ${ratio(load.cpu.median, base.cpu.median)}, service CPU per watch made ${ratio(made.cpuMs, base.made.cpuMs)}`,
      );
    }
  }
  console.log(`  (${loadAverage()})`);
}

async function main(): Promise<void> {
  console.log(`Node.js ${process.version}; ${loadAverage()}`);
  await withBuilds(async (builds) => {
    const chains = await Promise.all([startTestChain('Polkadot'), startTestChain('AssetHubPolkadot'), startTestChain('Hydration')]);
    try {
      if (PARTS.includes('connections')) await connections(chains, builds);
      if (!PARTS.includes('watches')) return;
      for (const count of COUNTS.filter((n) => n > 0)) {
        for (const backend of BACKENDS) {
          step(`${count} watches, ${backend}`);
          printWatches(backend.padEnd(6), await openWatches(chains, count, builds, backend === 'redis'));
        }
      }
    } finally {
      await Promise.all(chains.map((c) => c.close()));
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
