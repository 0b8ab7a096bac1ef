// Fair delivery (issue 33): 180 watches of three clients point at receivers that accept the
// connection and never answer, each try holding a delivery slot for WATCH_DELIVERY_TIMEOUT_MS (10 s)
// and retried; meanwhile another client makes a watch every BENCH_GAP_MS and the bench times its
// first webhook, from the POST sent to the webhook's arrival (p50, p99, max). Two cases: every hung
// watch at one receiver host, and each at a host of its own (127.0.1.x: the per-host cap cannot
// help, the per-client cap must), and (issue 42 part 4) 192 watches of six clients at eight hosts each:
// the clients' caps together pass every slot, the slow lane must help. Each watch is final when made
// (an unknown block hash), so its one webhook is owed at once. BENCH_REDIS=1 runs the Redis backend
// too, on a redis-server it starts. BENCH_CASE=one-host, hosts or 6x8 runs one case. BENCH_BASE=<git ref>
// runs that build too, before this one in each case, on the same chains and receivers' machine (issue 42
// part 4: the cut, WATCH_DELIVERY_CUT_MS, measured against the commit before it).
//   npm run bench:watch-fair
//   BENCH_CASE=6x8 BENCH_REDIS=1 BENCH_BASE=<ref> npm run bench:watch-fair   (npm runs the project's Node 24)
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { redisForTest } from '../test/support/redis-server';
import { withBuilds, type Build } from './baseline';
import { startTestChain } from '../test/support/test-chain';
import { startService } from './harness';

/** How the hung watches are spread: how many, from how many clients, and the receiver host of the i-th. */
interface HungCase {
  /** What BENCH_CASE names it by. */
  name: string;
  label: string;
  hung: number;
  attackers: number;
  host(i: number): string;
}

