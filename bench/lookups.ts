// Lookup cost as a ratio to the limit, measured in one run: our service (request logging on),
// the same service with a rate limit on (set too high to refuse: it measures what counting costs),
// a bare node:http server and a bare Express 5 app
// answering the same bytes on the same runtime, each in its own process. 50 connections; after a warm-up the servers are loaded in turn
// for short rounds (the first server rotating), and a ratio is the median of the rounds' ratios:
// load from elsewhere on a shared machine changes by the second, and falls on neighbours alike.
// The figure to trust is the server's CPU per answer (a busy machine slows every server's req/s).
// BENCH_BASE=<git ref> adds that commit's service (and its rate-limited twin) to the rotation:
// before and after in one run. BENCH_CASES=chains,asset-info runs the cases whose path holds one of these.
import { request } from 'node:http';
import { withBuilds } from './baseline';
import { type BareAnswer, type LoadResult, type Service, load, startBare, startService } from './harness';

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const SERVERS = ['base', 'base limited', 'ours', 'limited', 'http', 'express'] as const;
type ServerName = (typeof SERVERS)[number];

const ALL_CASES = [
  { name: 'GET /v2/chains', path: '/v2/chains', method: 'GET' as const, goal: 0.6 },
  { name: 'GET /v2/assets/AssetHubPolkadot', path: '/v2/assets/AssetHubPolkadot', method: 'GET' as const, goal: 0.5 },
  { name: 'POST /v2/assets/Hydration/asset-info', path: '/v2/assets/Hydration/asset-info', method: 'POST' as const, body: { currency: { symbol: 'DOT' } }, goal: 0.4 },
];
const CASES = process.env.BENCH_CASES ? ALL_CASES.filter((c) => process.env.BENCH_CASES?.split(',').some((part) => c.path.includes(part))) : ALL_CASES;

/** The plain (identity) bytes our service answers, to be served by the bare servers. */
function fetchPlain(url: string, method: string, body?: unknown): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${method} ${url}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const mean = (xs: number[]) => Math.round(xs.reduce((sum, x) => sum + x, 0) / xs.length);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Median over rounds of ours / other, each round's figures taken seconds apart. */
const ratioOf = (ours: LoadResult[], other: LoadResult[], of: (r: LoadResult) => number) => median(ours.map((r, i) => of(r) / of(other[i])));
const fmt = (n: number) => n.toLocaleString('en-US');
const rate = (r: LoadResult) => r.reqPerSec;
/** The bare server's CPU per answer over ours: the figure that holds on a shared machine. */
const cpu = (r: LoadResult) => 1 / (r.cpuUsPerReq ?? Infinity);
const range = (xs: number[]) => (Math.min(...xs) === Math.max(...xs) ? `${Math.min(...xs)}` : `${Math.min(...xs)}-${Math.max(...xs)}`);

async function main(baseRoot: string | undefined, baseLabel: string | undefined, headRoot: string | undefined): Promise<void> {
  const ours = await startService({}, headRoot);
  const answers: BareAnswer[] = [];
  for (const c of CASES) answers.push({ method: c.method, path: c.path, body: await fetchPlain(ours.url + c.path, c.method, c.body) });
  const limit = { RATE_LIMIT_PER_MINUTE: String(1e9) };
  const servers: Partial<Record<ServerName, Service>> = {
    ours,
    limited: await startService(limit, headRoot),
    http: await startBare('http', answers),
    express: await startBare('express', answers),
  };
  if (baseRoot) {
    servers.base = await startService({}, baseRoot);
    servers['base limited'] = await startService(limit, baseRoot);
  }
  const names = SERVERS.filter((s) => servers[s]);
  const serverOf = (s: ServerName): Service => {
    const server = servers[s];
    if (!server) throw new Error(`${s} was not started`);
    return server;
  };
  console.log(
    `Node.js ${process.version}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s per server after a warm-up${baseLabel ? `, base ${baseLabel}` : ''}; idle RSS ${ours.rssMb()} MB`,
  );

  const lines: string[] = [];
  let met = true;
  for (const c of CASES) {
    const results: Record<ServerName, LoadResult[]> = { base: [], 'base limited': [], ours: [], limited: [], http: [], express: [] };
    const target = (s: ServerName, seconds: number) =>
      load({ url: serverOf(s).url + c.path, method: c.method, body: c.body, connections: CONNECTIONS, seconds, server: serverOf(s) });
    for (const s of names) await target(s, 2);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < names.length; i++) {
        const s = names[(round + i) % names.length];
        const r = await target(s, ROUND_SECONDS);
        if (r.non2xx || r.errors) throw new Error(`${c.name} on ${s}: non-2xx ${r.non2xx}, errors ${r.errors}`);
        results[s].push(r);
      }
    }
    const cpuRatio = ratioOf(results.ours, results.http, cpu);
    met &&= cpuRatio >= c.goal;
    for (const s of names) console.log(`${c.name}: ${s} CPU per answer by round: ${results[s].map((r) => r.cpuUsPerReq).join(' ')} µs; req/s ${results[s].map(rate).join(' ')}`);
    const perRound = (of: ServerName) => results[of].map((r, i) => (cpu(r) / cpu(results.http[i])).toFixed(2)).join(' ');
    console.log(`${c.name}: node:http / ours CPU per answer by round: ${perRound('ours')}${baseRoot ? `; base: ${perRound('base')}` : ''}`);
    const cpus = names.map((s) => `${median(results[s].map((r) => r.cpuUsPerReq ?? 0))} (${range(results[s].map((r) => r.cpuUsPerReq ?? 0))})`).join(' / ');
    const baseCells = baseRoot ? `${ratioOf(results.base, results.http, cpu).toFixed(2)} | ` : '';
    lines.push(
      `| \`${c.name}\` | ${baseCells}${cpuRatio.toFixed(2)} (goal ${c.goal}) | ${ratioOf(results.limited, results.http, cpu).toFixed(2)} | ${ratioOf(results.ours, results.http, rate).toFixed(2)} | ${ratioOf(results.ours, results.express, rate).toFixed(2)} | ${cpus} µs | ${names.map((s) => fmt(mean(results[s].map(rate)))).join(' / ')} | ${fmt(answers[CASES.indexOf(c)].body.length)} B |`,
    );
    console.log(lines[lines.length - 1]);
  }
  const baseHead = baseRoot ? `base: node:http CPU / base CPU per answer | ` : '';
  console.log(
    `\n| request | ${baseHead}node:http CPU / ours CPU per answer | rate limit on | req/s ours / node:http | req/s ours / Express | server CPU per answer, median (range): ${names.join(' / ')} | mean req/s: ${names.join(' / ')} | answer |\n|${'---|'.repeat(baseRoot ? 8 : 7)}\n${lines.join('\n')}`,
  );
  console.log(`RSS after load: ${ours.rssMb()} MB; goals (CPU per answer ratio) ${met ? 'met' : 'NOT met'}`);
  await Promise.all(Object.values(servers).map((s) => s.stop()));
}

withBuilds(async (builds) => {
  const base = builds.length > 1 ? builds[0] : undefined;
  await main(base?.root, base?.label, builds[builds.length - 1].root);
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
