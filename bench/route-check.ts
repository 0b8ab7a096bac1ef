// What the route check costs: call data the service builds for the test chains (real metadata,
// loopback) is checked again and again in this process, and the time each check adds to a
// transfer (read with the origin's metadata, walk, compare) is set against baselines of the same
// run: polkadot.js's decode alone, and the build it guards (POST /v5/x-transfer, check included);
// and the check of an answer filled from a build template (fill, walk the filled arguments,
// compare). Then /explain's route for a two-hop transfer: the walk alone, with its decode, and the
// whole POST /v5/explain.
// BENCH_BASE=<git ref> also builds that commit (bench/baseline.ts) and checks bytes never seen with
// its route check too, in the same process on the same registries, the two interleaved
// (BENCH_REPEATS rounds each, 2 by default).
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { routeConsoleTo } from '../src/logger';
import { createApp } from '../src/http/app';
import { polkadotApi, utilCrypto, type ApiPromise } from '../src/sdk';
import { createServices } from '../src/service';
import { readCall, routeOf, type RouteCheck } from '../src/service/route-check';
import { fill, makeTemplate } from '../src/service/transfer/call-template';
import { startTestChain, type TestChain, type TestChainName } from '../test/support/test-chain';
import { withBuilds, type Build } from './baseline';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ROUNDS = Number(process.env.BENCH_ROUTE_ROUNDS ?? 2_000);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 2);

/** What a build's route check is asked here: check(registry, origin, hex, expected, request). */
type Check = RouteCheck['check'];

/** The route check of `build`: this checkout's, or the one compiled from BENCH_BASE (its dist), on the same registries. */
function checkOf(build: Build, services: ReturnType<typeof createServices>, logger: pino.Logger): Check {
  if (!build.root) return services.routeCheck.check.bind(services.routeCheck);
  const { RouteCheck: Base } = createRequire(__filename)(join(build.root, 'dist/src/service/route-check/index.js')) as { RouteCheck: typeof RouteCheck };
  const base = new Base(logger);
  return base.check.bind(base);
}
const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'AssetHubKusama'];

interface Transfer {
  name: string;
  from: TestChainName;
  body: Record<string, unknown>;
}

