// The sandbox's XCM executor: runs a program on one chain instruction by instruction, as
// polkadot-sdk's xcm-executor does, over that chain's ledger. It keeps a holding register and a
// fees register, buys execution at the chain's price (fee-model.ts), re-anchors what it sends on
// (src/xcm/location.ts, the route check's copy) and credits sovereign accounts, and refuses what a
// real chain refuses: an unknown destination (Unroutable), a teleport between chains that do not
// trust each other (UntrustedTeleportLocation), a reserve that is not the asset's
// (UntrustedReserveLocation), fees too low (TooExpensive) or missing (NotHoldingFees), an asset
// the chain does not hold (AssetNotFound), a message the barrier stops (xcm-barrier.ts), an alias
// outside the origin (NoPermission), a false expectation. What is left in holding is trapped.
import { absolute, reanchor, relative, sameLocation, universalOf, type Junction, type Loc } from '../xcm/location';
import { assetOf as chainAssetOf, nativeOf } from './assets';
import type { SandboxChainName } from './chain-data';
import { bridgeDispatcherJson, BRIDGE_HUB, crossesBridge, exported } from './bridge';
import { deliveryFeeTo, programWeight, weightFee, type Weight } from './fee-model';
import { accountOfLocation, ChainError, type Ledger } from './ledger';
import { depthOf, isSystem, isUnlimited, MAX_XCM_DECODE_DEPTH, passesBarrier } from './xcm-barrier';
import { PLACES } from './topology';
import { assetJson, assetsIn, field, filterOf, Holding, locationOf, locJson, programOf, type Asset, type Instruction } from './xcm-program';

export type Hex = `0x${string}`;

/** A message one chain sends another: V5 instructions, ending with the topic. */
export interface Outgoing {
  from: SandboxChainName;
  to: SandboxChainName;
  message: unknown[];
  topic: Hex;
  /** Sent across the bridge by a bridge hub's exporter (its ExportMessage), not by its XCM router. */
  exported?: true;
}

export interface Outcome {
  /** The XCM error that stopped the program, and the instruction's index. */
  error?: { name: string; index: number; detail: string };
  weight: Weight;
  sent: Outgoing[];
  /** Assets deposited, by beneficiary account (for events). */
  deposited: { who: string; asset: Asset }[];
  trapped: Asset[];
  /** What execution and delivery cost, in the assets paid with. */
  paid: Asset[];
  /** Execution fees, deposited to the chain's fee account (the last deposits of a message, as a runtime's fee handler makes them). */
  collected: { who: string; asset: Asset }[];
  topic?: Hex;
}

export interface Execution {
  chain: SandboxChainName;
  ledger: Ledger;
  /** The origin as the chain sees it (an account, or another chain). */
  origin: Loc;
  /** A message from another chain must pay for its execution (the barrier); a local execute need not. */
  fromRemote: boolean;
  /** The topic sends carry when the program sets none. */
  topic?: Hex;
  /** pallet-xcm's local execution: delivery fees come from the origin's account (SetFeesMode jit_withdraw). */
  jitWithdraw?: boolean;
}

const CHAINS = Object.keys(PLACES) as SandboxChainName[];
export const universal = (chain: SandboxChainName): Junction[] => universalOf(PLACES[chain].network, PLACES[chain].paraId);

/** The sandbox chain a location (as `from` writes it) names, if any. */
export function chainAt(from: SandboxChainName, location: Loc): SandboxChainName | undefined {
  const path = absolute(universal(from), location);
  if (!path) return undefined;
  return CHAINS.find((c) => sameLocation({ parents: 0, junctions: universal(c) }, { parents: 0, junctions: path }));
}

const fail = (name: string, detail: string): ChainError => new ChainError('XcmError', name, detail);
/** The relay token of `network`, as an absolute path. */
const relayToken = (network: string): Junction[] => universalOf(network);

/** Whether `a` and `b` teleport `asset` (absolute) between them: the relay token, between a relay and its system chains. */
export function teleports(a: SandboxChainName, b: SandboxChainName, asset: Junction[]): boolean {
  const network = PLACES[a].network;
  if (PLACES[b].network !== network || !isSystem(a) || !isSystem(b)) return false;
  return sameLocation({ parents: 0, junctions: asset }, { parents: 0, junctions: relayToken(network) });
}

