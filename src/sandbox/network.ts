// The sandbox's chains: one emulated node per chain (chain-node.ts) on 127.0.0.1, each producing a
// block every `blockMs`, with balances for the development accounts (ledger.ts), the runtime
// answers (emulated-runtime.ts) and a transaction pool (pool.ts). A block executes, in order:
// the messages that arrived from other chains (xcm-executor.ts; by UMP, DMP, HRMP, one block after
// they were sent, or over the bridge between the asset hubs through BridgeHubPolkadot), then the
// extrinsics the pool took (pallets.ts), each paying its fee (fee-model.ts) first. The block's
// events are what happened (MessageQueue.Processed { success }, AssetsTrapped, Sent, transfers,
// ExtrinsicSuccess / ExtrinsicFailed), and its storage is the state after it.
import { createRequire } from 'node:module';
import { crypto, util } from './polkadot-libs';
import { assetsOf, nativeOf, type ChainAsset } from './assets';
import { encodeEvents, type EventSpec } from './blocks';
import { SANDBOX_CHAINS, startChainNode, type ChainNode, type SandboxChainName } from './chain-node';
import { emulateRuntime } from './emulated-runtime';
import { startEthereumNode, type EthereumNode } from './ethereum-node';
import { accountOfLocation, ChainError, Ledger } from './ledger';
import { messageEvents } from './message-events';
import { seedOmnipool } from './hydration-pools';
import { seedXc20 } from './seed';
import { dispatch } from './pallets';
import { Pool, type Pending } from './pool';
import { PLACES, queueOrigin } from './topology';
import { BRIDGE_HUB, crossesBridge, dispatched, exported, exportProgram } from './bridge';
import { bridgeFee, transactionFee, type Weight } from './fee-model';
import { execute, universal, type Outgoing } from './xcm-executor';
import { extrinsicSuccess, moduleError, processed, topicOf } from './xcm-events';
import { locationOf, programOf } from './xcm-program';
import { toSdkJson } from '../xcm/location';
import { destinationJson } from './xcm-transfers';

const { Keyring } = createRequire(__filename)('@polkadot/keyring') as typeof import('@polkadot/keyring');

/** The well-known development accounts (sr25519, `//Alice` ...), funded on every chain but Moonbeam. */
export const DEV_ACCOUNTS = ['Alice', 'Bob', 'Charlie', 'Dave', 'Eve', 'Ferdie'] as const;
/** Moonbeam's development accounts (Ethereum keys): Alith, Baltathar, Charleth, Dorothy. */
export const MOONBEAM_DEV_ACCOUNTS = ['0xf24FF3a9CF04c71Dbc94D0b566f7A27B94566cac', '0x3Cd0A705a2DC65e5b1E1205896BaA2be8A07c6e0', '0x798d4Ba9baf0064Ec19eB4F0a1a45785ae9D6DFc', '0x773539d4Ac0e786233D90A233654ccEE26a613D9'];

/** Each development account's balance, in whole tokens of each chain. */
const NATIVE_TOKENS = 10_000n;
/** What each chain's sovereign account holds on the chains it has a reserve on (whole tokens). */
const SOVEREIGN_TOKENS = 1_000_000n;

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
  /** Each chain's state (balances, nonces), as its storage shows it after each block. */
  readonly ledgers: Readonly<Partial<Record<SandboxChainName, Ledger>>>;
  /** Ethereum's JSON-RPC (ethereum-node.ts), for ETHEREUM_RPC_URL: the Moonbeam development accounts' keys hold ETH and WETH there. */
  readonly ethereum: EthereumNode;
  /** Stops producing blocks and closes every node. */
  close(): Promise<void>;
}

/** A message on its way: it is executed by `to` in the block of `tick`. */
interface InFlight extends Outgoing {
  tick: number;
  /**
   * The queue it arrives on (MessageQueue.Processed's origin), when not the sender's: across the
   * bridge, BridgeHubPolkadot stands for para 1002 of the receiving network (BridgeHubKusama too).
   */
  via?: SandboxChainName;
}

