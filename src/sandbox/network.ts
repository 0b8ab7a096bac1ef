// The sandbox's chains: one emulated node per chain (chain-node.ts) on 127.0.0.1, each producing a
// block every `blockMs`, with balances for the development accounts, the emulated runtime answers
// (emulated-runtime.ts), and a transaction pool: a signed extrinsic submitted to a node is checked
// (it decodes with the chain's metadata, its signature verifies, its nonce is the account's next)
// and goes into that chain's next block, with the events the runtime would emit for it. For an XCM
// transfer the message then shows as processed on the chains after it (one block each), under the
// topic the origin's `Sent` event names: what POST /x-transfer/status follows.
import { createRequire } from 'node:module';
import type { TypeRegistry } from '@polkadot/types';
import type { Extrinsic, RuntimeVersion } from '@polkadot/types/interfaces';
import { encodeEvents, type EventSpec } from './blocks';
import { SANDBOX_CHAINS, startChainNode, type ChainNode, type SandboxChainName } from './chain-node';
import { emulateRuntime, feesOf } from './emulated-runtime';
import { seedAsset, seedNative, seedTokens } from './seed';
import { PLACES, locationOf, planOf, queueOrigin, xcmPalletOf, type Plan } from './topology';
import { deposit, extrinsicSuccess, processed, sent, topicOf, xcmpMessageSent, type Hex } from './xcm-events';

const load = createRequire(__filename);
const util = load('@polkadot/util') as typeof import('@polkadot/util');
const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
const { Keyring } = load('@polkadot/keyring') as typeof import('@polkadot/keyring');

/** The well-known development accounts (sr25519, `//Alice` ...), funded on every chain but Moonbeam. */
export const DEV_ACCOUNTS = ['Alice', 'Bob', 'Charlie', 'Dave', 'Eve', 'Ferdie'] as const;
/** Moonbeam's development accounts (Ethereum keys): Alith, Baltathar, Charleth, Dorothy. */
export const MOONBEAM_DEV_ACCOUNTS = ['0xf24FF3a9CF04c71Dbc94D0b566f7A27B94566cac', '0x3Cd0A705a2DC65e5b1E1205896BaA2be8A07c6e0', '0x798d4Ba9baf0064Ec19eB4F0a1a45785ae9D6DFc', '0x773539d4Ac0e786233D90A233654ccEE26a613D9'];

/** Each development account's balance, in whole tokens of each chain. */
const NATIVE_TOKENS = 10_000n;
const USDT_ON_ASSET_HUB = 1984;
const DOT_ON_HYDRATION = 5;

export interface SandboxOptions {
  /** Milliseconds between blocks on every chain. */
  blockMs: number;
  /** The first chain's port, the next chains' on the ports after it; 0: ports the system picks. */
  basePort: number;
  /** The chains to run (all by default). */
  chains?: readonly SandboxChainName[];
}

export interface Sandbox {
  readonly nodes: Readonly<Partial<Record<SandboxChainName, ChainNode>>>;
  /** Each chain's endpoint, for CHAIN_ENDPOINTS. */
  readonly endpoints: Readonly<Partial<Record<SandboxChainName, string>>>;
  /** Stops producing blocks and closes every node. */
  close(): Promise<void>;
}

