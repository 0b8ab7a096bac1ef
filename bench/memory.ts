// Where the service's memory goes, as deltas of its RSS (a service of its own per part, over the
// sandbox's emulated chains): at start and at rest; per registry connection (the operator's
// CHAIN_ENDPOINTS) and per client-named connection to a runtime the registry already decoded
// (metadata-hash requests naming the same node under other paths); per open watch at 1,000, 10,000
// and 100,000 watches, in memory and with Redis, with the CPU an empty block costs at each count.
// Run: npm run bench:memory (BENCH_WATCH_COUNTS=1000,10000 to run fewer counts; BENCH_FOLLOW_BLOCKS=600
// follows an hour of empty blocks at each count and prints the RSS drift).
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestChain, type TestChain } from '../test/support/test-chain';
import { redisForTest } from '../test/support/redis-server';
import { startService, type Service } from './harness';
import { openWatches, steadyRss, type WatchLoad } from './memory-watches';

const COUNTS = (process.env.BENCH_WATCH_COUNTS ?? '1000,10000,100000').split(',').map(Number);
const CLIENT_CONNECTIONS = 8;
/** A short rest first: V8 shrinks the heap of a service left alone within a minute or two. */
const REST_MS = Number(process.env.BENCH_REST_MS ?? 120_000);

const step = (what: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${what}\n`);

async function post(service: Service, path: string, body: unknown): Promise<void> {
  const res = await fetch(service.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`);
}


async function connections(chains: TestChain[]): Promise<void> {
  const [polkadot] = chains as [TestChain];
  const endpoints = Object.fromEntries(chains.map((c) => [c.chain, c.url]));
  const service = await startService({ CHAIN_ENDPOINTS: JSON.stringify(endpoints), ALLOW_PRIVATE_OVERRIDES: 'true', MAX_OVERRIDE_CONNECTIONS: '48', MAX_OVERRIDE_CONNECTIONS_PER_HOST: '16', MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: '16' });
  try {
    const start = service.rssMb();
    step('at rest');
    await sleep(REST_MS);
    console.log(`RSS at start ${start} MB, at rest (${REST_MS / 1000} s later) ${service.rssMb()} MB`);

    let before = await steadyRss(service);
    for (const chain of chains) await post(service, '/v5/metadata-hash', { chain: chain.chain });
    let after = await steadyRss(service);
    console.log(`registry connections: ${chains.length} (${chains.map((c) => c.chain).join(', ')}): +${after - before} MB, ${((after - before) / chains.length).toFixed(1)} MB each`);

    before = after;
    for (let i = 0; i < CLIENT_CONNECTIONS; i++) {
      await post(service, '/v5/metadata-hash', { chain: polkadot.chain, options: { development: true, apiOverrides: { [polkadot.chain]: `${polkadot.url}/client-${i}` } } });
    }
    after = await steadyRss(service);
    console.log(`client-named connections to ${polkadot.chain}'s runtime: ${CLIENT_CONNECTIONS}: +${after - before} MB, ${((after - before) / CLIENT_CONNECTIONS).toFixed(1)} MB each`);
  } finally {
    await service.stop();
  }
}

function printWatches(label: string, load: WatchLoad): void {
  console.log(
    `${label} ${String(load.watches).padStart(6)} open watches: +${load.rssDeltaMb} MB RSS (${((load.rssDeltaMb * 1024) / load.watches).toFixed(1)} kB each; ${load.rssMb} MB in all), ` +
      `CPU per empty block ${load.cpuPerBlockMs.toFixed(1)} ms` +
      (load.followed ? `; after ${load.followed.blocks} more empty blocks ${load.followed.rssMb} MB (${(((load.followed.rssMb - load.rssMb) / load.rssMb) * 100).toFixed(1)}%)` : ''),
  );
}

async function main(): Promise<void> {
  console.log(`Node.js ${process.version}`);
  const chains = await Promise.all([startTestChain('Polkadot'), startTestChain('AssetHubPolkadot'), startTestChain('Hydration')]);
  try {
    await connections(chains);
    for (const count of COUNTS.filter((n) => n > 0)) {
      step(`${count} watches in memory`);
      printWatches('memory', await openWatches(chains, count, {}));
      step(`${count} watches with Redis`);
      const redis = await redisForTest();
      try {
        printWatches('redis ', await openWatches(chains, count, { REDIS_URL: redis.url }));
      } finally {
        await redis.stop();
      }
    }
  } finally {
    await Promise.all(chains.map((c) => c.close()));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