// Not 127.0.0.1, the client's receiver: hosts are told apart by name.
const CASES: HungCase[] = [
  { name: 'one-host', label: '180 hung at 1 host', hung: 180, attackers: 3, host: () => '127.0.0.2' },
  { name: 'hosts', label: '180 hung hosts', hung: 180, attackers: 3, host: (i) => `127.0.1.${1 + (i % 250)}` },
  // The i-th watch is client i % 6's: its hosts are the eight 127.0.2.(8c+1 ... 8c+8).
  { name: '6x8', label: '6 clients x 8 hung hosts', hung: 192, attackers: 6, host: (i) => `127.0.2.${1 + (i % 6) * 8 + (Math.floor(i / 6) % 8)}` },
];
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 150);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 200);
/** The measured client's watches come from this many addresses in turn. */
const CLIENTS = 10;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const step = (what: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${what}\n`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const hex32 = () => `0x${randomBytes(32).toString('hex')}`;

/** Accepts connections on every loopback address and never answers; counts them. */
async function hungReceiver() {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  server.listen(0, '0.0.0.0');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    open: () => sockets.size,
    connections: () => connections,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Answers 204 at once and records when each webhook id first arrived. */
async function quickReceiver() {
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!arrived.has(id)) arrived.set(id, performance.now());
      waiters.get(id)?.();
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    /** When the webhook `id` arrives (performance.now()), or NaN after `ms`. */
    arrival: (id: string, ms: number) =>
      arrived.has(id)
        ? Promise.resolve(arrived.get(id)!)
        : new Promise<number>((resolve) => {
            const timer = setTimeout(() => resolve(NaN), ms);
            waiters.set(id, () => (clearTimeout(timer), resolve(arrived.get(id)!)));
          }),
    close: () => new Promise((r) => server.close(r)),
  };
}

async function run(name: string, env: Record<string, string>, c: HungCase, build: Build): Promise<void> {
  const [polkadot, assetHub] = await Promise.all([startTestChain('Polkadot'), startTestChain('AssetHubPolkadot')]);
  const hung = await hungReceiver();
  const quick = await quickReceiver();
  // X-Forwarded-For from loopback counts: each attacker and the client are addresses of their own
  // (13 in all, each with its own connection to the test chains: issue 33's item 2).
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true', TRUST_PROXY: 'loopback', LOG_LEVEL: 'warn', MAX_OVERRIDE_CONNECTIONS: '64', MAX_OVERRIDE_CONNECTIONS_PER_HOST: '64', ...env }, build.root);
  const options = { development: true, apiOverrides: { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url } };
  const make = async (client: string, url: string): Promise<{ status: number; id?: string }> => {
    const res = await fetch(`${service.url}/v5/x-transfer/watch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: hex32(), blockHash: hex32(), options, webhook: { url, secret: SECRET } }),
    });
    const body = (await res.json()) as { id?: string };
    if (res.status !== 201) step(`${client}: ${res.status} ${JSON.stringify(body)}`);
    return { status: res.status, id: body.id };
  };
  try {
    step(`${build.label}, ${name}: ${c.label}, from ${c.attackers} clients`);
    // Each client address dials the test chains on its first request (its own connection): made
    // once before the hung watches, so that the samples time the delivery, not that first dial, and
    // start right after the hung watches, while their first tries hang (dialling after them had let
    // those tries time out before the first sample on a loaded machine).
    for (let k = 0; k < CLIENTS; k++) await make(`10.8.0.${1 + k}`, quick.url);
    const hungFrom = performance.now();
    let made = 0;
    await Promise.all(
      Array.from({ length: 12 }, async (_, lane) => {
        for (let i = lane; i < c.hung; i += 12) {
          const { status } = await make(`10.9.0.${1 + (i % c.attackers)}`, `http://${c.host(i)}:${hung.port}/hook/${i}`);
          if (status === 201) made++;
        }
      }),
    );
    // Hung tries that began by now have timed out 10 s (WATCH_DELIVERY_TIMEOUT_MS) later: from then on
    // their hosts are in the slow lane.
    const laned = performance.now() + 10_000;
    await sleep(1_000);
    step(`${made} made in ${((performance.now() - hungFrom) / 1000 - 1).toFixed(1)} s; hung connections open: ${hung.open()}`);
    const fromPost: number[] = [];
    const fromAnswer: number[] = [];
    const afterLaned: number[] = [];
    let lost = 0;
    const pending: Promise<void>[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const sent = performance.now();
      const { status, id } = await make(`10.8.0.${1 + (i % CLIENTS)}`, quick.url);
      const answered = performance.now();
      if (status !== 201 || !id) throw new Error(`the client's watch answered ${status}`);
      pending.push(
        quick.arrival(`${id}.0`, 60_000).then((at) => {
          if (Number.isNaN(at)) lost++;
          else {
            fromPost.push(at - sent);
            fromAnswer.push(at - answered);
            if (sent >= laned) afterLaned.push(at - sent);
          }
        }),
      );
      await sleep(GAP_MS);
    }
    await Promise.all(pending);
    const hungOpen = hung.open();
    fromPost.sort((a, b) => a - b);
    fromAnswer.sort((a, b) => a - b);
    afterLaned.sort((a, b) => a - b);
    const f = (x: number) => `${x.toFixed(0)} ms`;
    console.log(
      `| ${build.label} | ${name}, ${c.label} | ${SAMPLES - lost} of ${SAMPLES} | ${f(percentile(fromPost, 0.5))} | ${f(percentile(fromPost, 0.99))} | ${f(fromPost.at(-1) ?? NaN)} | ${f(percentile(fromAnswer, 0.99))} | ${f(percentile(afterLaned, 0.99))} | ${hung.connections()} (${hungOpen} open at the end) |`,
    );
  } finally {
    await service.stop();
    await Promise.all([hung.close(), quick.close(), polkadot.close(), assetHub.close()]);
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_CASE;
  const cases = only ? CASES.filter((c) => c.name === only) : CASES;
  if (cases.length === 0) throw new Error(`BENCH_CASE=${only}: no such case (${CASES.map((c) => c.name).join(', ')})`);
  await withBuilds(async (builds) => {
    console.log(`| build | backend, case | client webhooks arrived | from POST: p50 | p99 | max | from 201: p99 | from POST, sent 10 s after the hung watches: p99 | hung tries (connections) |`);
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const c of cases) for (const build of builds) await run('memory', {}, c, build);
    if (process.env.BENCH_REDIS !== '1') return;
    for (const c of cases) {
      for (const build of builds) {
        // A Redis of its own per run: the watches of the one before are not carried over.
        const redis = await redisForTest();
        try {
          await run('redis', { REDIS_URL: redis.url }, c, build);
        } finally {
          await redis.stop();
        }
      }
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
