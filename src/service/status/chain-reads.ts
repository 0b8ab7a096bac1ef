// The reads tracking makes on a chain, each one JSON-RPC call over a pooled ApiPromise
// (`api.rpc(method, ...params)`, answered as the node sent it) checked before use: a chain node is a
// stranger, and an answer of the wrong shape is a 502 naming the chain. Every answer is counted
// against the request's ReadBudget (its bytes, and the items it makes us decode) before it is used.
import { ChainResponseError } from '../../errors';
import { quote } from '../../chains/address-guard';
import { rpcProvider, utilCrypto, type ApiPromise } from '../../sdk';
import { jsonBytes, type ReadBudget } from '../sdk-calls';
import { decodeEvents, type ChainEvent } from './chain-events';

export interface BlockRef {
  number: number;
  hash: string;
}

type RawRpc = (method: string, ...params: unknown[]) => Promise<unknown>;

const HASH = /^0x[0-9a-f]{64}$/i;
const MAX_BLOCK_NUMBER = 2 ** 32 - 1;
/** More extrinsics than any block of a real chain holds. */
const MAX_EXTRINSICS = 100_000;

const storageKey = (pallet: string, item: string): string => utilCrypto.xxhashAsHex(pallet, 128) + utilCrypto.xxhashAsHex(item, 128).slice(2);
const EVENTS_KEY = storageKey('System', 'Events');
const TIMESTAMP_KEY = storageKey('Timestamp', 'Now');

/**
 * The bytes `0x`-prefixed hex stands for, or undefined when it is not hex. One native pass over
 * what may be megabytes (a regular expression and polkadot.js's hexToU8a each took another):
 * Buffer stops decoding at the first pair that is not hex, so a short result is a refusal.
 */
function hexBytes(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string' || value.length % 2 !== 0 || !value.startsWith('0x')) return undefined;
  const bytes = Buffer.from(value.slice(2), 'hex');
  // A plain view, not the Buffer: polkadot.js copies a Buffer it is given (u8aToU8a) before hashing it.
  return bytes.length * 2 === value.length - 2 ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) : undefined;
}

const DIGITS = Buffer.from('0123456789abcdef', 'latin1');

/**
 * blake2-256 as 0x-hex in one flat string. Built by concatenation (polkadot.js's u8aToHex, or
 * '0x' + hex) it is a rope that the lookback's indexOf flattens: 100,000 of them in one task.
 */
function blake2Hex(bytes: Uint8Array): string {
  const hash = utilCrypto.blake2AsU8a(bytes, 256);
  const text = Buffer.allocUnsafe(2 + 2 * hash.length);
  text[0] = 0x30; // 0
  text[1] = 0x78; // x
  for (let i = 0; i < hash.length; i++) {
    text[2 + 2 * i] = DIGITS[hash[i]! >> 4]!;
    text[3 + 2 * i] = DIGITS[hash[i]! & 15]!;
  }
  return text.toString('latin1');
}

/** One raw call, its answer counted against `budget` (nothing is sent once the budget is spent). */
async function rpc(api: ApiPromise, chain: string, budget: ReadBudget, method: string, ...params: unknown[]): Promise<unknown> {
  budget.check(chain);
  const answer = await budget.reading(chain, () => (api.rpc as unknown as RawRpc)(method, ...params));
  budget.bytes(chain, jsonBytes(answer, budget.limits.maxBytes));
  return answer;
}

function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Too deep to write out: say what it is.
    text = Array.isArray(value) ? 'a nested list' : typeof value;
  }
  return quote(text, 120);
}

function unusable(chain: string, method: string, why: string): ChainResponseError {
  return new ChainResponseError(chain, `answered ${method} with something this service cannot use: ${why}`);
}

function hashOf(chain: string, method: string, value: unknown): string {
  if (typeof value !== 'string' || !HASH.test(value)) throw unusable(chain, method, `${shown(value)} is not a block hash`);
  return value.toLowerCase();
}

function numberOf(chain: string, method: string, value: unknown): number {
  const n = typeof value === 'string' && /^0x[0-9a-f]{1,8}$/i.test(value) ? Number(value) : typeof value === 'number' ? value : NaN;
  if (!Number.isInteger(n) || n < 0 || n > MAX_BLOCK_NUMBER) throw unusable(chain, method, `${shown(value)} is not a block number`);
  return n;
}

/** The number of a header (as a node sends it in JSON). */
export const headerNumber = (chain: string, method: string, header: unknown): number => {
  if (header === null || typeof header !== 'object') throw unusable(chain, method, `${shown(header)} is not a header`);
  return numberOf(chain, method, (header as { number?: unknown }).number);
};

