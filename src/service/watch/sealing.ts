// Webhook secrets and URLs at rest. In Redis a watch's record is read by whoever can read Redis:
// with WATCH_ENCRYPTION_KEY set it is sealed with AES-256-GCM (a fresh 96-bit IV per record, the
// watch id as additional data, so a sealed record cannot be moved onto another id). A record sealed
// under WATCH_ENCRYPTION_KEY_PREVIOUS still opens while a rotation runs; one stored in clear (before
// a key was set) still reads. Without a key, records are stored in clear (docs/watches.md says so).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { encryptionKeyBytes } from '../../config';

const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals a record's text for one watch id, and opens it again. */
export interface Sealer {
  /** Whether records are sealed (a key is set). */
  readonly sealing: boolean;
  seal(plain: string, id: string): string;
  /** The text as sealed (or as stored in clear); throws when sealed under a key this process does not hold, or altered. */
  open(stored: string, id: string): string;
}

/** Names a key without revealing it: which of the keys a record was sealed with. */
const keyId = (key: Buffer): string => createHash('sha256').update('xcm-gateway watch key\0').update(key).digest('hex').slice(0, 12);

class AesGcmSealer implements Sealer {
  readonly sealing: boolean;
  readonly #current?: { id: string; key: Buffer };
  readonly #keys: Map<string, Buffer>;

  constructor(keys: Buffer[]) {
    const [current] = keys;
    this.sealing = current !== undefined;
    this.#current = current ? { id: keyId(current), key: current } : undefined;
    this.#keys = new Map(keys.map((key) => [keyId(key), key]));
  }

  seal(plain: string, id: string): string {
    if (!this.#current) return plain;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    cipher.setAAD(Buffer.from(id));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.#current.id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  open(stored: string, id: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [kid, payload = ''] = stored.slice(PREFIX.length).split(':');
    const key = kid === undefined ? undefined : this.#keys.get(kid);
    if (!key) throw new Error(`watch ${id} is sealed with a key this process does not hold (WATCH_ENCRYPTION_KEY, WATCH_ENCRYPTION_KEY_PREVIOUS)`);
    const bytes = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(id));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

/** The sealer the config asks for: the current key seals, the current and the previous open. */
export function sealerFrom(config: { WATCH_ENCRYPTION_KEY?: string; WATCH_ENCRYPTION_KEY_PREVIOUS?: string }): Sealer {
  const keys = [config.WATCH_ENCRYPTION_KEY, config.WATCH_ENCRYPTION_KEY_PREVIOUS].filter((k): k is string => k !== undefined).map(encryptionKeyBytes);
  if (config.WATCH_ENCRYPTION_KEY === undefined && keys.length > 0) throw new Error('WATCH_ENCRYPTION_KEY_PREVIOUS is set without WATCH_ENCRYPTION_KEY');
  return new AesGcmSealer(keys);
}
