// What the watch benches (watch.ts, memory-watches.ts) share: transfers signed and put in origin
// blocks, watches made of them over HTTP as clients make them, the CPU an empty block costs the
// services that follow a chain, and a service's RSS once it stops moving.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RuntimeVersion } from '@polkadot/types/interfaces';
import type { TestChain } from '../test/support/test-chain';
import { child, extrinsicSuccess, sent, topicOf, type Hex } from '../test/support/xcm-events';
import { EVENT_RECORD_WEIGHT } from '../src/service/status/chain-events';
import type { Service } from './harness';

const load = createRequire(__filename);
const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
const { Keyring } = load('@polkadot/keyring') as typeof import('@polkadot/keyring');

export const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** Empty blocks whose CPU is measured, one at a time: the median is what a block costs, not BullMQ's timers. */
export const CPU_BLOCKS = Number(process.env.BENCH_CPU_BLOCKS ?? 30);

/** The service settings of a watch bench: room for `count` watches made by one client, and for one block settling all of them. */
export function watchServiceEnv(count: number): Record<string, string> {
  return {
    ALLOW_PRIVATE_OVERRIDES: 'true',
    MAX_WATCHES: String(count * 2),
    MAX_WATCHES_PER_CLIENT: String(count * 2),
    // A block settling many transfers holds one event each: past 4,000 of them it is over the
    // default REQUEST_MAX_CHAIN_ITEMS (25 items an event record) and refused as hostile.
    REQUEST_MAX_CHAIN_ITEMS: String(Math.max(100_000, count * EVENT_RECORD_WEIGHT)),
    LOG_LEVEL: 'warn',
  };
}

/** The least time between two empty blocks (a relay chain makes one every 6 s). */
const BLOCK_GAP_MS = 1_000;
/** A service is done with a block once it uses under 20% of a core over QUIET_MS (at most QUIET_MAX_MS after the block). */
const QUIET_MS = 250;
const QUIET_MAX_MS = 60_000;

export interface Transfer {
  hash: Hex;
  blockHash: string;
  topic: Hex;
}

/**
 * Signs as test/support's signAsAlice does, with Alice's key derived once: signAsAlice derives it
 * per call (about 8 ms), which alone would take a quarter of an hour at 100,000 transfers.
 */
async function aliceSigner(chain: TestChain): Promise<(callHex: string, nonce: number) => { hex: Hex; hash: Hex }> {
  await crypto.cryptoWaitReady();
  const registry = chain.registry;
  const alice = new Keyring({ type: 'sr25519' }).addFromUri('//Alice');
  const genesisHash = chain.blockHash(0)!;
  const runtimeVersion = registry.createType('RuntimeVersion', chain.runtimeVersion) as unknown as RuntimeVersion;
  return (callHex, nonce) => {
    const extrinsic = registry.createType('Extrinsic', registry.createType('Call', callHex));
    extrinsic.sign(alice, { blockHash: genesisHash, genesisHash, nonce, runtimeVersion, signedExtensions: registry.signedExtensions });
    return { hex: extrinsic.toHex(), hash: extrinsic.hash.toHex() };
  };
}

/** Signs `count` teleports of `callHex` from nonce `first` and puts them in origin blocks, `perBlock` a block (sent, not processed yet). */
export async function includeTransfers(polkadot: TestChain, callHex: string, first: number, count: number, perBlock: number): Promise<Transfer[]> {
  const sign = await aliceSigner(polkadot);
  const out: Transfer[] = [];
  for (let at = 0; at < count; at += perBlock) {
    const batch = Array.from({ length: Math.min(perBlock, count - at) }, (_, i) => sign(callHex, first + at + i));
    const block = polkadot.produceBlock({
      extrinsics: batch.map((tx) => tx.hex),
      events: batch.flatMap((tx, i) => [sent('XcmPallet', i, child(1000), topicOf(tx.hash)), extrinsicSuccess(i)]),
    });
    for (const tx of batch) out.push({ hash: tx.hash, blockHash: block.hash, topic: topicOf(tx.hash) });
  }
  return out;
}