/** The finalized head: its hash and number. */
export async function finalizedHead(api: ApiPromise, chain: string, budget: ReadBudget): Promise<BlockRef> {
  const hash = hashOf(chain, 'chain_getFinalizedHead', await rpc(api, chain, budget, 'chain_getFinalizedHead'));
  const header = await rpc(api, chain, budget, 'chain_getHeader', hash);
  return { hash, number: headerNumber(chain, 'chain_getHeader', header) };
}

/** The hash of block `n`, or undefined when the chain has no such block (yet). */
export async function blockHashAt(api: ApiPromise, chain: string, budget: ReadBudget, n: number): Promise<string | undefined> {
  const hash = await rpc(api, chain, budget, 'chain_getBlockHash', n);
  return hash === null ? undefined : hashOf(chain, 'chain_getBlockHash', hash);
}

/**
 * A block's number and the hash of each extrinsic (blake2-256 of its bytes), or undefined for an
 * unknown block. Each extrinsic is an item of the budget; hashing yields to the event loop between slices.
 */
export async function blockExtrinsics(api: ApiPromise, chain: string, budget: ReadBudget, hash: string): Promise<{ number: number; extrinsics: string[] } | undefined> {
  const answer = await rpc(api, chain, budget, 'chain_getBlock', hash);
  if (answer === null) return undefined;
  const block = (answer as { block?: { header?: unknown; extrinsics?: unknown } } | undefined)?.block;
  if (block === null || typeof block !== 'object') throw unusable(chain, 'chain_getBlock', `${shown(answer)} is not a block`);
  const number = headerNumber(chain, 'chain_getBlock', block.header);
  const { extrinsics } = block;
  if (!Array.isArray(extrinsics) || extrinsics.length > MAX_EXTRINSICS) throw unusable(chain, 'chain_getBlock', `its extrinsics are ${shown(extrinsics)}, not a list`);
  budget.items(chain, extrinsics.length, 'extrinsics');
  const hashes: string[] = [];
  for (const [i, x] of (extrinsics as unknown[]).entries()) {
    if (budget.due()) await budget.pause(chain);
    const bytes = hexBytes(x);
    if (!bytes?.length) throw unusable(chain, 'chain_getBlock', `extrinsic ${i} is ${shown(x)}, not hex bytes`);
    hashes.push(blake2Hex(bytes));
  }
  return { number, extrinsics: hashes };
}

/** A downward message a parachain block received: the relay block that sent it and its blake2-256 hash. */
export interface DownwardMessage {
  sentAt: number;
  hash: string;
  /**
   * Whether it opens with an instruction that brings assets (`WithdrawAsset`, `ReserveAssetDeposited`,
   * `ReceiveTeleportedAsset`: 0, 1 and 2 in every XCM version), as a transfer's does; a relay's own
   * messages (`SubscribeVersion` after it first sends to a chain) do not. True when only its hash came.
   */
  bringsAssets: boolean;
}

/** The first instruction's index of a `VersionedXcm` (version byte, compact length, instructions). */
function firstInstruction(message: Uint8Array): number | undefined {
  const mode = (message[1] ?? 0) & 3;
  const lengthBytes = mode === 0 ? 1 : mode === 1 ? 2 : mode === 2 ? 4 : undefined;
  return lengthBytes === undefined ? undefined : message[1 + lengthBytes];
}

const bringsAssets = (message: Uint8Array): boolean => {
  const first = firstInstruction(message);
  return first !== undefined && first <= 2;
};

interface ValidationDataCall {
  readonly method: { readonly section: string; readonly method: string; readonly args: readonly unknown[] };
}
interface InboundDownward {
  readonly sentAt: { toNumber(): number };
  readonly msg: { toU8a(bare: boolean): Uint8Array };
}
interface InboundMessages {
  readonly downwardMessages: {
    readonly fullMessages: readonly InboundDownward[];
    readonly hashedMessages: readonly { readonly sentAt: { toNumber(): number }; readonly msgHash: { toHex(): string } }[];
  };
}

/** Inherents come first: the validation data is among a parachain block's first extrinsics. */
const INHERENTS_READ = 4;

/**
 * The downward messages a parachain block received, read from its
 * `parachainSystem.setValidationData` inherent, each with the relay block that sent it (none on a
 * relay). How a message is found whose relay names it in no event: relays before the executor's
 * `Sent` (Kusama 1.0.0) only say `xcmPallet.Attempted`. The hash is what `dmpQueue.ExecutedDownward`
 * names it by.
 */