interface Chain {
  name: SandboxChainName;
  node: ChainNode;
  ledger: Ledger;
  pool: Pool;
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  await crypto.cryptoWaitReady();
  const names = options.chains ?? SANDBOX_CHAINS;
  const chains = new Map<SandboxChainName, Chain>();
  let ethereum: EthereumNode | undefined;
  let inFlight: InFlight[] = [];
  let tick = 0;
  try {
    for (const [i, name] of names.entries()) {
      const node = await startChainNode(name, { port: options.basePort === 0 ? 0 : options.basePort + i });
      const ledger = new Ledger(name);
      const chain: Chain = { name, node, ledger, pool: new Pool(name, node, ledger) };
      chains.set(name, chain);
      fund(chain);
      chain.ledger.flush(node);
      node.sealGenesis();
      emulateRuntime(name, node, chain.ledger);
      node.onSubmit((hex, hash) => chain.pool.submit(hex, hash));
      node.setRuntimeCall('TaggedTransactionQueue_validate_transaction', (args) => chain.pool.validity(args));
    }
    // Ethereum on the port after the chains' (no blocks: its state is fixed).
    ethereum = await startEthereumNode(MOONBEAM_DEV_ACCOUNTS, options.basePort === 0 ? 0 : options.basePort + names.length);
  } catch (error) {
    await Promise.all([...chains.values()].map((c) => c.node.close()));
    throw error;
  }
  const ethereumNode = ethereum;

  /** The bridge hub of `chain`'s network, when the sandbox runs it. */
  const bridgeHubOf = (chain: SandboxChainName): SandboxChainName | undefined =>
    [...chains.keys()].find((c) => PLACES[c].network === PLACES[chain].network && PLACES[c].paraId === BRIDGE_HUB.paraId);

  /**
   * Queues what a chain sent: one block to arrive. Across the bridge (bridge.ts), as the real chains
   * carry it: the asset hub's router sends its bridge hub the wrapped message, which the bridge hub
   * executes (ExportMessage), and the other network's bridge hub dispatches the export to its asset
   * hub a block later. The sandbox runs no BridgeHubKusama: its part is done here (on the way in,
   * the dispatch; on the way out, the export, BridgeHubPolkadot processing the message in the
   * block the export would reach it), two blocks either way.
   */
  const route = (sent: Outgoing[]): void => {
    for (const s of sent) {
      if (!crossesBridge(s.from, s.to)) {
        inFlight.push({ ...s, tick: tick + 1 });
        continue;
      }
      const arrival = { ...s, via: 'BridgeHubPolkadot' as const };
      if (s.exported) {
        inFlight.push({ ...arrival, message: dispatched(s.message), tick: tick + 1 });
        continue;
      }
      const hub = bridgeHubOf(s.from);
      if (hub) {
        inFlight.push({ from: s.from, to: hub, message: exportProgram(s.from, s.to, s.message, bridgeFee(s.from)), topic: s.topic, tick: tick + 1 });
        continue;
      }
      const otherHub = bridgeHubOf(s.to);
      if (otherHub) inFlight.push({ from: s.from, to: otherHub, message: [], topic: s.topic, tick: tick + 1 });
      inFlight.push({ ...arrival, message: dispatched(exported(universal(s.from), s.message)), tick: tick + 2 });
    }
  };

  const produce = () => {
    tick++;
    const arriving = inFlight.filter((m) => m.tick <= tick);
    inFlight = inFlight.filter((m) => m.tick > tick);
    for (const chain of chains.values()) {
      const events: EventSpec[] = [];
      for (const message of arriving.filter((m) => m.to === chain.name)) events.push(...receive(chain, message, route));
      const extrinsics = chain.pool.take();
      extrinsics.forEach((x, index) => events.push(...include(chain, x, index, route)));
      chain.ledger.flush(chain.node);
      chain.node.produceBlock({ extrinsics: extrinsics.map((x) => x.hex), events: encodable(chain.node, events), timestamp: Date.now() });
    }
  };
  const timer = setInterval(produce, options.blockMs);

