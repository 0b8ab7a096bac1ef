// Following a transfer (POST /x-transfer/status) against local test chains that produce blocks:
// the answer time for a delivered transfer with its blockHash and with a 100-block lookback (p50,
// and as a ratio to building the same transfer, measured in the same run), then the memory of
// open streams (RSS with 200 open minus idle).
import { startTestChain } from '../test/support/test-chain';
import { child, extrinsicSuccess, processed, sent, signAsAlice, topicOf } from '../test/support/xcm-events';
import { startService } from './harness';
import { openStatusStreams } from './status-streams';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ROUNDS = Number(process.env.BENCH_STATUS_ROUNDS ?? 50);
const STREAMS = 200;

async function post(url: string, body: unknown): Promise<{ ms: number; body: unknown }> {
  const started = process.hrtime.bigint();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as unknown;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(answer)}`);
  return { ms, body: answer };
}

/** Median of `ROUNDS` sequential requests (after one to warm up). */
async function p50(url: string, body: unknown, check: (answer: unknown) => void): Promise<number> {
  check((await post(url, body)).body);
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) times.push((await post(url, body)).ms);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const settle = () => new Promise((r) => setTimeout(r, 1_500));

async function main(): Promise<void> {
  const polkadot = await startTestChain('Polkadot', { partialFee: 1_000_000n });
  const assetHub = await startTestChain('AssetHubPolkadot');
  const options = { development: true, apiOverrides: { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url } };
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  console.log(`Node.js ${process.version}`);

  // A teleport built by the service, signed, included 99 blocks below the head (the oldest block a
  // 100-block lookback reads), and processed on the asset hub.
  const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, options };
  const build = await post(`${service.url}/v5/x-transfer`, transfer);
  const tx = await signAsAlice(polkadot, build.body as string);
  const topic = topicOf(tx.hash);
  const origin = polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), topic), extrinsicSuccess(0)] });
  assetHub.produceBlock({ events: [processed(topic, { Parent: null }, true)] });
  for (let i = 0; i < 99; i++) polkadot.produceBlock();

  const statusUrl = `${service.url}/v5/x-transfer/status`;
  const delivered = (answer: unknown) => {
    if ((answer as { status?: string }).status !== 'delivered') throw new Error(`not delivered: ${JSON.stringify(answer)}`);
  };
  const byHash = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash, options };
  const buildMs = await p50(`${service.url}/v5/x-transfer`, transfer, () => undefined);
  const hashMs = await p50(statusUrl, byHash, delivered);
  const lookbackMs = await p50(statusUrl, { ...byHash, blockHash: undefined }, delivered);
  console.log(`baseline: POST /v5/x-transfer (the same teleport), p50 ${buildMs.toFixed(1)} ms`);
  console.log(`status of a delivered transfer with blockHash: p50 ${hashMs.toFixed(1)} ms (${(hashMs / buildMs).toFixed(1)}x a build)`);
  console.log(`status with a 100-block lookback (found in the oldest block): p50 ${lookbackMs.toFixed(1)} ms (${(lookbackMs / buildMs).toFixed(1)}x a build)`);

  // Memory: 200 streams waiting on a message the asset hub has not processed.
  const pending = await signAsAlice(polkadot, build.body as string, 1);
  const pendingBlock = polkadot.produceBlock({ extrinsics: [pending.hex], events: [sent('XcmPallet', 0, child(1000), topicOf(pending.hash)), extrinsicSuccess(0)] });
  const streamBody = JSON.stringify({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: pending.hash, blockHash: pendingBlock.hash, options });
  await settle();
  const idle = service.rssMb();
  // The two legs (origin success, destination pending) come once the stream watches.
  const streams = await openStatusStreams(statusUrl, streamBody, STREAMS);
  await settle();
  const open = service.rssMb();
  console.log(`RSS idle (chains connected, no stream): ${idle} MB; with ${STREAMS} open streams: ${open} MB; ${(((open - idle) * 1024) / STREAMS).toFixed(1)} kB per stream`);
  await streams.close();

  await service.stop();
  await Promise.all([polkadot.close(), assetHub.close()]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
