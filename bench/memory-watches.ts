// Open watches for bench/memory.ts: `count` watches of transfers that left Polkadot (in origin
// blocks) and wait on Asset Hub, made over HTTP, in one service per build side by side (each with a
// Redis of its own when asked): each service's RSS with them open against its RSS before, and the
// CPU each empty Asset Hub block then costs it (the same blocks for every build).
import http from 'node:http';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../src/project-root';
import type { TestChain } from '../test/support/test-chain';
import type { Build } from './baseline';
import { startService, type Service } from './harness';
import { startRedis, type BenchRedis } from './redis';
import { ALICE, cpuPerEmptyBlock, includeTransfers, makeWatches, SECRET, steadyRss, watchServiceEnv, type BlockCpu, type Made } from './watch-setup';

/**
 * A watch made reads its origin block's events and extrinsics: 10 transfers a block, not 100,
 * make that read a tenth (about 5 ms of service CPU a watch instead of 15).
 */
const PER_ORIGIN_BLOCK = 10;
/** POST /x-transfer/watch requests in flight while watches are made (keep-alive connections). */
const CREATE_CONCURRENCY = Number(process.env.BENCH_CREATE_CONCURRENCY ?? 64);
/** Empty blocks followed after the measure, to see RSS over time: 600 are an hour of a relay chain's blocks (6 s each). */
const FOLLOW_BLOCKS = Number(process.env.BENCH_FOLLOW_BLOCKS ?? 0);
const FOLLOW_GAP_MS = 400;

/** The V8 heap bound the Deployment runs the service with (its container limit is 768 Mi): a watch load must fit in it. */
const DEPLOYED_NODE_OPTIONS = (/--max-old-space-size=\d+/.exec(readFileSync(join(projectRoot(), 'deploy/kubernetes/deployment.yaml'), 'utf8')) ?? [''])[0];

export interface WatchLoad {
  build: string;
  watches: number;
  rssMb: number;
  /** The most RSS the service held, watches made and followed (VmHWM). */
  peakRssMb: number;
  rssDeltaMb: number;
  /** What Redis grew by, MB (with Redis). */
  redisDeltaMb?: number;
  made: Made;
  cpu: BlockCpu;
  /** RSS after FOLLOW_BLOCKS more empty blocks (when asked for). */
  followed?: { blocks: number; rssMb: number };
}

interface Running {
  build: Build;
  service: Service;
  redis?: BenchRedis;
  idleMb: number;
  redisIdleMb: number;
}

let callHex: string | undefined;
let nonce = 0;

/** RSS of a process, MB (redis-server's). */
function pidRssMb(pid: number | undefined): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

async function post(url: string, body: unknown): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return text;
}

export async function openWatches(chains: TestChain[], count: number, builds: Build[], withRedis: boolean): Promise<WatchLoad[]> {
  const [polkadot, assetHub] = chains as [TestChain, TestChain];
  const options = { development: true, apiOverrides: { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url } };
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const running: Running[] = [];
  try {
    for (const build of builds) {
      const redis = withRedis ? await startRedis() : undefined;
      try {
        const service = await startService(
          {
            ...watchServiceEnv(count),
            // The bench's own NODE_OPTIONS (a heap snapshot signal, say) carry over.
            NODE_OPTIONS: [process.env.NODE_OPTIONS, DEPLOYED_NODE_OPTIONS].filter(Boolean).join(' '),
            ...(redis ? { REDIS_URL: redis.url } : {}),
          },
          build.root,
        );
        running.push({ build, service, redis, idleMb: 0, redisIdleMb: 0 });
      } catch (error) {
        await redis?.stop();
        throw error;
      }
    }
    callHex ??= JSON.parse(await post(`${running[0]!.service.url}/v5/x-transfer`, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, options })) as string;
    // Every build watches the same transfers, made at the same moment of the chains.
    const transfers = await includeTransfers(polkadot, callHex, nonce, count, PER_ORIGIN_BLOCK);
    nonce += count;
    for (const run of running) {
      // Chains connected (one status read), then nothing open.
      await post(`${run.service.url}/v5/x-transfer/status`, { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: transfers[0]!.hash, blockHash: transfers[0]!.blockHash, options });
      run.idleMb = await steadyRss(run.service);
      run.redisIdleMb = run.redis ? pidRssMb(run.redis.child.pid) : 0;
    }
    const made: Made[] = [];
    for (const run of running) made.push(await makeWatches(run.service, transfers, { from: 'Polkadot', to: 'AssetHubPolkadot', options, webhook: { url: hook, secret: SECRET } }, CREATE_CONCURRENCY));
    const cpu = await cpuPerEmptyBlock(
      running.map((r) => r.service),
      assetHub,
    );
    const loads: WatchLoad[] = [];
    for (const [i, run] of running.entries()) {
      const open = await steadyRss(run.service);
      loads.push({
        build: run.build.label,
        watches: count,
        rssMb: open,
        peakRssMb: run.service.peakRssMb(),
        rssDeltaMb: open - run.idleMb,
        ...(run.redis ? { redisDeltaMb: pidRssMb(run.redis.child.pid) - run.redisIdleMb } : {}),
        made: made[i]!,
        cpu: cpu[i]!,
      });
    }
    if (FOLLOW_BLOCKS === 0) return loads;
    for (let i = 0; i < FOLLOW_BLOCKS; i++) {
      assetHub.produceBlock();
      await sleep(FOLLOW_GAP_MS);
    }
    for (const [i, run] of running.entries()) loads[i]!.followed = { blocks: FOLLOW_BLOCKS, rssMb: await steadyRss(run.service) };
    return loads;
  } finally {
    for (const run of running) {
      await run.service.stop();
      await run.redis?.stop();
    }
    await new Promise((r) => receiver.close(r));
  }
}
