// Lookup throughput as a ratio to the limit, measured in one run: our service (request logging on),
// the same service with a rate limit on (set too high to refuse: it measures what counting costs),
// a bare node:http server and a bare Express 5 app
// answering the same bytes on the same runtime, each in its own process. 50 connections; after a warm-up the three servers are loaded in turn
// for short rounds (the first server rotating), and a ratio is the median of the rounds' ratios:
// load from elsewhere on a shared machine changes by the second, and falls on neighbours alike.
import { request } from 'node:http';
import { type BareAnswer, type LoadResult, load, startBare, startService } from './harness';

const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const SERVERS = ['ours', 'limited', 'http', 'express'] as const;
type ServerName = (typeof SERVERS)[number];

const CASES = [
  { name: 'GET /v2/chains', path: '/v2/chains', method: 'GET' as const, goal: 0.6 },
  { name: 'GET /v2/assets/AssetHubPolkadot', path: '/v2/assets/AssetHubPolkadot', method: 'GET' as const, goal: 0.5 },
  { name: 'POST /v2/assets/Hydration/asset-info', path: '/v2/assets/Hydration/asset-info', method: 'POST' as const, body: { currency: { symbol: 'DOT' } }, goal: 0.4 },
];

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

async function main(): Promise<void> {
  const ours = await startService();
  const answers: BareAnswer[] = [];
  for (const c of CASES) answers.push({ method: c.method, path: c.path, body: await fetchPlain(ours.url + c.path, c.method, c.body) });
  const servers = {
    ours,
    limited: await startService({ RATE_LIMIT_PER_MINUTE: String(1e9) }),
    http: await startBare('http', answers),
    express: await startBare('express', answers),
  };
  console.log(`Node.js ${process.version}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s per server after a warm-up; idle RSS ${ours.rssMb()} MB`);

  const lines: string[] = [];
  let met = true;
  for (const c of CASES) {
    const results: Record<ServerName, LoadResult[]> = { ours: [], limited: [], http: [], express: [] };
    const target = (s: ServerName, seconds: number) =>
      load({ url: servers[s].url + c.path, method: c.method, body: c.body, connections: CONNECTIONS, seconds, server: servers[s] });
    for (const s of SERVERS) await target(s, 2);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < SERVERS.length; i++) {
        const s = SERVERS[(round + i) % SERVERS.length];
        const r = await target(s, ROUND_SECONDS);
        if (r.non2xx || r.errors) throw new Error(`${c.name} on ${s}: non-2xx ${r.non2xx}, errors ${r.errors}`);
        results[s].push(r);
      }
    }
    const rate = (r: LoadResult) => r.reqPerSec;
    const ratio = ratioOf(results.ours, results.http, rate);
    met &&= ratio >= c.goal;
    const perRound = results.ours.map((r, i) => (r.reqPerSec / results.http[i].reqPerSec).toFixed(2)).join(' ');
    const rates = SERVERS.map((s) => fmt(mean(results[s].map(rate)))).join(' / ');
    const cpus = SERVERS.map((s) => `${mean(results[s].map((r) => r.cpuUsPerReq ?? 0))} µs`).join(' / ');
    lines.push(
      `| \`${c.name}\` | ${ratio.toFixed(2)} (goal ${c.goal}) | ${ratioOf(results.limited, results.http, rate).toFixed(2)} | ${ratioOf(results.ours, results.express, rate).toFixed(2)} | ${rates} | ${cpus} | ${fmt(answers[CASES.indexOf(c)].body.length)} B |`,
    );
    console.log(`${c.name}: ours / node:http by round: ${perRound}`);
    console.log(lines[lines.length - 1]);
  }
  console.log(
    `\n| request | ours / node:http | ours, rate limit on / node:http | ours / Express | mean req/s: ours / limit on / node:http / Express | server CPU per answer: ours / limit on / node:http / Express | answer |\n|---|---|---|---|---|---|---|\n${lines.join('\n')}`,
  );
  console.log(`RSS after load: ${ours.rssMb()} MB; goals ${met ? 'met' : 'NOT met'}`);
  await Promise.all(Object.values(servers).map((s) => s.stop()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
