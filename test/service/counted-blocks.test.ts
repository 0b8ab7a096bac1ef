// What a status reader counts against TRACK_MAX_BLOCKS: each block once, however often it is read,
// held as runs of block numbers (a watch following a chain for hours holds one run, not a hash per block).
import { describe, expect, it } from 'vitest';
import { CountedBlocks } from '../../src/service/status/reader';

describe('CountedBlocks', () => {
  it('counts each block of each chain once, in any order, merging neighbours', () => {
    const counted = new CountedBlocks();
    const added = [5, 7, 6, 5, 4, 9, 8, 7, 1].map((n) => counted.add('Polkadot', n));
    expect(added).toEqual([true, true, true, false, true, true, true, false, true]);
    expect(counted.size).toBe(7);
    // Every block in 1 and 4..9 is known; 2 and 3 are not; another chain's numbers are its own.
    expect([1, 4, 5, 6, 7, 8, 9].map((n) => counted.add('Polkadot', n)).some((fresh) => fresh)).toBe(false);
    expect(counted.add('AssetHubPolkadot', 5)).toBe(true);
    expect(counted.add('Polkadot', 3)).toBe(true);
    expect(counted.add('Polkadot', 2)).toBe(true);
    expect(counted.add('Polkadot', 2)).toBe(false);
    expect(counted.size).toBe(10);
  });
});
