// Lookup cost as a ratio to the limit, measured in one run: our service (request logging on),
// the same service with a rate limit on (set too high to refuse: it measures what counting costs),
// a bare node:http server and a bare Express 5 app
// answering the same bytes on the same runtime, each in its own process. 50 connections; after a warm-up the servers are loaded in turn
// for short rounds, and a ratio is the median of the rounds' ratios: load from elsewhere on a
// shared machine changes by the second, and falls on neighbours alike, so in every round our
// service (and BENCH_BASE's) is loaded right next to node:http, the order reversed every other round.
// The figure to trust is the server's CPU per answer (a busy machine slows every server's req/s),
// read to the ns from its threads' schedstat: /proc's 10 ms ticks are a few per cent of a round's.
// BENCH_BASE=<git ref> adds that commit's service (and its rate-limited twin) to the rotation:
// before and after in one run. BENCH_CASES=chains,asset-info runs the cases whose path holds one of these.
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { withBuilds } from './baseline';
import { type BareAnswer, type Service, load, startBare, startService } from './harness';

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
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

/** One server's round: answers a second, and the server's CPU time per answer (µs). */
interface Measured {
  reqPerSec: number;
  cpuUs: number;
}

const mean = (xs: number[]) => Math.round(xs.reduce((sum, x) => sum + x, 0) / xs.length);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
/** Per round, ours / other, each round's figures taken seconds apart. */
const ratiosOf = (ours: Measured[], other: Measured[], of: (r: Measured) => number) => ours.map((r, i) => of(r) / of(other[i]));
const ratioOf = (ours: Measured[], other: Measured[], of: (r: Measured) => number) => median(ratiosOf(ours, other, of));
const fmt = (n: number) => n.toLocaleString('en-US');
const rate = (r: Measured) => r.reqPerSec;
/** The bare server's CPU per answer over ours: the figure that holds on a shared machine. */
const cpu = (r: Measured) => 1 / r.cpuUs;
const us = (x: number) => x.toFixed(1);
const range = (xs: number[]) => `${us(Math.min(...xs))}-${us(Math.max(...xs))}`;

/**
 * The servers in one round's order: our service (and the base) next to node:http, the others
 * after, the whole order reversed every other round (ABBA), so that neither side of a ratio is
 * always loaded first.
 */
function roundOrder(names: readonly ServerName[], round: number): ServerName[] {
  const paired: ServerName[] = (['base', 'http', 'ours'] as const).filter((s) => names.includes(s));
  const others = names.filter((s) => !paired.includes(s));
  const order = [...paired, ...others.slice(round % others.length), ...others.slice(0, round % others.length)];
  return round % 2 === 0 ? order : order.reverse();
}

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
    `Node.js ${process.version}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s per server after a warm-up${baseLabel ? `, base ${baseLabel}` : ''}; idle RSS ${ours.rssMb()} MB; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );

  const lines: string[] = [];
  let met = true;
  for (const c of CASES) {
    const results: Record<ServerName, Measured[]> = { base: [], 'base limited': [], ours: [], limited: [], http: [], express: [] };
    const target = async (s: ServerName, seconds: number): Promise<Measured> => {
      const server = serverOf(s);
      const before = server.threadsCpuMs();
      const r = await load({ url: server.url + c.path, method: c.method, body: c.body, connections: CONNECTIONS, seconds });
      if (r.non2xx || r.errors) throw new Error(`${c.name} on ${s}: non-2xx ${r.non2xx}, errors ${r.errors}`);
      return { reqPerSec: r.reqPerSec, cpuUs: ((server.threadsCpuMs() - before) * 1000) / r.answers };
    };
    for (const s of names) await target(s, 2);
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of roundOrder(names, round)) results[s].push(await target(s, ROUND_SECONDS));
    }
    const byRound = ratiosOf(results.ours, results.http, cpu);
    const cpuRatio = median(byRound);
    met &&= cpuRatio >= c.goal;
    for (const s of names) console.log(`${c.name}: ${s} CPU per answer by round: ${results[s].map((r) => us(r.cpuUs)).join(' ')} µs; req/s ${results[s].map(rate).join(' ')}`);
    const perRound = (ratios: number[]) => ratios.map((r) => r.toFixed(2)).join(' ');
    const quartiles = (ratios: number[]) => `${sorted(ratios)[Math.floor((ratios.length - 1) / 4)].toFixed(2)}-${sorted(ratios)[Math.ceil(((ratios.length - 1) * 3) / 4)].toFixed(2)}`;
    console.log(
      `${c.name}: node:http / ours CPU per answer by round: ${perRound(byRound)} (middle half ${quartiles(byRound)}; at or above ${c.goal} in ${byRound.filter((r) => r >= c.goal).length} of ${ROUNDS})` +
        (baseRoot ? `; base: ${perRound(ratiosOf(results.base, results.http, cpu))} (middle half ${quartiles(ratiosOf(results.base, results.http, cpu))})` : ''),
    );
    const cpus = names.map((s) => `${us(median(results[s].map((r) => r.cpuUs)))} (${range(results[s].map((r) => r.cpuUs))})`).join(' / ');
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
  console.log(`RSS after load: ${ours.rssMb()} MB; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; goals (median CPU per answer ratio) ${met ? 'met' : 'NOT met'}`);
  await Promise.all(Object.values(servers).map((s) => s.stop()));
}

withBuilds(async (builds) => {
  const base = builds.length > 1 ? builds[0] : undefined;
  await main(base?.root, base?.label, builds[builds.length - 1].root);
}).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