  const endpoints: Partial<Record<SandboxChainName, string>> = {};
  const nodes: Partial<Record<SandboxChainName, ChainNode>> = {};
  const ledgers: Partial<Record<SandboxChainName, Ledger>> = {};
  for (const c of chains.values()) {
    endpoints[c.name] = c.node.url;
    nodes[c.name] = c.node;
    ledgers[c.name] = c.ledger;
  }
  return {
    nodes,
    endpoints,
    ledgers,
    ethereum: ethereumNode,
    async close() {
      clearInterval(timer);
      await Promise.all([...chains.values()].map((c) => c.node.close()).concat(ethereumNode.close()));
    },
  };
}

/** A signed extrinsic at position `index` of its block: its fee, then its call, all or nothing. */
function include(chain: Chain, x: Pending, index: number, route: (sent: Outgoing[]) => void): EventSpec[] {
  const signer = util.u8aToHex(crypto.decodeAddress(x.extrinsic.signer.toString()));
  const fee = transactionFee(chain.name, x.extrinsic.encodedLength);
  const native = nativeOf(chain.name);
  const at = (e: Omit<EventSpec, 'phase'>): EventSpec => ({ ...e, phase: index, fields: errorsEncoded(chain.node, e.fields) });
  try {
    chain.ledger.debit(native, signer, fee);
  } catch {
    return [failed(chain.node, index, new ChainError('Balances', 'InsufficientBalance', 'the fee'))];
  }
  const paid = [at({ pallet: 'Balances', name: 'Withdraw', fields: { who: signer, amount: fee } })];
  const feePaid = at({ pallet: 'TransactionPayment', name: 'TransactionFeePaid', fields: { who: signer, actual_fee: fee, tip: 0 } });
  try {
    const call = chain.node.registry.createType('Call', x.extrinsic.method.toU8a());
    const done = dispatch({ chain: chain.name, ledger: chain.ledger, signer, topic: topicOf(x.hash) }, call);
    route(done.sent);
    return [...paid, ...done.events.map(at), feePaid, extrinsicSuccess(index)];
  } catch (error) {
    const named = error instanceof ChainError ? error : new ChainError('System', 'CallFiltered', String(error));
    return [...paid, feePaid, failed(chain.node, index, named)];
  }
}

function failed(node: ChainNode, index: number, error: ChainError): EventSpec {
  return { phase: index, pallet: 'System', name: 'ExtrinsicFailed', fields: { dispatch_error: dispatchError(node, error), dispatch_info: { weight: { refTime: 1_000_000, proofSize: 1_000 }, class: 'Normal', paysFee: 'Yes' } } };
}

/** The error as the runtime names it; one this chain's metadata does not have is CallFiltered. */
function dispatchError(node: ChainNode, error: ChainError): unknown {
  try {
    return moduleError(node, error.pallet, error.error);
  } catch {
    return moduleError(node, 'System', 'CallFiltered');
  }
}

const errorsEncoded = (node: ChainNode, fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined =>
  fields && Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof ChainError ? dispatchError(node, v) : v]));

