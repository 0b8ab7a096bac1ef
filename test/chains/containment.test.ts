// Where an error a chain client raises ends up: the connection whose event set it off, or (raised
// outside any) the process's own uncaughtException, as before.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { containClientError, deliveringFor, type Containable } from '../../src/chains/containment';
import '../../src/sdk';

const rxjs = createRequire(__filename)('rxjs') as typeof import('rxjs');

function socket(): Containable & { failures: unknown[] } {
  const failures: unknown[] = [];
  return { failures, failForClientError: (error) => void failures.push(error) };
}

describe('containClientError', () => {
  it('traces an error raised later, from a timer or a promise set off by a delivery, to that socket', async () => {
    const [a, b] = [socket(), socket()];
    const fromTimer = new Error('from a timer');
    const fromPromise = new Error('from a promise');
    await Promise.all([
      deliveringFor(a, () => new Promise<void>((resolve) => setTimeout(() => resolve(void containClientError(fromTimer)), 0))),
      deliveringFor(b, () => Promise.resolve().then(() => containClientError(fromPromise))),
    ]);
    expect(a.failures).toEqual([fromTimer]);
    expect(b.failures).toEqual([fromPromise]);
  });

  it('outside any delivery it contains nothing', () => {
    expect(containClientError(new Error('ours'))).toBe(false);
  });
});

describe('RxJS unhandled errors (the hook the SDK door installs)', () => {
  it('one set off by a socket\'s delivery ends that socket', async () => {
    const s = socket();
    const error = new Error('createType(RuntimeVersion):: failed');
    await new Promise<void>((resolve) => {
      deliveringFor(s, () => {
        rxjs.throwError(() => error).subscribe();
        setTimeout(resolve, 0);
      });
    });
    expect(s.failures).toEqual([error]);
  });

  it('one raised outside any delivery is rethrown as RxJS would (it stays fatal)', () => {
    const error = new Error('not a node\'s doing');
    expect(() => rxjs.config.onUnhandledError?.(error)).toThrow(error);
  });
});