export async function downwardMessagesAt(api: ApiPromise, chain: string, budget: ReadBudget, hash: string): Promise<DownwardMessage[]> {
  const answer = await rpc(api, chain, budget, 'chain_getBlock', hash);
  const extrinsics = (answer as { block?: { extrinsics?: unknown } } | null)?.block?.extrinsics;
  if (!Array.isArray(extrinsics)) return [];
  for (const x of extrinsics.slice(0, INHERENTS_READ)) {
    const bytes = hexBytes(x);
    if (!bytes) continue;
    let call: ValidationDataCall;
    try {
      call = api.registry.createType('Extrinsic', bytes) as unknown as ValidationDataCall;
    } catch {
      continue;
    }
    if (call.method.section !== 'parachainSystem' || call.method.method !== 'setValidationData') continue;
    // Up to polkadot-sdk 2503 in `data`; later in `inbound_messages_data`, some only by their hash.
    const [data, inbound] = call.method.args as [{ downwardMessages?: readonly InboundDownward[] } | undefined, InboundMessages | undefined];
    const full = data?.downwardMessages ?? inbound?.downwardMessages.fullMessages ?? [];
    const hashed = inbound?.downwardMessages.hashedMessages ?? [];
    budget.items(chain, full.length + hashed.length, 'downward messages');
    return [
      ...full.map((m) => {
        const bytes = m.msg.toU8a(true);
        return { sentAt: m.sentAt.toNumber(), hash: blake2Hex(bytes), bringsAssets: bringsAssets(bytes) };
      }),
      ...hashed.map((m) => ({ sentAt: m.sentAt.toNumber(), hash: m.msgHash.toHex(), bringsAssets: true })),
    ];
  }
  return [];
}

async function storageAt(api: ApiPromise, chain: string, budget: ReadBudget, key: string, hash: string): Promise<Uint8Array | undefined> {
  const value = await rpc(api, chain, budget, 'state_getStorage', key, hash);
  if (value === null) return undefined;
  const bytes = hexBytes(value);
  if (!bytes) throw unusable(chain, 'state_getStorage', `${shown(value)} is not hex bytes`);
  return bytes;
}

/** `System.Events` at a block, decoded with the chain's metadata (none stored reads as none). */
export async function eventsAt(api: ApiPromise, chain: string, budget: ReadBudget, hash: string): Promise<ChainEvent[]> {
  const bytes = await storageAt(api, chain, budget, EVENTS_KEY, hash);
  return bytes ? decodeEvents(api.registry, chain, bytes, budget) : [];
}

/**
 * Subscribes to finalized heads on the api's own provider, each header's number handed on as the
 * node sent it (checked). Not through `api.rpc`: that keeps a subscription 1.75 s after its last
 * listener leaves (polkadot.js's cache) and decodes headers before we could check them. The
 * returned function unsubscribes at once.
 */
export async function subscribeFinalizedNumbers(api: ApiPromise, chain: string, next: (number: number) => void, failed: (error: unknown) => void): Promise<() => void> {
  // The provider the api's RPC core sends on: its own connection, also on a shared runtime (where
  // polkadot.js keeps no provider in its options).
  const provider = rpcProvider(api);
  const id = await provider.subscribe('chain_finalizedHead', 'chain_subscribeFinalizedHeads', [], (error, header) => {
    try {
      if (error) throw error;
      next(headerNumber(chain, 'chain_subscribeFinalizedHeads', header));
    } catch (failure) {
      failed(failure);
    }
  });
  return () => {
    provider.unsubscribe('chain_finalizedHead', 'chain_unsubscribeFinalizedHeads', id).catch(() => undefined);
  };
}

/** `Timestamp.Now` at a block, in milliseconds. */
export async function timestampAt(api: ApiPromise, chain: string, budget: ReadBudget, hash: string): Promise<number> {
  const bytes = await storageAt(api, chain, budget, TIMESTAMP_KEY, hash);
  if (!bytes || bytes.length !== 8) throw unusable(chain, 'state_getStorage', `Timestamp.Now at ${hash} is ${bytes ? `${bytes.length} bytes` : 'missing'}, not a u64`);
  const ms = Number(Buffer.from(bytes).readBigUInt64LE());
  if (!Number.isSafeInteger(ms)) throw unusable(chain, 'state_getStorage', `Timestamp.Now at ${hash} is not a time`);
  return ms;
}