/** What goes into a chain's next blocks. */
interface Pending {
  extrinsics: { hex: string; events: (index: number) => EventSpec[] }[];
  /** Events of a message arriving, by the block (tick) they land in. */
  arrivals: { tick: number; events: EventSpec[] }[];
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  await crypto.cryptoWaitReady();
  const names = options.chains ?? SANDBOX_CHAINS;
  const nodes: Partial<Record<SandboxChainName, ChainNode>> = {};
  const pending = new Map<SandboxChainName, Pending>();
  let tick = 0;
  try {
    for (const [i, chain] of names.entries()) {
      const node = await startChainNode(chain, { port: options.basePort === 0 ? 0 : options.basePort + i });
      nodes[chain] = node;
      pending.set(chain, { extrinsics: [], arrivals: [] });
      fund(chain, node);
      emulateRuntime(chain, node);
      node.onSubmit((hex, hash) => {
        const plan = accept(chain, node, hex);
        pending.get(chain)!.extrinsics.push({ hex, events: (index) => originEvents(chain, plan, index, topicOf(hash)) });
        if (plan.kind !== 'xcm' || !plan.next) return;
        const topic = topicOf(hash);
        const route = plan.destination && plan.destination !== plan.next ? [plan.next, plan.destination] : [plan.next];
        route.forEach((to, i) => {
          const from = i === 0 ? chain : route[i - 1]!;
          const last = i === route.length - 1;
          const events = last && plan.beneficiary ? [deposit('initialization', plan.beneficiary, received(plan.amount, to)), processed(topic, queueOrigin(from, to), true)] : [xcmpMessageSent('initialization', topic), processed(topic, queueOrigin(from, to), true)];
          pending.get(to)?.arrivals.push({ tick: tick + 2 + i, events });
        });
      });
    }
  } catch (error) {
    await Promise.all(Object.values(nodes).map((n) => n.close()));
    throw error;
  }

  const produce = () => {
    tick++;
    for (const chain of names) {
      const node = nodes[chain]!;
      const queue = pending.get(chain)!;
      const extrinsics = queue.extrinsics.splice(0);
      const arriving = queue.arrivals.filter((a) => a.tick <= tick);
      queue.arrivals = queue.arrivals.filter((a) => a.tick > tick);
      const events = [...arriving.flatMap((a) => a.events), ...extrinsics.flatMap((x, index) => x.events(index))];
      node.produceBlock({ extrinsics: extrinsics.map((x) => x.hex), events: encodable(node, events), timestamp: Date.now() });
    }
  };
  const timer = setInterval(produce, options.blockMs);

  const endpoints: Partial<Record<SandboxChainName, string>> = {};
  for (const chain of names) endpoints[chain] = nodes[chain]!.url;
  return {
    nodes,
    endpoints,
    async close() {
      clearInterval(timer);
      await Promise.all(Object.values(nodes).map((n) => n.close()));
    },
  };
}

/**
 * The events this chain's metadata can encode: what a signed call asks for can name what this
 * chain has no type for (a 20-byte account on a chain of 32-byte ones); such an event is left out
 * rather than the block.
 */
function encodable(node: ChainNode, events: EventSpec[]): EventSpec[] {
  try {
    encodeEvents(node.registry, events);
    return events;
  } catch {
    return events.filter((event) => {
      try {
        encodeEvents(node.registry, [event]);
        return true;
      } catch {
        return false;
      }
    });
  }
}

/** The amount that arrives: what was sent less the destination's execution fee. */
const received = (amount: bigint, at: SandboxChainName): bigint => (amount > feesOf(at).execution ? amount - feesOf(at).execution : 0n);

function fund(chain: SandboxChainName, node: ChainNode): void {
  const decimals = BigInt(node.registry.chainDecimals[0] ?? 12);
  const native = NATIVE_TOKENS * 10n ** decimals;
  if (chain === 'Moonbeam') {
    for (const account of MOONBEAM_DEV_ACCOUNTS) seedNative(node, account, native);
    return;
  }
  const keyring = new Keyring({ type: 'sr25519', ss58Format: node.registry.chainSS58 ?? 42 });
  for (const name of DEV_ACCOUNTS) {
    const address = keyring.addFromUri(`//${name}`).address;
    seedNative(node, address, native);
    if (chain === 'AssetHubPolkadot') seedAsset(node, USDT_ON_ASSET_HUB, address, 10_000n * 10n ** 6n);
    if (chain === 'Hydration') seedTokens(node, address, DOT_ON_HYDRATION, 1_000n * 10n ** 10n);
  }
}

// ---- the transaction pool ----------------------------------------------------------------------

/**
 * Checks a submitted extrinsic as a node's transaction pool would (decodes with the chain's
 * metadata, signed, signature valid, nonce the account's next), takes its nonce, and reads what
 * its call asks for. Throws (the node answers 1010 Invalid Transaction) otherwise.
 */