/** The chains that are `asset`'s reserve: its issuing chain (a relay token: the relay and, since the migration, its Asset Hub). */
export function reservesOf(asset: Junction[], seenFrom?: SandboxChainName): SandboxChainName[] {
  const [consensus, second] = asset;
  if (!consensus) return [];
  const network = Object.keys((consensus.value as Record<string, unknown>) ?? {})[0] ?? '';
  const match = (c: SandboxChainName) => PLACES[c].network.toLowerCase() === network.toLowerCase();
  // Another network's asset is held, in the network of the chain that sees it, by that network's
  // Asset Hub (the bridge's end, its ForeignAssets): the reserve its other chains trust.
  const bridgeEnd = seenFrom && !match(seenFrom) ? CHAINS.filter((c) => PLACES[c].network === PLACES[seenFrom].network && PLACES[c].paraId === 1000) : [];
  if (!second || second.type !== 'Parachain') return [...CHAINS.filter((c) => match(c) && (PLACES[c].paraId === undefined || PLACES[c].paraId === 1000)), ...bridgeEnd];
  return [...CHAINS.filter((c) => match(c) && PLACES[c].paraId === Number(second.value)), ...bridgeEnd];
}

/** Re-anchors `asset` from `from`'s view to `to`'s. */
export function reanchored(asset: Asset, from: SandboxChainName, to: SandboxChainName): Asset {
  const id = reanchor(asset.id, universal(from), universal(to));
  if (!id) throw fail('ReanchorFailed', `${JSON.stringify(locJson(asset.id))} from ${from}`);
  return { id, amount: asset.amount };
}

export function execute(x: Execution, program: Instruction[]): Outcome {
  const run = new Run(x, program);
  return run.go();
}

class Run {
  private readonly holding = new Holding();
  private readonly fees = new Holding();
  private origin: Loc | null;
  private readonly out: Outcome;
  private appendix: Instruction[] = [];
  private jit: boolean;
  /** Whether execution was bought already (BuyExecution or PayFees). */
  private bought = false;

  constructor(
    private readonly x: Execution,
    private readonly program: Instruction[],
  ) {
    this.origin = x.origin;
    this.jit = x.jitWithdraw === true;
    this.out = { weight: programWeight(program.length), sent: [], deposited: [], trapped: [], paid: [], collected: [], topic: x.topic };
    const last = program[program.length - 1];
    if (last?.[0] === 'SetTopic') this.out.topic = String(last[1]) as Hex;
  }

  go(): Outcome {
    if (this.x.fromRemote && !passesBarrier(this.program, this.out.weight, chainAt(this.x.chain, this.x.origin), this.x.chain)) {
      this.out.error = { name: 'Barrier', index: 0, detail: 'the message neither pays for its execution nor comes from a chain allowed unpaid execution' };
      return this.out;
    }
    let index = 0;
    try {
      for (; index < this.program.length; index++) this.step(this.program[index]!);
    } catch (error) {
      this.out.error = errorOf(error, index);
    }
    // The appendix runs whether or not the program failed (and may set another, run after it).
    try {
      for (let next = this.appendix; next.length; next = this.appendix) {
        this.appendix = [];
        for (const instruction of next) this.step(instruction);
      }
    } catch (error) {
      this.out.error ??= errorOf(error, index);
    }
    for (const a of this.fees.assets) this.holding.add(a);
    this.out.trapped = this.holding.assets.map((a) => ({ ...a }));
    return this.out;
  }

  private originAccount(): string {
    if (!this.origin) throw fail('BadOrigin', 'the origin was cleared');
    const account = accountOfLocation(this.origin, this.x.chain);
    if (!account) throw fail('BadOrigin', 'the origin has no account here');
    return account;
  }

  private chainAsset(asset: Asset) {
    const found = chainAssetOf(this.x.chain, asset.id);
    if (!found) throw fail('AssetNotFound', `${this.x.chain} holds no ${JSON.stringify(locJson(asset.id))}`);
    return found;
  }

