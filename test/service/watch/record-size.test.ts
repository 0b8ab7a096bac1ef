import { describe, expect, it } from 'vitest';
import type { StatusAnswer } from '../../../src/service/status';
import { endedProgress, type Delivery } from '../../../src/service/watch/model';
import { recordBytes, statusBytesOf } from '../../../src/service/watch/record-size';
import { eventOf } from '../../../src/service/watch/recorder';
import { watchOf } from './backend-contract';

const hash = (n: number) => `0x${n.toString(16).padStart(2, '0').repeat(32)}`;

/** A three-leg answer of the kind the follower records, with a failure's text in it. */
const answer: StatusAnswer = {
  status: 'failed',
  final: true,
  messageId: hash(1),
  legs: [
    { chain: 'Polkadot', role: 'origin', state: 'success', blockNumber: 24_000_001, blockHash: hash(2), extrinsicIndex: 3, events: ['xcmPallet.Sent', 'balances.Withdraw', 'system.ExtrinsicSuccess'] },
    { chain: 'AssetHubPolkadot', role: 'hop', state: 'success', blockNumber: 9_000_000, blockHash: hash(3), events: ['messageQueue.Processed', 'xcmpQueue.XcmpMessageSent'] },
    { chain: 'Hydration', role: 'destination', state: 'failed', blockNumber: 7_000_000, blockHash: hash(4), events: ['messageQueue.ProcessingFailed'], trapped: { hash: hash(5) } },
  ],
  note: 'blocks after "the last one read" — not read',
};

describe('the retained record\'s bytes', () => {
  it('bound the record\'s JSON from above, within a few hundred bytes, from the ending event instead of the answer', () => {
    const watch = watchOf('key:someone');
    const events = [eventOf(watch, 0, 'transfer.in-flight', { ...answer, status: 'in-flight', final: false }), eventOf(watch, 1, 'transfer.failed', answer)];
    const progress = endedProgress({ status: answer, events: 2, ended: 'final' });
    const deliveries: Delivery[][] = [
      [],
      [{ eventId: events[0]!.id, type: events[0]!.type, state: 'delivered', attempts: 1, lastCode: 204, lastAt: Date.now() }],
      [
        { eventId: events[0]!.id, type: events[0]!.type, state: 'failed', attempts: 999_999, lastCode: 503, lastError: 'answered 503: "busy" ünïcödé \u0001', lastAt: Date.now(), nextAt: Date.now() },
        { eventId: events[1]!.id, type: events[1]!.type, state: 'cancelled', attempts: 0 },
      ],
    ];
    for (const d of deliveries) {
      const exact = Buffer.byteLength(JSON.stringify({ watch, progress, deliveries: d }));
      const estimate = recordBytes(watch, statusBytesOf(progress, events), d);
      expect(estimate, `${d.length} deliveries`).toBeGreaterThanOrEqual(exact);
      expect(estimate - exact, `${d.length} deliveries`).toBeLessThanOrEqual(200 + 150 * d.length);
    }
    // Without an ending event the answer is measured.
    expect(statusBytesOf(progress, [])).toBe(Buffer.byteLength(JSON.stringify(answer)));
  });
});
