// Blocks: genesis (#0, the chain's real genesis hash) up to a fixed head, and those produced after
// it. Every block's hash is a node's: the blake2-256 of its SCALE-encoded header, so that a client
// that hashes a header it read (polkadot.js signing with a mortal era) names the same block.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { encodeCompact, type SandboxChainName } from './chain-data';

const load = createRequire(__filename);

const HEAD_NUMBER = 100;
const ZERO_HASH = `0x${'00'.repeat(32)}`;

interface Header {
  parentHash: string;
  number: string;
  stateRoot: string;
  extrinsicsRoot: string;
  digest: { logs: string[] };
}

export class BlockTree {
  private readonly hashes: string[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly stateRoot: string;
  private readonly extrinsicsRoot: string;

  constructor(chain: SandboxChainName, genesisHash: string) {
    this.stateRoot = sha256Hex(`test-chain/${chain}/state-root`);
    this.extrinsicsRoot = sha256Hex(`test-chain/${chain}/extrinsics-root`);
    this.append(genesisHash);
    while (this.hashes.length <= HEAD_NUMBER) this.append(this.nextHash());
  }

  /** The hash of the block that comes next (parent, number, roots, an empty digest). */
  nextHash(): string {
    const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
    const bytes = (hex: string) => Buffer.from(hex.slice(2), 'hex');
    const header = Buffer.concat([bytes(this.head), encodeCompact(this.hashes.length), bytes(this.stateRoot), bytes(this.extrinsicsRoot), Buffer.from([0])]);
    return crypto.blake2AsHex(header, 256);
  }

  get head(): string {
    return this.hashes[this.hashes.length - 1] as string;
  }

  hashOf(n: number): string | null {
    return Number.isInteger(n) && n >= 0 && n < this.hashes.length ? (this.hashes[n] as string) : null;
  }

  /** A produced block (blocks.ts) becomes the new head; returns its number. */
  append(hash: string): number {
    this.hashes.push(hash);
    this.numbers.set(hash, this.hashes.length - 1);
    return this.hashes.length - 1;
  }

  header(hash: string): Header | null {
    const n = this.numbers.get(hash.toLowerCase());
    if (n === undefined) return null;
    return {
      parentHash: n === 0 ? ZERO_HASH : (this.hashes[n - 1] as string),
      number: `0x${n.toString(16)}`,
      stateRoot: this.stateRoot,
      extrinsicsRoot: this.extrinsicsRoot,
      digest: { logs: [] },
    };
  }
}

export function sha256Hex(s: string): string {
  return `0x${createHash('sha256').update(s).digest('hex')}`;
}