function accept(chain: SandboxChainName, node: ChainNode, hex: string): Plan {
  const registry = node.registry;
  let extrinsic: Extrinsic;
  try {
    extrinsic = registry.createType('Extrinsic', hex);
  } catch (error) {
    throw new Error(`it does not decode with ${chain}'s metadata (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!extrinsic.isSigned) throw new Error('the sandbox takes signed extrinsics only');
  verifySignature(chain, node, registry, extrinsic);
  const signer = util.u8aToHex(crypto.decodeAddress(extrinsic.signer.toString()));
  const expected = nonces(node).get(signer) ?? 0;
  const nonce = extrinsic.nonce.toNumber();
  if (nonce < expected) throw new Error(`Transaction is outdated (nonce ${nonce}, the account's next is ${expected})`);
  if (nonce > expected) throw new Error(`Transaction will be valid in the future (nonce ${nonce}, the account's next is ${expected}); the sandbox keeps no future queue`);
  nonces(node).set(signer, nonce + 1);
  node.setAccountNextIndex(signer, nonce + 1);
  const call = registry.createType('Call', extrinsic.method.toU8a());
  const args: Record<string, unknown> = {};
  for (const [name, value] of call.argsEntries) args[name] = value.toJSON();
  return planOf(chain, call.section, args);
}

const nonceTables = new WeakMap<ChainNode, Map<string, number>>();
function nonces(node: ChainNode): Map<string, number> {
  let table = nonceTables.get(node);
  if (!table) nonceTables.set(node, (table = new Map()));
  return table;
}

/** The signature must verify over the payload the signer saw (the checkpoint block of its era included). */
function verifySignature(chain: SandboxChainName, node: ChainNode, registry: TypeRegistry, extrinsic: Extrinsic): void {
  if (chain === 'Moonbeam') return; // Ethereum signatures over AccountKey20: not checked here.
  const era = extrinsic.era;
  const genesisHash = node.blockHash(0)!;
  let blockHash = genesisHash;
  if (era.isMortalEra) {
    const birth = era.asMortalEra.birth(node.head());
    blockHash = node.blockHash(birth) ?? '';
    if (!blockHash) throw new Error(`its era starts at block ${birth}, which ${chain} does not have`);
  }
  if (!signedOver(registry, node, extrinsic, genesisHash, blockHash)) throw new Error('Transaction has a bad signature');
}

/** Whether the extrinsic's signature is over the payload with these genesis and era block hashes. */
function signedOver(registry: TypeRegistry, node: ChainNode, extrinsic: Extrinsic, genesisHash: string, blockHash: string): boolean {
  const version = node.runtimeVersion;
  const payload = registry.createType(
    'ExtrinsicPayload',
    {
      method: extrinsic.method.toHex(),
      era: extrinsic.era,
      nonce: extrinsic.nonce,
      tip: extrinsic.tip,
      assetId: extrinsic.assetId,
      mode: extrinsic.mode,
      metadataHash: null,
      specVersion: version.specVersion,
      transactionVersion: (registry.createType('RuntimeVersion', version) as unknown as RuntimeVersion).transactionVersion,
      genesisHash,
      blockHash,
      version: extrinsic.version & 0x7f,
    },
    { version: extrinsic.version & 0x7f },
  );
  const bytes = payload.toU8a({ method: true });
  const message = bytes.length > 256 ? crypto.blake2AsU8a(bytes, 256) : bytes;
  return crypto.signatureVerify(message, extrinsic.signature.toU8a(), extrinsic.signer.toString()).isValid;
}

/** The origin's events for a submitted extrinsic at position `index` of its block. */
function originEvents(chain: SandboxChainName, plan: Plan, index: number, topic: Hex): EventSpec[] {
  if (plan.kind === 'local' && plan.beneficiary) return [deposit(index, plan.beneficiary, plan.amount), extrinsicSuccess(index)];
  if (plan.kind !== 'xcm' || !plan.next) return [extrinsicSuccess(index)];
  const events = [sent(xcmPalletOf(chain), index, locationOf(chain, plan.next), topic)];
  if (PLACES[chain].paraId !== undefined && PLACES[plan.next].paraId !== undefined) events.push(xcmpMessageSent(index, topic));
  return [...events, extrinsicSuccess(index)];
}
