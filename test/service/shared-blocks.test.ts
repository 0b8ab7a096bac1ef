// Blocks read by hash, shared by the watches made on them: one read serves every reader of a part,
// a reader whose shared read failed (another reader's deadline) reads the part itself, and only the
// newest blocks are kept.
import { describe, expect, it } from 'vitest';
import { SharedBlocks, sharedPart } from '../../src/service/status/shared-blocks';

describe('SharedBlocks', () => {
  it('one read serves the readers of a part; a reader that joined a read that failed reads the part itself, the one that started it fails', async () => {
    const blocks = new SharedBlocks();
    const block = blocks.get('Polkadot', ['ws://a'], '0x01');
    let reads = 0;
    const read = async () => ++reads;
    expect(await Promise.all([sharedPart(block.timestamp, read), sharedPart(blocks.get('Polkadot', ['ws://a'], '0x01').timestamp, read)])).toEqual([1, 1]);

    const other = blocks.get('Polkadot', ['ws://a'], '0x02');
    let fail!: (error: Error) => void;
    const starter = sharedPart(other.timestamp, () => new Promise<number>((_, reject) => (fail = reject)));
    const joiner = sharedPart(other.timestamp, read);
    fail(new Error('the first reader timed out'));
    await expect(starter).rejects.toThrow('the first reader timed out');
    expect(await joiner).toBe(2);
  });

  it('keeps the newest blocks only, per connection and hash', () => {
    const blocks = new SharedBlocks(2);
    const first = blocks.get('Polkadot', ['ws://a'], '0x01');
    expect(blocks.get('Polkadot', ['ws://b'], '0x01')).not.toBe(first);
    blocks.get('Polkadot', ['ws://a'], '0x02');
    expect(blocks.size).toBe(2);
    expect(blocks.get('Polkadot', ['ws://a'], '0x01')).not.toBe(first);
  });
});
