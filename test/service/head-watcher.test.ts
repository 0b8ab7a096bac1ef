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

  it('a listener that joins with the first block it has not read is checked from there: one behind the watcher is told so and reads the blocks between, one at its head is covered', async () => {
    const open = await watchers.watch('AssetHubPolkadot', [assetHub.url], signal);
    // The watcher checks a block the joining listener's read stopped before: its settling block, in the window.
    const head = assetHub.produceBlock();
    while ((await open.next(signal)).block.number !== head.number);
    const settling = assetHub.produceBlock({ events: [processed(TOPIC, { Parent: null }, true)] });
    while ((await open.next(signal)).block.number !== settling.number);
    const checked = assetHub.produceBlock();
    while ((await open.next(signal)).block.number !== checked.number);
    // Open listeners are offered a block before the index is looked up: the next one proves `checked` was.
    const after = assetHub.produceBlock();
    while ((await open.next(signal)).block.number !== after.number);

    const behind = await watchers.watch('AssetHubPolkadot', [assetHub.url], signal, { messageId: TOPIC }, settling.number);
    expect(behind.covered).toBe(false);
    const atHead = await watchers.watch('AssetHubPolkadot', [assetHub.url], signal, { messageId: OTHER }, after.number + 1);
    expect(atHead.covered).toBe(true);
    const dest = assetHub.produceBlock({ events: [processed(OTHER, { Parent: null }, true)] });
    const offered = await atHead.next(signal);
    // Nothing between its read and the block offered was left unchecked.
    expect(offered).toMatchObject({ block: { number: dest.number }, passedFrom: after.number + 1 });
    [behind, atHead, open].forEach((l) => l.close());
  });

  it('a listener that joins before the watcher checked its first block, not read up to it, is offered that block with nothing passed over', async () => {
    const settling = assetHub.produceBlock({ events: [processed(TOPIC, { Parent: null }, true)] });
    const head = assetHub.produceBlock();
    // A watcher of its own: its first block is the head, after the settling block the listener has not read.
    const fresh = new HeadWatchers(pool, 10_000, readLimits(testConfig()));
    const listener = await fresh.watch('AssetHubPolkadot', [assetHub.url], signal, { messageId: TOPIC }, settling.number);
    expect(listener.covered).toBe(false);
    const offered = await listener.next(signal);
    expect(offered.block.number).toBe(head.number);
    // No `passedFrom`: its reader reads from `settling` on itself.
    expect(offered.passedFrom).toBeUndefined();
    listener.close();
    fresh.close();
  });
});
