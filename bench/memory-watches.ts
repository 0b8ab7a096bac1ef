// Open watches in a service of their own, for bench/memory.ts: `count` watches of transfers that
// left Polkadot (in an origin block) and wait on Asset Hub, made over HTTP; the service's RSS with
// them open against its RSS before, and the CPU each empty Asset Hub block then costs it.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_RECORD_WEIGHT } from '../src/service/status/chain-events';
import type { TestChain } from '../test/support/test-chain';
import { child, extrinsicSuccess, sent, signAsAlice, topicOf, type Hex } from '../test/support/xcm-events';
import { startService, type Service } from './harness';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const PER_ORIGIN_BLOCK = 100;
const CREATE_CONCURRENCY = 16;
const BLOCK_GAP_MS = 1_000;
/** Empty blocks followed after the measure, to see RSS over time: 600 are an hour of a relay chain's blocks (6 s each). */
const FOLLOW_BLOCKS = Number(process.env.BENCH_FOLLOW_BLOCKS ?? 0);
const FOLLOW_GAP_MS = 400;

export interface WatchLoad {
  watches: number;
  rssMb: number;
  rssDeltaMb: number;
  cpuPerBlockMs: number;
  /** RSS after FOLLOW_BLOCKS more empty blocks (when asked for). */
  followed?: { blocks: number; rssMb: number };
}

interface Transfer {
  hash: Hex;
  blockHash: string;
}

let callHex: string | undefined;
let nonce = 0;

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

/** Signs `count` teleports and puts them in origin blocks (sent, not processed yet). */
async function includeTransfers(polkadot: TestChain, call: string, count: number): Promise<Transfer[]> {
  const out: Transfer[] = [];
  for (let at = 0; at < count; at += PER_ORIGIN_BLOCK) {
    const batch = await Promise.all(Array.from({ length: Math.min(PER_ORIGIN_BLOCK, count - at) }, () => signAsAlice(polkadot, call, nonce++)));
    const block = polkadot.produceBlock({
      extrinsics: batch.map((tx) => tx.hex),
      events: batch.flatMap((tx, i) => [sent('XcmPallet', i, child(1000), topicOf(tx.hash)), extrinsicSuccess(i)]),
    });
    for (const tx of batch) out.push({ hash: tx.hash, blockHash: block.hash });
  }
  return out;
}

/** Service CPU per empty block of `chain`, ms (averaged over a few, one every BLOCK_GAP_MS). */
export async function cpuPerBlock(service: Service, chain: TestChain, blocks = 5): Promise<number> {
  await sleep(BLOCK_GAP_MS);
  const before = service.cpuMs();
  for (let i = 0; i < blocks; i++) {
    chain.produceBlock();
    await sleep(BLOCK_GAP_MS);
  }
  return (service.cpuMs() - before) / blocks;
}

/** RSS once it stops moving (within 1 MB over a second). */
export async function steadyRss(service: Service): Promise<number> {
  let last = service.rssMb();
  for (let i = 0; i < 15; i++) {
    await sleep(1_000);
    const now = service.rssMb();
    if (Math.abs(now - last) <= 1) return now;
    last = now;
  }
  return last;
}

export async function openWatches(chains: TestChain[], count: number, env: Record<string, string>): Promise<WatchLoad> {
  const [polkadot, assetHub] = chains as [TestChain, TestChain];
  const options = { development: true, apiOverrides: { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url } };
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const service = await startService({
    ALLOW_PRIVATE_OVERRIDES: 'true',
    MAX_WATCHES: String(count * 2),
    MAX_WATCHES_PER_CLIENT: String(count * 2),
    REQUEST_MAX_CHAIN_ITEMS: String(Math.max(100_000, count * EVENT_RECORD_WEIGHT)),
    LOG_LEVEL: 'warn',
    ...env,
  });
  try {
    if (callHex === undefined) {
      const build = await post(`${service.url}/v5/x-transfer`, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, options });
      if (build.status !== 200) throw new Error(`build: ${build.status} ${build.text}`);
      callHex = JSON.parse(build.text) as string;
    }
    const transfers = await includeTransfers(polkadot, callHex, count);
    // Chains connected (one status read), then nothing open.
    await post(`${service.url}/v5/x-transfer/status`, { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: transfers[0]!.hash, blockHash: transfers[0]!.blockHash, options });
    const idle = await steadyRss(service);
    let next = 0;
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        while (next < transfers.length) {
          const t = transfers[next++]!;
          const made = await post(`${service.url}/v5/x-transfer/watch`, { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: t.hash, blockHash: t.blockHash, options, webhook: { url: hook, secret: SECRET } });
          if (made.status !== 201) throw new Error(`watch: ${made.status} ${made.text}`);
        }
      }),
    );
    const cpuPerBlockMs = await cpuPerBlock(service, assetHub);
    const open = await steadyRss(service);
    if (FOLLOW_BLOCKS === 0) return { watches: count, rssMb: open, rssDeltaMb: open - idle, cpuPerBlockMs };
    for (let i = 0; i < FOLLOW_BLOCKS; i++) {
      assetHub.produceBlock();
      await sleep(FOLLOW_GAP_MS);
    }
    return { watches: count, rssMb: open, rssDeltaMb: open - idle, cpuPerBlockMs, followed: { blocks: FOLLOW_BLOCKS, rssMb: await steadyRss(service) } };
  } finally {
    await service.stop();
    await new Promise((r) => receiver.close(r));
  }
}
