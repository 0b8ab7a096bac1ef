// The head watcher offers each block to the listeners it can settle: a listener that names its
// message is passed over for the blocks without it (read once for all), and told which it passed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPool } from '../../src/chains/pool';
import { HeadWatchers } from '../../src/service/status/head-watcher';
import { readLimits } from '../../src/service/sdk-calls';
import { testConfig } from '../helpers/app';
import { until } from '../helpers/transfer-status';
import { startTestChain, type TestChain } from '../support/test-chain';
import { processed } from '../support/xcm-events';

let assetHub: TestChain;
let pool: ConnectionPool;
let watchers: HeadWatchers;
const signal = new AbortController().signal;
const TOPIC = `0x${'ab'.repeat(32)}` as const;
const OTHER = `0x${'cd'.repeat(32)}` as const;

beforeAll(async () => {
  assetHub = await startTestChain('AssetHubPolkadot');
  pool = new ConnectionPool({ connectTimeoutMs: 10_000, idleTimeoutMs: 60_000, maxChains: 4 });
  watchers = new HeadWatchers(pool, 10_000, readLimits(testConfig()));
});

afterAll(async () => {
  watchers.close();
  await pool.close();
  await until(() => assetHub.openConnections === 0, 'the client to close');
  await assetHub.close();
});

describe('HeadWatchers: an index of what can settle each listener', () => {
  it('offers a listener indexed by its message id only the block that processes it, with the blocks it passed over; a listener naming nothing gets every block', async () => {
    const indexed = await watchers.watch('AssetHubPolkadot', [assetHub.url], signal, { messageId: TOPIC });
    const open = await watchers.watch('AssetHubPolkadot', [assetHub.url], signal);
    const first = assetHub.produceBlock();
    const other = assetHub.produceBlock({ events: [processed(OTHER, { Parent: null }, true)] });
    const dest = assetHub.produceBlock({ events: [processed(TOPIC, { Parent: null }, true)] });

    // The head when the watch began comes first.
    const seen: number[] = [];
    while (seen.at(-1) !== dest.number) seen.push((await open.next(signal)).block.number);
    expect(seen.slice(-3)).toEqual([first.number, other.number, dest.number]);
    const offered = await indexed.next(signal);
    expect(offered.block.hash).toBe(dest.hash);
    expect(offered.passedFrom).toBe(seen[0]);

    // Empty blocks after it: a reader that needs the next one carries on past them without reading.
    const later = [assetHub.produceBlock(), assetHub.produceBlock()];
    await open.next(signal);
    await open.next(signal);
    await until(() => indexed.caughtUp(dest.number + 1) === later[1]!.number + 1, 'the empty blocks passed over');
    // One that did not read up to where the watcher began passing over keeps its place.
    expect(indexed.caughtUp(first.number - 1)).toBe(first.number - 1);
    indexed.close();
    open.close();
  });
});