  private step([name, p]: Instruction): void {
    switch (name) {
      case 'WithdrawAsset':
        for (const a of assetsIn(p)) {
          this.transact(() => this.x.ledger.debit(this.chainAsset(a), this.originAccount(), a.amount));
          this.holding.add(a);
        }
        return;
      case 'ReserveAssetDeposited':
        for (const a of assetsIn(p)) {
          this.chainAsset(a);
          // A chain that takes an asset from the origin as a teleport does not take it as a reserve deposit.
          if (!this.originIsReserveOf(a) || this.teleportedFromOrigin(a)) throw fail('UntrustedReserveLocation', `${this.originName()} is not a reserve of ${JSON.stringify(locJson(a.id))} here`);
          this.holding.add(a);
        }
        return;
      case 'ReceiveTeleportedAsset':
        for (const a of assetsIn(p)) {
          this.chainAsset(a);
          const from = this.origin && chainAt(this.x.chain, this.origin);
          const path = absolute(universal(this.x.chain), a.id);
          if (!from || !path || !teleports(from, this.x.chain, path)) throw fail('UntrustedTeleportLocation', `${this.x.chain} does not take teleports of this asset from ${this.originName()}`);
          this.holding.add(a);
        }
        return;
      case 'ClearOrigin':
        this.origin = null;
        return;
      case 'DescendOrigin':
        if (!this.origin) throw fail('BadOrigin', 'the origin was cleared');
        this.origin = { parents: this.origin.parents, junctions: [...this.origin.junctions, ...locationOf({ parents: 0, interior: p }).junctions] };
        return;
      case 'UniversalOrigin':
        // Only the other network's bridge dispatcher may speak for it (the asset hubs' UniversalAliases).
        if (!this.origin || !sameLocation(this.origin, locationOf(bridgeDispatcherJson))) throw fail('InvalidLocation', 'UniversalOrigin from an origin that is not a universal alias');
        this.origin = relative(universal(this.x.chain), [locationOf({ parents: 0, interior: { X1: [p] } }).junctions[0]!]);
        return;
      case 'AliasOrigin': {
        // polkadot-sdk's system chains let an origin alias only a location inside it (AliasChildLocation).
        if (!this.origin) throw fail('BadOrigin', 'the origin was cleared');
        const target = locationOf(p);
        const inside = target.parents === this.origin.parents && target.junctions.length > this.origin.junctions.length && this.origin.junctions.every((j, k) => sameLocation({ parents: 0, junctions: [j] }, { parents: 0, junctions: [target.junctions[k]!] }));
        if (!inside) throw fail('NoPermission', `${this.originName()} may not alias ${JSON.stringify(locJson(target))}`);
        this.origin = target;
        return;
      }
      case 'BuyExecution':
        // The barrier limits the first purchase to the message's weight; one left Unlimited after
        // it buys nothing (polkadot-sdk's executor returns early on an Unlimited weight limit).
        if (this.bought && isUnlimited(field(p, 'weight_limit'))) return;
        return this.buyExecution(assetsIn(field(p, 'fees'))[0]!, this.holding);
      case 'PayFees': {
        const asset = assetsIn(field(p, 'asset'))[0]!;
        const taken = { id: asset.id, amount: minOf(asset.amount, this.holding.amount(asset.id)) };
        this.holding.take(taken);
        this.fees.add(taken);
        return this.buyExecution(taken, this.fees);
      }
      case 'DepositAsset':
        return this.deposit(this.holding.takeFilter(filterOf(field(p, 'assets'))), locationOf(field(p, 'beneficiary')));
      case 'DepositReserveAsset':
        return this.sendOn('ReserveAssetDeposited', p, 'dest', this.holding.takeFilter.bind(this.holding));
      case 'InitiateReserveWithdraw':
        return this.sendOn('WithdrawAsset', p, 'reserve', this.holding.takeFilter.bind(this.holding));
      case 'InitiateTeleport':
        return this.sendOn('ReceiveTeleportedAsset', p, 'dest', this.holding.takeFilter.bind(this.holding));
      case 'TransferReserveAsset': {
        const assets = assetsIn(field(p, 'assets'));
        for (const a of assets) this.transact(() => this.x.ledger.debit(this.chainAsset(a), this.originAccount(), a.amount));
        return this.sendOn('ReserveAssetDeposited', p, 'dest', () => assets);
      }
      case 'TransferAsset': {
        const assets = assetsIn(field(p, 'assets'));
        for (const a of assets) this.transact(() => this.x.ledger.debit(this.chainAsset(a), this.originAccount(), a.amount));
        return this.deposit(assets, locationOf(field(p, 'beneficiary')));
      }
      case 'InitiateTransfer':
        return this.initiateTransfer(p);
      case 'ExportMessage':
        return this.exportMessage(p);
      case 'SetAppendix':
        this.appendix = programOf(p);
        return;
      case 'SetTopic':
        this.out.topic = String(p) as Hex;
        return;
      case 'SetFeesMode':
        this.jit = field(p, 'jit_withdraw') === true;
        return;
      case 'BurnAsset':
        for (const a of assetsIn(p)) this.holding.take({ id: a.id, amount: minOf(a.amount, this.holding.amount(a.id)) });
        return;
      case 'ExpectAsset':
        for (const a of assetsIn(p)) if (this.holding.amount(a.id) < a.amount) throw fail('ExpectationFalse', 'holding lacks an expected asset');
        return;
      case 'ExpectOrigin': {
        const expected = p === null || p === undefined ? null : locationOf(p);
        if (expected === null ? this.origin !== null : this.origin === null || !sameLocation(expected, this.origin)) throw fail('ExpectationFalse', `the origin is ${this.originName()}`);
        return;
      }
      case 'ExpectError': // the sandbox runs no error handler: no error is ever there to expect
        if (p !== null && p !== undefined) throw fail('ExpectationFalse', 'no error happened');
        return;
      case 'Trap':
        throw fail('Trap', `Trap(${String(p)})`);
      case 'ClearTopic':
        this.out.topic = undefined;
        return;
      case 'RefundSurplus':
        // What PayFees set aside and execution did not use goes back to the holding (the rest would be trapped).
        for (const a of this.fees.assets.map((f) => ({ ...f }))) if (this.fees.take(a)) this.holding.add(a);
        return;
      case 'ClearError':
      case 'SetErrorHandler':
      case 'UnpaidExecution':
      case 'SetHints':
      case 'ReportError':
      case 'ReportHolding':
        return; // errors are not reported back here
      default:
        throw fail('Unimplemented', `the sandbox does not execute ${name}`);
    }
  }

