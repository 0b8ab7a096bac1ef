// Sealing watch records at rest (src/service/watch/sealing.ts): AES-256-GCM under WATCH_ENCRYPTION_KEY,
// bound to the watch id, the previous key still opening what it sealed.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { sealerFrom } from '../../../src/service/watch/sealing';

const key = () => randomBytes(32).toString('base64');

describe('sealing watch records', () => {
  it('seals to text that names neither the secret nor the URL, different each time, and opens it again', () => {
    const sealer = sealerFrom({ WATCH_ENCRYPTION_KEY: key() });
    const plain = JSON.stringify({ webhook: { url: 'https://h.example/x?token=abc', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } });
    const [one, two] = [sealer.seal(plain, 'w1'), sealer.seal(plain, 'w1')];
    expect(one).toMatch(/^sealed:v1:[0-9a-f]{12}:[A-Za-z0-9+/=]+$/);
    expect(one).not.toBe(two);
    for (const clear of ['token', 'abc', 'h.example', 'MfKQ9r8']) expect(one).not.toContain(clear);
    expect(sealer.open(one, 'w1')).toBe(plain);
  });

  it('refuses a record moved onto another id, altered, or sealed under a key it does not hold', () => {
    const sealer = sealerFrom({ WATCH_ENCRYPTION_KEY: key() });
    const sealed = sealer.seal('{"a":1}', 'w1');
    expect(() => sealer.open(sealed, 'w2')).toThrow();
    const flipped = sealed.slice(0, -6) + (sealed.at(-6) === 'A' ? 'B' : 'A') + sealed.slice(-5);
    expect(() => sealer.open(flipped, 'w1')).toThrow();
    expect(() => sealerFrom({ WATCH_ENCRYPTION_KEY: key() }).open(sealed, 'w1')).toThrow(/key this process does not hold/);
    expect(() => sealerFrom({}).open(sealed, 'w1')).toThrow(/key this process does not hold/);
  });

  it('during a rotation opens what the previous key sealed, seals with the new one; records in clear still read', () => {
    const [oldKey, newKey] = [key(), randomBytes(32).toString('hex')];
    const before = sealerFrom({ WATCH_ENCRYPTION_KEY: oldKey }).seal('old', 'w1');
    const rotating = sealerFrom({ WATCH_ENCRYPTION_KEY: newKey, WATCH_ENCRYPTION_KEY_PREVIOUS: oldKey });
    expect(rotating.open(before, 'w1')).toBe('old');
    const after = rotating.seal('new', 'w2');
    expect(sealerFrom({ WATCH_ENCRYPTION_KEY: newKey }).open(after, 'w2')).toBe('new');
    expect(() => sealerFrom({ WATCH_ENCRYPTION_KEY: oldKey }).open(after, 'w2')).toThrow();
    expect(rotating.open('{"clear":true}', 'w3')).toBe('{"clear":true}');
    expect(sealerFrom({}).seal('plain', 'w4')).toBe('plain');
  });

  it('takes keys of 32 bytes, hex or base64, and refuses anything else', () => {
    expect(loadConfig({ WATCH_ENCRYPTION_KEY: key(), WATCH_ENCRYPTION_KEY_PREVIOUS: randomBytes(32).toString('hex') }).WATCH_ENCRYPTION_KEY).toBeDefined();
    for (const bad of ['short', randomBytes(16).toString('base64'), randomBytes(31).toString('hex'), `${key()}x`]) {
      expect(() => loadConfig({ WATCH_ENCRYPTION_KEY: bad }), bad).toThrow(/WATCH_ENCRYPTION_KEY: must be 32 bytes/);
    }
    expect(loadConfig({ WATCH_ENCRYPTION_KEY: key(), WATCH_ENCRYPTION_KEY_PREVIOUS: '' }).WATCH_ENCRYPTION_KEY_PREVIOUS).toBeUndefined();
    expect(() => sealerFrom({ WATCH_ENCRYPTION_KEY_PREVIOUS: key() })).toThrow(/without WATCH_ENCRYPTION_KEY/);
  });
});