/** Executes a message that arrived: its events, MessageQueue.Processed last; what it sends goes on. */
function receive(chain: Chain, m: InFlight, route: (sent: Outgoing[]) => void): EventSpec[] {
  const from = m.via ?? m.from;
  const origin = { phase: 'initialization' as const };
  const done = (success: boolean, weight?: Weight) => processed(m.topic, queueOrigin(from, chain.name), success, 'initialization', weight);
  if (m.message.length === 0) return [done(true)]; // a bridge hub passing a message from the other network on
  const originLoc = locationOf(m.via ? { parents: 1, interior: { X1: [{ Parachain: PLACES[m.via].paraId }] } } : destinationJson(chain.name, m.from));
  const outcome = execute({ chain: chain.name, ledger: chain.ledger, origin: originLoc, fromRemote: true, topic: m.topic }, programOf(m.message));
  const events: EventSpec[] = messageEvents(chain.name, outcome, originLoc).map((e) => ({ ...e, ...origin }));
  if (!outcome.error) {
    for (const s of outcome.sent) if (!s.exported && PLACES[chain.name].paraId !== undefined && PLACES[s.to].paraId !== undefined) events.push({ ...origin, pallet: 'XcmpQueue', name: 'XcmpMessageSent', fields: { message_hash: s.topic } });
  }
  // What a failed program sent before it failed still goes (the executor does not roll sends back).
  route(outcome.sent);
  return [...events, done(!outcome.error, outcome.weight)];
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

/** Decimals by symbol (an XC-20 has its asset's). */
const DECIMALS: Record<string, bigint> = { DOT: 10n, KSM: 12n, USDT: 6n, USDC: 6n, HDX: 12n, GLMR: 18n };
const whole = (asset: ChainAsset): bigint => 10n ** DECIMALS[asset.symbol.replace(/^xc/, '')]!;

/** What each development account holds besides its native token, by chain: 10,000 stablecoins on Asset Hub, 1,000 of the rest. */
function extraFunds(name: SandboxChainName): [ChainAsset, bigint][] {
  const grant = (asset: ChainAsset): [ChainAsset, bigint] => [asset, (asset.store.pallet === 'Assets' ? 10_000n : 1_000n) * whole(asset)];
  return assetsOf(name).filter((a) => a !== nativeOf(name)).map(grant);
}

/** The asset hubs, each holding the other network's token over the bridge. */
const BRIDGED_HUBS: SandboxChainName[] = ['AssetHubPolkadot', 'AssetHubKusama'];

function fund(chain: Chain): void {
  const { name, node, ledger } = chain;
  const native = nativeOf(name);
  const accounts =
    name === 'Moonbeam'
      ? MOONBEAM_DEV_ACCOUNTS
      : DEV_ACCOUNTS.map((who) => util.u8aToHex(new Keyring({ type: 'sr25519', ss58Format: node.registry.chainSS58 ?? 42 }).addFromUri(`//${who}`).publicKey));
  for (const id of accounts) {
    ledger.credit(native, id, NATIVE_TOKENS * whole(native));
    for (const [asset, amount] of extraFunds(name)) ledger.credit(asset, id, amount);
  }
  // Moonbeam's XC-20s are registered as its runtime registers them, with their price relative to GLMR.
  for (const asset of assetsOf(name)) if (asset.store.pallet === 'EvmForeignAssets') seedXc20(node, asset.store.id, toSdkJson(asset.location), 10n ** 36n / asset.perSecond!);
  if (name === 'Hydration') seedOmnipool(node, ledger);
  // The other network's asset hub's sovereign account holds the tokens that back its bridged copies.
  for (const other of BRIDGED_HUBS) {
    if (!BRIDGED_HUBS.includes(name) || other === name) continue;
    const sovereign = accountOfLocation(locationOf(destinationJson(name, other)), name);
    if (sovereign) ledger.credit(native, sovereign, SOVEREIGN_TOKENS * whole(native));
  }
  // The sovereign accounts of the other chains of its network hold what reserve transfers left there.
  for (const other of Object.keys(PLACES) as SandboxChainName[]) {
    if (other === name || PLACES[other].network !== PLACES[name].network) continue;
    const sovereign = accountOfLocation(locationOf(destinationJson(name, other)), name);
    if (!sovereign) continue;
    for (const asset of assetsOf(name)) if (asset.perSecond !== undefined) ledger.credit(asset, sovereign, SOVEREIGN_TOKENS * whole(asset));
  }
}