  private transact(change: () => void): void {
    try {
      change();
    } catch (error) {
      if (error instanceof ChainError && error.pallet === 'XcmError') throw error;
      throw fail('FailedToTransactAsset', error instanceof Error ? error.message : String(error));
    }
  }

  private originName(): string {
    return this.origin ? JSON.stringify(locJson(this.origin)) : 'a cleared origin';
  }

  private teleportedFromOrigin(asset: Asset): boolean {
    const [from, path] = [this.origin && chainAt(this.x.chain, this.origin), absolute(universal(this.x.chain), asset.id)];
    return Boolean(from && path && teleports(from, this.x.chain, path));
  }

  private originIsReserveOf(asset: Asset): boolean {
    const from = this.origin && chainAt(this.x.chain, this.origin);
    const path = absolute(universal(this.x.chain), asset.id);
    return from !== undefined && from !== null && path !== null && reservesOf(path, this.x.chain).includes(from);
  }

  /** Takes the weight's price in `asset` from `register` (holding, or the fees register). */
  private buyExecution(asset: Asset, register: Holding): void {
    const cost = weightFee(this.x.chain, this.out.weight, this.chainAsset(asset));
    const available = minOf(asset.amount, register.amount(asset.id));
    if (register.amount(asset.id) === 0n) throw fail('NotHoldingFees', 'the fee asset is not in holding');
    if (available < cost) throw fail('TooExpensive', `execution costs ${cost}, ${available} offered`);
    register.take({ id: asset.id, amount: cost });
    this.bought = true;
    this.out.paid.push({ id: asset.id, amount: cost });
    const collector = feeAccount(this.x.chain);
    this.x.ledger.credit(this.chainAsset(asset), collector, cost);
    this.out.collected.push({ who: collector, asset: { id: asset.id, amount: cost } });
  }