export const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

export interface Made {
  /** The watch id of each transfer, by index. */
  ids: string[];
  perSec: number;
  /** POST latency, ms. */
  p50: number;
  p99: number;
  /** Service CPU per watch made, ms. */
  cpuMs: number;
  /** Requests answered 503 (the store busy: "retry shortly") and sent again, as a client would. */
  retried: number;
}

/** Tries of one watch while the service answers 503 (its store did not answer in time). */
const CREATE_TRIES = 5;

/**
 * One watch per transfer through `POST /v5/x-transfer/watch`, `concurrency` requests in flight on
 * keep-alive connections: the service's own path (status read, store, first webhook), at the rate
 * it takes them. `body` is the request without txHash and blockHash.
 */
export async function makeWatches(service: Service, transfers: Transfer[], body: object, concurrency: number): Promise<Made> {
  const url = `${service.url}/v5/x-transfer/watch`;
  const ids: string[] = [];
  const took: number[] = [];
  const cpuBefore = service.threadsCpuMs();
  const started = performance.now();
  let next = 0;
  let retried = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < transfers.length) {
        const i = next++;
        const { hash, blockHash } = transfers[i]!;
        const sentAt = performance.now();
        let res: Response;
        let text: string;
        for (let tries = 1; ; tries++) {
          res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, txHash: hash, blockHash }) });
          text = await res.text();
          if (res.status !== 503 || tries === CREATE_TRIES) break;
          retried++;
          await sleep(1_000);
        }
        if (res.status !== 201) throw new Error(`watch ${i}: ${res.status} ${text.slice(0, 300)}`);
        took.push(performance.now() - sentAt);
        ids[i] = (JSON.parse(text) as { id: string }).id;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  took.sort((a, b) => a - b);
  return { ids, perSec: transfers.length / seconds, p50: percentile(took, 0.5), p99: percentile(took, 0.99), cpuMs: (service.threadsCpuMs() - cpuBefore) / transfers.length, retried };
}

export interface BlockCpu {
  /** Service CPU per empty block, ms: the median, and the 10th and 90th percentiles. */
  median: number;
  p10: number;
  p90: number;
  blocks: number;
}

/** Until each service used under 20% of a core over QUIET_MS, or QUIET_MAX_MS passed. */
async function quiet(services: Service[]): Promise<void> {
  const end = performance.now() + QUIET_MAX_MS;
  for (;;) {
    const before = services.map((s) => s.threadsCpuMs());
    await sleep(QUIET_MS);
    if (services.every((s, i) => s.threadsCpuMs() - before[i]! < QUIET_MS * 0.2) || performance.now() > end) return;
  }
}

/**
 * The CPU `blocks` empty blocks of `chain` cost each service following it, side by side (the same
 * blocks, at the same load): each block measured from its production until every service is quiet
 * again, at least BLOCK_GAP_MS apart.
 */
export async function cpuPerEmptyBlock(services: Service[], chain: TestChain, blocks = CPU_BLOCKS): Promise<BlockCpu[]> {
  const samples = services.map((): number[] => []);
  await quiet(services);
  for (let b = 0; b < blocks; b++) {
    const before = services.map((s) => s.threadsCpuMs());
    chain.produceBlock();
    await sleep(BLOCK_GAP_MS);
    await quiet(services);
    services.forEach((s, i) => samples[i]!.push(s.threadsCpuMs() - before[i]!));
  }
  return samples.map((ms) => {
    ms.sort((a, b) => a - b);
    return { median: percentile(ms, 0.5), p10: percentile(ms, 0.1), p90: percentile(ms, 0.9), blocks };
  });
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

/** The machine's load average (1, 5, 15 minutes), printed beside every figure: 2 cores are shared. */
export const loadAverage = (): string => `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
