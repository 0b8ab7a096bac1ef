// How soon a status stream's clients that go away give back what their streams held (issue 42 part
// 5): streams of an in-flight transfer (the origin's block included, the asset hub's pending),
// whose clients destroy their sockets mid-stream, against the built service in its own process.
// The streams are another client's (X-Forwarded-For) than the one that read the transfer first, as
// the were. Counted at the test chains (in this process): the asset hub's finalized-head
// subscriptions, and each node's open connections and subscriptions against their count before the
// streams (once the first read's connections have settled: an idle one a client named closes after
// CLIENT_IDLE_TIMEOUT_MS now, IDLE_TIMEOUT_MS before).
// First the case (six streams, each abandoned 1 s after it opened; the counts 5 s after the
// first left), then BENCH_RELEASE_ROUNDS rounds of six streams left at once: the time from the last
// socket destroyed to the nodes back where they were (p50, p99, max). With BENCH_BASE=<git ref>
// that build is measured first, on the same chains (a build whose nodes are not back within 10 s
// is reported so, and its rounds skipped).
import { readFileSync } from 'node:fs';
import { rawStream } from '../test/support/raw-stream';
import { startTestChain, type TestChain } from '../test/support/test-chain';
import { child, extrinsicSuccess, sent, signAsAlice, topicOf } from '../test/support/xcm-events';
import { withBuilds, type Build } from './baseline';
import { startService } from './harness';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ROUNDS = Number(process.env.BENCH_RELEASE_ROUNDS ?? 100);
const BACK_WITHIN_MS = 10_000;
/** The streams' client: not the one whose read came first. */
const OTHER_CLIENT = { 'X-Forwarded-For': '203.0.113.10' };
const STREAMS = 6;
const FAMILIES = ['v5', 'v2'];

const loadAverage = (): string => `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Milliseconds until `done()` holds, checked at each turn of the loop (the nodes answer in this process); undefined past BACK_WITHIN_MS. */
async function msUntil(done: () => boolean): Promise<number | undefined> {
  const started = process.hrtime.bigint();
  const end = Date.now() + BACK_WITHIN_MS;
  while (!done()) {
    if (Date.now() > end) return undefined;
    await new Promise(setImmediate);
  }
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(build: Build, setup: string, env: Record<string, string>, options: unknown, polkadot: TestChain, assetHub: TestChain, nonce: number): Promise<void> {
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true', TRUST_PROXY: 'loopback', ...env }, build.root);
  setup = `${build.label}, ${setup}`;
  try {
    const built = await post(`${service.url}/v5/x-transfer`, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, options });
    const tx = await signAsAlice(polkadot, built as string, nonce);
    const origin = polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), topicOf(tx.hash)), extrinsicSuccess(0)] });
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash, options };
    const first = (await post(`${service.url}/v5/x-transfer/status`, body)) as { status: string };
    if (first.status !== 'in-flight') throw new Error(`not in flight: ${JSON.stringify(first)}`);
    const nodes = () => JSON.stringify({ Polkadot: [polkadot.openConnections, polkadot.openSubscriptions], AssetHubPolkadot: [assetHub.openConnections, assetHub.openSubscriptions] });
    // The first read's connections settle: kept (the operator's; a client's before) or closed (a client's now).
    await sleep(1_500);
    const before = nodes();
    const back = () => assetHub.openSubscriptionsOf('chain_finalizedHead') === 0 && nodes() === before;
    const open = () => Array.from({ length: STREAMS }, (_, i) => rawStream(`${service.url}/${FAMILIES[i % 2]}/x-transfer/status`, body, OTHER_CLIENT));

    // The case, twice: each stream abandoned 1 s after it opened, blocks coming meanwhile.
    for (let round = 0; round < 2; round++) {
      const producing = setInterval(() => assetHub.produceBlock(), 300);
      const streams = open();
      await sleep(1_000);
      for (const s of streams) s.destroy();
      await sleep(5_000);
      clearInterval(producing);
      console.log(`${setup}: six streams abandoned after 1 s; 5 s after the first left, at the nodes (connections, subscriptions): ${nodes()}; before: ${before}; head subscriptions ${assetHub.openSubscriptionsOf('chain_finalizedHead')}`);
      if ((await msUntil(back)) === undefined) {
        console.log(`${setup}: not back within ${BACK_WITHIN_MS / 1000} s (${nodes()}); rounds skipped`);
        return;
      }
    }

    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const streams = open();
      await Promise.all(streams.map((s) => s.legs(2)));
      // A block in flight: the watch is reading when they leave.
      assetHub.produceBlock();
      for (const s of streams) s.destroy();
      const ms = await msUntil(back);
      if (ms === undefined) throw new Error(`${setup}: not back within ${BACK_WITHIN_MS / 1000} s: ${nodes()}, before ${before}`);
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${setup}: ${ROUNDS} rounds of six streams left at once: the nodes back (head subscription gone, connections and subscriptions as before) ` +
        `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms after the last socket was destroyed`,
    );
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const polkadot = await startTestChain('Polkadot', { partialFee: 1_000_000n });
  const assetHub = await startTestChain('AssetHubPolkadot');
  console.log(`Node.js ${process.version}, ${loadAverage()}`);
  const endpoints = { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url };
  let nonce = 0;
  await withBuilds(async (builds) => {
    for (const build of builds) {
      await measure(build, 'operator endpoints (CHAIN_ENDPOINTS, as the sandbox)', { CHAIN_ENDPOINTS: JSON.stringify(endpoints) }, {}, polkadot, assetHub, nonce++);
      await measure(build, 'apiOverrides', {}, { development: true, apiOverrides: endpoints }, polkadot, assetHub, nonce++);
    }
  });
  console.log(loadAverage());
  await Promise.all([polkadot.close(), assetHub.close()]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