  private deposit(assets: Asset[], beneficiary: Loc): void {
    const who = accountOfLocation(beneficiary, this.x.chain);
    for (const [i, a] of assets.entries()) {
      try {
        if (!who) throw fail('FailedToTransactAsset', `no account for ${JSON.stringify(locJson(beneficiary))}`);
        this.x.ledger.credit(this.chainAsset(a), who, a.amount);
        this.out.deposited.push({ who, asset: a });
      } catch (error) {
        for (const rest of assets.slice(i)) this.holding.add(rest);
        throw error;
      }
    }
  }

  /** DepositReserveAsset, InitiateReserveWithdraw, InitiateTeleport, TransferReserveAsset: the assets go on to another chain. */
  private sendOn(first: string, p: unknown, destField: string, take: (filter: ReturnType<typeof filterOf>) => Asset[]): void {
    const dest = locationOf(field(p, destField));
    const to = chainAt(this.x.chain, dest);
    if (!to || to === this.x.chain) throw fail('Unroutable', `${this.x.chain} has no route to ${JSON.stringify(locJson(dest))}`);
    // TransferReserveAsset names its assets (taken from the origin's account), the others filter holding.
    const list = field(p, 'assets');
    const taken = take(Array.isArray(list) ? { definite: [] } : filterOf(list));
    const nested = programOf(field(p, 'xcm') ?? []).map(([n, v]) => ({ [n]: v }));
    // The message sent: the assets, ClearOrigin, the nested program and the SetTopic send() appends.
    const assets = this.afterDeliveryFee(taken, nested.length + 3, to);
    if (first === 'ReserveAssetDeposited') for (const a of assets) this.creditSovereign(a, dest);
    this.send(to, [{ [first]: assets.map((a) => assetJson(reanchored(a, this.x.chain, to))) }, 'ClearOrigin', ...nested]);
  }

  private initiateTransfer(p: unknown): void {
    const dest = locationOf(field(p, 'destination'));
    const to = chainAt(this.x.chain, dest);
    if (!to || to === this.x.chain) throw fail('Unroutable', `${this.x.chain} has no route to ${JSON.stringify(locJson(dest))}`);
    const message: unknown[] = [];
    const move = (kind: unknown, register: Holding): Asset[] => {
      const [type, filter] = (Object.entries(kind as Record<string, unknown>)[0] ?? []) as [string, unknown];
      const assets = register.takeFilter(filterOf(filter));
      const instruction = /teleport/i.test(type) ? 'ReceiveTeleportedAsset' : /reservedeposit/i.test(type) ? 'ReserveAssetDeposited' : 'WithdrawAsset';
      if (instruction === 'ReserveAssetDeposited') for (const a of assets) this.creditSovereign(a, dest);
      const moved = assets.map((a) => reanchored(a, this.x.chain, to));
      message.push({ [instruction]: moved.map(assetJson) });
      return moved;
    };
    const remoteFees = field(p, 'remote_fees');
    if (remoteFees) {
      // The remote fees come out of the holding (the fees register pays this chain's execution and delivery).
      const fees = move(remoteFees, this.holding);
      if (fees[0]) message.push({ PayFees: { asset: assetJson(fees[0]) } });
    }
    for (const kind of (field(p, 'assets') as unknown[]) ?? []) move(kind, this.holding);
    message.push(field(p, 'preserve_origin') === true && this.origin ? { AliasOrigin: locJson(reanchor(this.origin, universal(this.x.chain), universal(to))!) } : 'ClearOrigin');
    message.push(...programOf(field(p, 'remote_xcm') ?? []).map(([n, v]) => ({ [n]: v })));
    this.chargeDelivery(message.length + 1, to); // with the SetTopic send() appends
    this.send(to, message);
  }

