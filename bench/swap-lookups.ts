// The swap lookups (GET /swap/...): what their first call costs a fresh service (time, RSS), what
// a repeated (cached) call costs, and their throughput as a ratio to a bare node:http server
// answering the same bytes (as bench/lookups.ts measures the other registry lookups). Then, each
// in a fresh process after the SDK is loaded, the two ways to read the router's registry: the
// registry copy the service uses (src/service/router/registry.ts) and the whole router.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root';
import { type BareAnswer, type LoadResult, type Service, load, row, startBare, startService } from './harness';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const WARM_CALLS = 50;

const PATHS = [
  '/v2/swap/exchange-chains',
  '/v2/swap/pairs?exchange=HydrationDex',
  '/v2/swap/supported-assets-from?exchange=HydrationDex&from=Polkadot',
  '/v2/swap/supported-assets-to?exchange=AssetHubPolkadotDex&to=Polkadot',
];
/** Compared with node:http under load: two small answers (the bare server takes its answers through the environment). */
const LOADED = [PATHS[0], PATHS[3]];

async function timed(url: string): Promise<{ ms: number; body: Buffer }> {
  const started = process.hrtime.bigint();
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${body.toString()}`);
  return { ms, body };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds and MB of RSS that `what` adds in a fresh Node process once the SDK is loaded. */
function freshProcessCost(what: 'registry copy' | 'whole router'): { ms: number; mb: number } {
  const dist = join(projectRoot(), 'dist/src');
  const step =
    what === 'registry copy'
      ? `require(${JSON.stringify(join(dist, 'service/router/registry'))}).routerRegistry().getExchangePairs(undefined)`
      : `require(${JSON.stringify(join(dist, 'service/router-engine'))}).loadRouter().getExchangePairs(undefined)`;
  const script = `
    require(${JSON.stringify(join(dist, 'sdk'))});
    const rss = () => process.memoryUsage().rss / 2 ** 20;
    global.gc?.();
    const [before, started] = [rss(), process.hrtime.bigint()];
    ${step};
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    global.gc?.();
    console.log(JSON.stringify({ ms, mb: rss() - before }));`;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' })) as { ms: number; mb: number };
}

async function main(): Promise<void> {
  const ours = await startService();
  try {
    await measure(ours);
  } finally {
    await ours.stop();
  }
  console.log('\nReading the router registry in a fresh process, after the SDK (all pairs computed once):');
  for (const what of ['registry copy', 'whole router'] as const) {
    const { ms, mb } = freshProcessCost(what);
    console.log(`  ${what}: ${ms.toFixed(0)} ms, +${mb.toFixed(1)} MB RSS`);
  }
}

async function measure(ours: Service): Promise<void> {
  await new Promise((r) => setTimeout(r, 1_000));
  const idle = ours.rssMb();
  console.log(`Node.js ${process.version}; idle RSS of a fresh service: ${idle} MB`);

  console.log('\n| request | first call | repeated call (median of 50) | answer |\n|---|---|---|---|');
  const answers: BareAnswer[] = [];
  for (const path of PATHS) {
    const first = await timed(ours.url + path);
    const warm: number[] = [];
    for (let i = 0; i < WARM_CALLS; i++) warm.push((await timed(ours.url + path)).ms);
    answers.push({ method: 'GET', path, body: first.body });
    console.log(`| \`GET ${path}\` | ${first.ms.toFixed(1)} ms | ${median(warm).toFixed(2)} ms | ${first.body.length.toLocaleString('en-US')} B |`);
  }
  await new Promise((r) => setTimeout(r, 1_000));
  console.log(`\nRSS after the four lookups: ${ours.rssMb()} MB (idle ${idle} MB)`);

  const bare = await startBare('http', answers.filter((a) => LOADED.includes(a.path)));
  try {
    await compare(ours, bare);
  } finally {
    await bare.stop();
  }
  // The largest answer, ours only (as bench/router.ts loads POST /router/pairs).
  const pairs = ours.url + PATHS[1];
  await load({ url: pairs, connections: 50, seconds: 2 });
  console.log(`\n${row(`GET ${PATHS[1]}`, await load({ url: pairs, connections: 50, seconds: ROUND_SECONDS * ROUNDS, server: ours }))}`);
}

async function compare(ours: Service, bare: Service): Promise<void> {
  console.log('\n| request | ours / node:http (median of rounds) | mean req/s ours / node:http | server CPU per answer ours / node:http |\n|---|---|---|---|');
  for (const path of LOADED) {
    const results: { ours: LoadResult[]; bare: LoadResult[] } = { ours: [], bare: [] };
    for (const s of [ours, bare]) await load({ url: s.url + path, connections: 50, seconds: 2 });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, s] of round % 2 ? ([['bare', bare], ['ours', ours]] as const) : ([['ours', ours], ['bare', bare]] as const)) {
        const r = await load({ url: s.url + path, connections: 50, seconds: ROUND_SECONDS, server: s });
        if (r.non2xx || r.errors) throw new Error(`${path} on ${name}: non-2xx ${r.non2xx}, errors ${r.errors}`);
        results[name].push(r);
      }
    }
    const ratio = median(results.ours.map((r, i) => r.reqPerSec / results.bare[i].reqPerSec));
    const mean = (rs: LoadResult[], of: (r: LoadResult) => number) => Math.round(rs.reduce((sum, r) => sum + of(r), 0) / rs.length).toLocaleString('en-US');
    const rate = (r: LoadResult) => r.reqPerSec;
    const cpu = (r: LoadResult) => r.cpuUsPerReq ?? 0;
    console.log(`| \`GET ${path}\` | ${ratio.toFixed(2)} | ${mean(results.ours, rate)} / ${mean(results.bare, rate)} | ${mean(results.ours, cpu)} / ${mean(results.bare, cpu)} µs |`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