const TRANSFERS: Transfer[] = [
  { name: 'Polkadot -> AssetHubPolkadot DOT (teleport, 2 hops)', from: 'Polkadot', body: { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' } } },
  { name: 'AssetHubPolkadot -> Hydration USDT (reserve, 2 hops)', from: 'AssetHubPolkadot', body: { from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' } } },
  { name: 'AssetHubPolkadot -> AssetHubKusama DOT (bridge, 2 hops)', from: 'AssetHubPolkadot', body: { from: 'AssetHubPolkadot', to: 'AssetHubKusama', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' }, address: 'HLsPiB2amYFPFYMcYqKxGFLgDUVd4UP1kdA4QdZsH3e91LP', senderAddress: ALICE } },
  { name: 'AssetHubPolkadot local USDT (1 hop)', from: 'AssetHubPolkadot', body: { from: 'AssetHubPolkadot', to: 'AssetHubPolkadot', currency: { id: 1984, amount: '1000' } } },
];

interface Timing {
  p50: number;
  p99: number;
  /** p50 and p99 of this process's CPU time per round (user + system): what other processes on a shared machine do not inflate. */
  cpu50: number;
  cpu99: number;
}

/** `json` with every `amount` or `fungible` field equal to `from` set to `to` (a call's toJSON). */
function withAmount(json: unknown, from: bigint, to: bigint): unknown {
  if (Array.isArray(json)) return json.map((x) => withAmount(x, from, to));
  if (typeof json !== 'object' || json === null) return json;
  return Object.fromEntries(
    Object.entries(json).map(([k, v]) => [k, (k === 'amount' || k === 'fungible') && (typeof v === 'number' || typeof v === 'string') && BigInt(v) === from ? to.toString() : withAmount(v, from, to)]),
  );
}

/** Runs `work` ROUNDS times (after a warm-up of a tenth): its p50 and p99 wall time and its CPU per round, in ms. */
async function time(work: () => unknown | Promise<unknown>, rounds = ROUNDS): Promise<Timing> {
  for (let i = 0; i < rounds / 10; i++) await work();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    await work();
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  const at = (list: number[], q: number) => list.sort((a, b) => a - b)[Math.floor(rounds * q)]!;
  return { p50: at(wall, 0.5), p99: at(wall, 0.99), cpu50: at(cpu, 0.5), cpu99: at(cpu, 0.99) };
}

const ms = ({ p50, p99, cpu50, cpu99 }: Timing) => `wall p50 ${p50.toFixed(3)} / p99 ${p99.toFixed(3)} ms, CPU p50 ${cpu50.toFixed(3)} / p99 ${cpu99.toFixed(3)} ms`;

/** The bench's own output (the console is the service's log: main). */
const print = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(builds: Build[]): Promise<void> {
  const logger = pino({ level: 'silent' });
  // The service is hosted here as src/server.ts hosts it: what libraries write on the console is
  // its log (JSON lines; the bench's logger is silent), not the bench's output. polkadot.js reports
  // each chain call that fails there: each bridge build makes one (the SDK dry-runs the transfer
  // to price its fees, DryRunApi_dry_run_call, which these bare test chains, running no runtime,
  // refuse with -32000; the SDK then builds without the dry run's figures, as before).
  routeConsoleTo(logger);
  const chains = {} as Record<TestChainName, TestChain>;
  const apis = {} as Record<TestChainName, ApiPromise>;
  for (const name of NAMES) {
    chains[name] = await startTestChain(name, { partialFee: 1_000_000n });
    apis[name] = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[name].url), noInitWarn: true });
  }
  const apiOverrides = Object.fromEntries(NAMES.map((n) => [n, chains[n].url]));
  const config = loadConfig({ LOG_LEVEL: 'silent', ALLOW_PRIVATE_OVERRIDES: 'true', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0' });
  const services = createServices(config, logger);
  const checks = builds.map((b) => ({ label: b.label, check: checkOf(b, services, logger) }));
  const server: Server = createServer(createApp({ config, logger, services }));
  // Phases measured in-process leave the client's connection idle for seconds: keep it open.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await res.json()) as unknown;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  print(`Node.js ${process.version}, ${ROUNDS} rounds each`);

  print('\nThe route check, per transfer (what it adds to each answer):');
  for (const t of TRANSFERS) {
    const body = { address: ALICE, ...t.body, options: { development: true, apiOverrides } };
    const hex = (await post('/v5/x-transfer', body)) as string;
    const registry = apis[t.from].registry;
    const decode = await time(() => registry.createType('Call', hex));
    const expected = [{ chain: t.body.to as never, recipient: body.address as string }];
    const check = await time(() => services.routeCheck.check(registry, t.from, hex, expected, null));
    // Call data never seen: the same call with another amount each round (warm-up rounds included), other amounts for each build and round.
    const units = BigInt((t.body.currency as { amount: string }).amount);
    const decoded = registry.createType('Call', hex);
    const args = (decoded.toJSON() as { args: unknown }).args;
    let offset = 0n;
    const freshCalls = () => {
      const list = Array.from({ length: ROUNDS + ROUNDS / 10 }, () => registry.createType('Call', { callIndex: decoded.callIndex, args: withAmount(args, units, units + ++offset) }).toHex());
      if (new Set(list).size !== list.length || (list as string[]).includes(hex)) throw new Error(`${t.name}: the amount was not found in the call`);
      return list;
    };
    const unseenRuns: { label: string; timing: Timing }[] = [];
    for (let round = 0; round < REPEATS; round++) {
      for (const { label, check: checkWith } of checks) {
        const fresh = freshCalls();
        let next = 0;
        unseenRuns.push({ label, timing: await time(() => checkWith(registry, t.from, fresh[next++]!, expected, null)) });
      }
    }
    const values = { units: BigInt((t.body.currency as { amount: string }).amount), recipient: Buffer.from(utilCrypto.decodeAddress(body.address as string)).toString('hex') };
    const template = makeTemplate({ values, hex, view: readCall(registry, hex)! });
    const templated = await time(() => {
      const filled = fill(template, values);
      return services.routeCheck.checkView(t.from, filled.view, filled.hex, expected, null);
    });
    const build = await time(() => post('/v5/x-transfer', body), Math.min(ROUNDS, 500));
    const hops = routeOf(t.from, registry.createType('Call', hex)).length;
    print(`  ${t.name}: ${hops} hop(s)`);
    for (const { label, timing } of unseenRuns) print(`    check, bytes never seen (read + walk + compare), ${label}: ${ms(timing)}   (goal p99 < 1 ms)`);
    print(`    check, the same bytes again (walk + compare):      ${ms(check)}   (goal p99 < 1 ms)`);
    print(`    templated (fill + walk + compare): ${ms(templated)}   (goal p99 < 1 ms)`);
    print(`    baseline, decode alone:          ${ms(decode)}`);
    print(`    baseline, POST /v5/x-transfer:   ${ms(build)}   (the check of unseen bytes is ${((100 * unseenRuns[unseenRuns.length - 1]!.timing.cpu50) / build.cpu50).toFixed(1)}% of its CPU p50)`);
  }

  print("\n/explain's route for a two-hop transfer (AssetHubPolkadot -> Hydration USDT):");
  const body = { from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' }, address: ALICE, options: { development: true, apiOverrides } };
  const hex = (await post('/v5/x-transfer', body)) as string;
  const registry = apis.AssetHubPolkadot.registry;
  const call = registry.createType('Call', hex);
  const walk = await time(() => routeOf('AssetHubPolkadot', call));
  const decodedWalk = await time(() => routeOf('AssetHubPolkadot', registry.createType('Call', hex)));
  const explain = await time(() => post('/v5/explain', { chain: 'AssetHubPolkadot', hex, options: { development: true, apiOverrides } }), Math.min(ROUNDS, 500));
  print(`  route, walk alone:        ${ms(walk)}`);
  print(`  route, decode + walk:     ${ms(decodedWalk)}   (goal p99 < 5 ms)`);
  print(`  baseline, decode alone:   ${ms(await time(() => registry.createType('Call', hex)))}`);
  print(`  baseline, POST /v5/explain (the whole explanation, route included): ${ms(explain)}`);

  server.close();
  await services.close();
  await Promise.all(Object.values(apis).map((a) => a.disconnect()));
  await Promise.all(NAMES.map((n) => chains[n].close()));
}

withBuilds(main).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