  /**
   * A bridge hub's exporter: `xcm`, with the exporter's UniversalOrigin and DescendOrigin, goes to
   * the other network's chain. Its fee is waived for the system chains that send it (the bridge
   * hubs' WaivedLocations); any other chain has no exporter (Unroutable).
   */
  private exportMessage(p: unknown): void {
    const network = locationOf({ parents: 0, interior: { X1: [{ GlobalConsensus: field(p, 'network') }] } }).junctions;
    const target = [...network, ...locationOf({ parents: 0, interior: field(p, 'destination') }).junctions];
    const to = CHAINS.find((c) => sameLocation({ parents: 0, junctions: universal(c) }, { parents: 0, junctions: target }));
    const source = this.origin && absolute(universal(this.x.chain), this.origin);
    if (PLACES[this.x.chain].paraId !== BRIDGE_HUB.paraId || !to || !crossesBridge(this.x.chain, to)) throw fail('Unroutable', `${this.x.chain} exports nothing to ${JSON.stringify(target)}`);
    if (!source) throw fail('BadOrigin', 'the origin was cleared');
    const xcm = programOf(field(p, 'xcm')).map(([n, v]) => ({ [n]: v }));
    const last = xcm.at(-1) as { SetTopic?: Hex } | undefined;
    const topic = last?.SetTopic ?? this.out.topic ?? this.x.topic;
    if (!topic) throw fail('Transport', 'the sandbox names every message by its topic');
    this.out.sent.push({ from: this.x.chain, to, message: exported(source, xcm), topic, exported: true });
  }

  private creditSovereign(asset: Asset, dest: Loc): void {
    const sovereign = accountOfLocation(dest, this.x.chain);
    if (sovereign) this.transact(() => this.x.ledger.credit(this.chainAsset(asset), sovereign, asset.amount));
  }

  /** Delivery is paid from the origin's account (jit), the fees register, or the assets sent (in the first the chain takes). */
  private afterDeliveryFee(assets: Asset[], instructions: number, to: SandboxChainName): Asset[] {
    if (this.jit || !this.fees.empty) {
      this.chargeDelivery(instructions, to);
      return assets;
    }
    const native = nativeOf(this.x.chain);
    const fee = deliveryFeeTo(this.x.chain, to, instructions);
    const payer = assets.find((a) => chainAssetOf(this.x.chain, a.id)?.perSecond !== undefined);
    if (!payer) throw fail('NotHoldingFees', `no asset to pay delivery to ${to} with`);
    const inPayer = (fee * chainAssetOf(this.x.chain, payer.id)!.perSecond! + native.perSecond! - 1n) / native.perSecond!;
    if (payer.amount <= inPayer) throw fail('NotHoldingFees', `delivery to ${to} costs ${inPayer}, ${payer.amount} held`);
    this.out.paid.push({ id: payer.id, amount: inPayer });
    return assets.map((a) => (a === payer ? { id: a.id, amount: a.amount - inPayer } : a));
  }

  private chargeDelivery(instructions: number, to: SandboxChainName): void {
    const native = nativeOf(this.x.chain);
    const fee = deliveryFeeTo(this.x.chain, to, instructions);
    if (this.jit) {
      this.transact(() => this.x.ledger.debit(native, this.originAccount(), fee));
    } else if (!this.fees.take({ id: native.location, amount: fee }) && !this.holding.take({ id: native.location, amount: fee })) {
      throw fail('NotHoldingFees', `delivery to ${to} costs ${fee} of ${native.symbol}`);
    }
    this.out.paid.push({ id: native.location, amount: fee });
  }

  private send(to: SandboxChainName, message: unknown[]): void {
    if (depthOf(message) > MAX_XCM_DECODE_DEPTH) throw fail('ExceedsMaxMessageSize', `the message nests programs deeper than ${MAX_XCM_DECODE_DEPTH}`);
    const topic = this.out.topic;
    if (!topic) throw fail('Transport', 'the sandbox names every message by its topic');
    this.out.sent.push({ from: this.x.chain, to, message: [...message, { SetTopic: topic }], topic });
  }
}

const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** Where a chain's execution fees go (its treasury, as far as the sandbox is concerned). */
const feeAccount = (chain: SandboxChainName): string => (chain === 'Moonbeam' ? `0x${'fe'.repeat(20)}` : `0x${'fe'.repeat(32)}`);

function errorOf(error: unknown, index: number): { name: string; index: number; detail: string } {
  if (error instanceof ChainError) return { name: error.pallet === 'XcmError' ? error.error : 'FailedToTransactAsset', index, detail: error.message };
  return { name: 'FailedToDecode', index, detail: error instanceof Error ? error.message : String(error) };
}
