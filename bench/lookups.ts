// Lookup throughput as a ratio to the limit, measured in one run: our service (request logging on),
// a bare node:http server and a bare Express 5 app answering the same bytes on the same runtime,
// each in its own process. 50 connections; after a warm-up the three servers are loaded in turn,
// ROUNDS times, so that load from elsewhere on the machine falls on all three alike.
import { request } from 'node:http';
import { type BareAnswer, type LoadResult, SECONDS, load, startBare, startService } from './harness';

const CONNECTIONS = 50;
const ROUNDS = 2;

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

const mean = (rs: LoadResult[], of: (r: LoadResult) => number = (r) => r.reqPerSec) => Math.round(rs.reduce((sum, r) => sum + of(r), 0) / rs.length);
const cpu = (rs: LoadResult[]) => mean(rs, (r) => r.cpuUsPerReq ?? 0);
const fmt = (n: number) => n.toLocaleString('en-US');

async function main(): Promise<void> {
  const ours = await startService();
  const answers: BareAnswer[] = [];
  for (const c of CASES) answers.push({ method: c.method, path: c.path, body: await fetchPlain(ours.url + c.path, c.method, c.body) });
  const servers = { ours, http: await startBare('http', answers), express: await startBare('express', answers) };
  console.log(`Node.js ${process.version}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per server after a warm-up; idle RSS ${ours.rssMb()} MB`);

  const lines: string[] = [];
  let met = true;
  for (const c of CASES) {
    const results: Record<keyof typeof servers, LoadResult[]> = { ours: [], http: [], express: [] };
    const target = (s: keyof typeof servers, seconds: number) =>
      load({ url: servers[s].url + c.path, method: c.method, body: c.body, connections: CONNECTIONS, seconds, server: servers[s] });
    for (const s of Object.keys(servers) as (keyof typeof servers)[]) await target(s, 2);
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of Object.keys(servers) as (keyof typeof servers)[]) {
        const r = await target(s, SECONDS);
        if (r.non2xx || r.errors) throw new Error(`${c.name} on ${s}: non-2xx ${r.non2xx}, errors ${r.errors}`);
        results[s].push(r);
      }
    }
    const [o, h, e] = [mean(results.ours), mean(results.http), mean(results.express)];
    const ratio = o / h;
    met &&= ratio >= c.goal;
    const cpus = [cpu(results.ours), cpu(results.http), cpu(results.express)].map((us) => `${us} µs`).join(' / ');
    lines.push(
      `| \`${c.name}\` | ${ratio.toFixed(2)} (goal ${c.goal}) | ${(o / e).toFixed(2)} | ${fmt(o)} / ${fmt(h)} / ${fmt(e)} | ${cpus} | ${fmt(answers[CASES.indexOf(c)].body.length)} B |`,
    );
    console.log(lines[lines.length - 1]);
  }
  console.log(
    `\n| request | ours / node:http | ours / Express | req/s: ours / node:http / Express | server CPU per answer: ours / node:http / Express | answer |\n|---|---|---|---|---|---|\n${lines.join('\n')}`,
  );
  console.log(`RSS after load: ${ours.rssMb()} MB; goals ${met ? 'met' : 'NOT met'}`);
  await Promise.all(Object.values(servers).map((s) => s.stop()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
