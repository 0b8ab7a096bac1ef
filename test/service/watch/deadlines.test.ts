import { describe, expect, it } from 'vitest';
import { Deadlines, type Expiring } from '../../../src/service/watch/deadlines';

const item = (name: string, expiresAt: number, expired: string[]): Expiring => ({ expiresAt, deadlineAt: -1, expire: () => expired.push(name) });

describe('Deadlines: when watches expire, on one timer', () => {
  it('expires each item once at its time, earliest first, and never one removed first', async () => {
    const expired: string[] = [];
    const deadlines = new Deadlines();
    const now = Date.now();
    const items = [40, 10, 70, 30, 20, 60, 50].map((ms) => item(`at ${ms}`, now + ms, expired));
    for (const i of items) deadlines.add(i);
    deadlines.add(items[0]!);
    deadlines.delete(items[3]!);
    deadlines.delete(items[3]!);
    expect(deadlines.size).toBe(6);
    const all = new Promise<void>((resolve) => deadlines.add({ expiresAt: now + 120, deadlineAt: -1, expire: resolve }));
    await all;
    expect(expired).toEqual(['at 10', 'at 20', 'at 40', 'at 50', 'at 60', 'at 70']);
    expect(deadlines.size).toBe(0);
  });

  it('keeps the heap in order through many removals from the middle', async () => {
    const expired: string[] = [];
    const deadlines = new Deadlines();
    const now = Date.now() + 30;
    const items = Array.from({ length: 200 }, (_, i) => item(String(i), now + ((i * 37) % 200) / 10, expired));
    for (const i of items) deadlines.add(i);
    for (const i of items.filter((_, n) => n % 3 === 0)) deadlines.delete(i);
    await new Promise<void>((resolve) => deadlines.add({ expiresAt: now + 50, deadlineAt: -1, expire: resolve }));
    const kept = items.filter((_, n) => n % 3 !== 0);
    expect(expired).toHaveLength(kept.length);
    const times = expired.map((name) => items[Number(name)]!.expiresAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
