// What the route check costs: call data the service builds for the test chains (real metadata,
// loopback) is checked again and again in this process, and the time each check adds to a transfer
// (decode with the origin's metadata, walk, compare) is set against a baseline of one run: the
// decode alone, and the build it guards (POST /v5/x-transfer, check included); and the check of an
// answer filled from a build template (fill, walk the filled arguments, compare). Then /explain's
// route for a two-hop transfer: the walk alone, with its decode, and the whole POST /v5/explain.
import { createServer, type Server } from 'node:http';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createApp } from '../src/http/app';
import { polkadotApi, utilCrypto, type ApiPromise } from '../src/sdk';
import { createServices } from '../src/service';
import { readCall, routeOf } from '../src/service/route-check';
import { fill, makeTemplate } from '../src/service/transfer/call-template';
import { startTestChain, type TestChain, type TestChainName } from '../test/support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ROUNDS = Number(process.env.BENCH_ROUTE_ROUNDS ?? 2_000);
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

async function main(): Promise<void> {
  const chains = {} as Record<TestChainName, TestChain>;
  const apis = {} as Record<TestChainName, ApiPromise>;
  for (const name of NAMES) {
    chains[name] = await startTestChain(name, { partialFee: 1_000_000n });
    apis[name] = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[name].url), noInitWarn: true });
  }
  const apiOverrides = Object.fromEntries(NAMES.map((n) => [n, chains[n].url]));
  const config = loadConfig({ LOG_LEVEL: 'silent', ALLOW_PRIVATE_OVERRIDES: 'true', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0' });
  const logger = pino({ level: 'silent' });
  const services = createServices(config, logger);
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
  console.log(`Node.js ${process.version}, ${ROUNDS} rounds each`);

  console.log('\nThe route check, per transfer (what it adds to each answer):');
  for (const t of TRANSFERS) {
    const body = { address: ALICE, ...t.body, options: { development: true, apiOverrides } };
    const hex = (await post('/v5/x-transfer', body)) as string;
    const registry = apis[t.from].registry;
    const decode = await time(() => registry.createType('Call', hex));
    const expected = [{ chain: t.body.to as never, recipient: body.address as string }];
    const check = await time(() => services.routeCheck.check(registry, t.from, hex, expected, null));
    // Call data never seen: the same call with another amount each round (warm-up rounds included).
    const units = BigInt((t.body.currency as { amount: string }).amount);
    const decoded = registry.createType('Call', hex);
    const args = (decoded.toJSON() as { args: unknown }).args;
    const fresh = Array.from({ length: ROUNDS + ROUNDS / 10 }, (_, i) => registry.createType('Call', { callIndex: decoded.callIndex, args: withAmount(args, units, units + BigInt(i + 1)) }).toHex());
    if (new Set(fresh).size !== fresh.length || (fresh as string[]).includes(hex)) throw new Error(`${t.name}: the amount was not found in the call`);
    let next = 0;
    const unseen = await time(() => services.routeCheck.check(registry, t.from, fresh[next++]!, expected, null));
    const values = { units: BigInt((t.body.currency as { amount: string }).amount), recipient: Buffer.from(utilCrypto.decodeAddress(body.address as string)).toString('hex') };
    const template = makeTemplate({ values, hex, view: readCall(registry, hex)! });
    const templated = await time(() => {
      const filled = fill(template, values);
      return services.routeCheck.checkView(t.from, filled.view, filled.hex, expected, null);
    });
    const build = await time(() => post('/v5/x-transfer', body), Math.min(ROUNDS, 500));
    const hops = routeOf(t.from, registry.createType('Call', hex)).length;
    console.log(`  ${t.name}: ${hops} hop(s)`);
    console.log(`    check, bytes never seen (decode + walk + compare): ${ms(unseen)}   (goal p99 < 1 ms)`);
    console.log(`    check, the same bytes again (walk + compare):      ${ms(check)}   (goal p99 < 1 ms)`);
    console.log(`    templated (fill + walk + compare): ${ms(templated)}   (goal p99 < 1 ms)`);
    console.log(`    baseline, decode alone:          ${ms(decode)}`);
    console.log(`    baseline, POST /v5/x-transfer:   ${ms(build)}   (the check of unseen bytes is ${((100 * unseen.cpu50) / build.cpu50).toFixed(1)}% of its CPU p50)`);
  }

  console.log("\n/explain's route for a two-hop transfer (AssetHubPolkadot -> Hydration USDT):");
  const body = { from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' }, address: ALICE, options: { development: true, apiOverrides } };
  const hex = (await post('/v5/x-transfer', body)) as string;
  const registry = apis.AssetHubPolkadot.registry;
  const call = registry.createType('Call', hex);
  const walk = await time(() => routeOf('AssetHubPolkadot', call));
  const decodedWalk = await time(() => routeOf('AssetHubPolkadot', registry.createType('Call', hex)));
  const explain = await time(() => post('/v5/explain', { chain: 'AssetHubPolkadot', hex, options: { development: true, apiOverrides } }), Math.min(ROUNDS, 500));
  console.log(`  route, walk alone:        ${ms(walk)}`);
  console.log(`  route, decode + walk:     ${ms(decodedWalk)}   (goal p99 < 5 ms)`);
  console.log(`  baseline, decode alone:   ${ms(await time(() => registry.createType('Call', hex)))}`);
  console.log(`  baseline, POST /v5/explain (the whole explanation, route included): ${ms(explain)}`);

  server.close();
  await services.close();
  await Promise.all(Object.values(apis).map((a) => a.disconnect()));
  await Promise.all(NAMES.map((n) => chains[n].close()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
