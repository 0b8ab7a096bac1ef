// Follows a decoded call hop by hop: each chain its message reaches, the instructions that chain
// executes, and what is wrong there. Every location is read as the chain executing it reads it
// (absolute paths from src/xcm/location.ts). Calls whose program the XCM pallet or xTokens writes
// (teleports, reserve transfers, type-and-then) are walked as the program the pallet sends
// (pallet-programs.ts); `execute`, `send` and custom programs are walked as written
// (program-walk.ts), each instruction checked by the hop's rules (hop-rules.ts). The XCM values it
// reads (assets as holdings, locations) are read by xcm-values.ts; what a walk answers is in
// walk-types.ts.
import type { TChain } from '@paraspell/sdk-pjs';
import type { Call } from '@polkadot/types/interfaces';
import { sdk } from '../../sdk';
import { absolute, parseLocation, toSdkJson, variantOf, type Loc } from '../../xcm/location';
import { assetName, isRelay, placeOf, reservesOf, teleportTrusted, universalOfChain } from './registry-facts';
import { feesApartProgram, palletProgram, wayText, type Then, type TransferType } from './pallet-programs';
import { CANNOT_CHECK_OUT, FILTERED, WalkStopped } from './hop-rules';
import { RELAYS_KEEPING_THEIR_RESERVE } from './runtime-facts';
import { ProgramWalker } from './program-walk';
import type { CallView, Hop, RouteWalk, SentAsset, XTokensTransfer } from './walk-types';
import { accountLoc, amountOf, assetPath, isObject, LOCAL_TARGET, locText, readAssets, samePath, unversioned, type Held, type Json } from './xcm-values';

export type { CallView, RouteHop, RouteProblem, RouteWalk, SentAsset, XTokensTransfer } from './walk-types';

/** A call's section, method and arguments as the walk reads them. */
export function viewOf(call: Call): CallView {
  return { section: call.section, method: call.method, args: Object.fromEntries(call.argsEntries.map(([name, value]) => [name, value.toJSON()])) };
}

/** Walks calls into hops. One instance per walk. */
class Walker extends ProgramWalker {
  call(origin: TChain, call: Call): void {
    const id = `${call.section}.${call.method}`;
    if (call.section === 'utility' && ['batch', 'batchAll', 'forceBatch'].includes(call.method)) {
      for (const inner of call.args[0] as unknown as Call[]) this.call(origin, inner);
    } else if (id === 'proxy.proxy' || id === 'proxy.proxyAnnounced' || id === 'utility.asDerivative') {
      this.call(origin, call.args[id === 'proxy.proxy' ? 2 : id === 'utility.asDerivative' ? 1 : 3] as unknown as Call);
    } else {
      this.view(origin, viewOf(call));
    }
  }

  /** A call that is no batch or proxy, by its arguments. */
  view(origin: TChain, { section, method, args }: CallView): void {
    const id = `${section}.${method}`;
    if (section === 'polkadotXcm' || section === 'xcmPallet') {
      this.xcmPallet(origin, method, args);
    } else if (section === 'xTokens') {
      this.xTokens(origin, method, args);
    } else if (LOCAL_TARGET[id]) {
      const hop = this.open(origin, []);
      hop.view.instructions.push(id);
      this.arrivals.push({ chain: origin, beneficiary: accountLoc(args[LOCAL_TARGET[id]!]), hop: this.hops.length - 1 });
    } else {
      const hop = this.open(origin, []);
      hop.view.instructions.push(id);
      this.warning(hop, id, `${id} is not a call the route check reads: where it sends value cannot be told`);
    }
  }

  /** An xTokens transfer given by its parts (an EVM precompile's call), each asset as the origin reads it. */
  xTokensTransfer(origin: TChain, assets: SentAsset[], feeItem: number, destination: Loc): void {
    const start = this.open(origin, []);
    if (destination.junctions.length === 0) return this.problem(start, 'destination', `${locText(destination)} is not a location ending with an account`);
    const held: Held[] = [];
    for (const [i, asset] of assets.entries()) {
      const path = absolute(universalOfChain(origin), asset.location);
      if (!path) return this.problem(start, `assets.${i}`, `${locText(asset.location)} climbs above the top of the universe when ${origin} reads it`);
      held.push({ path, amount: asset.amount, reduced: false });
    }
    this.xTokensTo(start, destination, held, feeItem, true);
  }

  /** A call of the XCM pallet given by its method and arguments (as polkadot.js's toJSON spells them). */
  palletCall(origin: TChain, method: string, args: Record<string, unknown>): void {
    this.xcmPallet(origin, method, args);
  }

  private xcmPallet(origin: TChain, method: string, a: Json): void {
    const start = this.open(origin, []);
    if (method === 'execute') {
      this.program(start, unversioned(a.message), '');
      this.settle(start);
      return;
    }
    if (method === 'send') {
      start.view.instructions.push('send');
      this.send(start, unversioned(a.dest), 'send.dest', [], null, unversioned(a.message));
      return;
    }
    const dest = parseLocation(unversioned(a.dest));
    const assets = readAssets(origin, a.assets);
    if (dest === null) return this.problem(start, `${method}.dest`, `dest ${JSON.stringify(a.dest)} is not a location`);
    const destPath = absolute(universalOfChain(origin), dest);
    const target = destPath ? placeOf(destPath) : null;
    let beneficiaryOrProgram: { beneficiary: unknown } | { program: unknown };
    let fee: Held | undefined;
    let type: TransferType | null;
    if (method === 'transferAssetsUsingTypeAndThen') {
      const feePath = assetPath(origin, unversioned(a.remote_fees_id));
      fee = assets.find((x) => feePath !== null && samePath(x.path, feePath));
      if (!fee) this.problem(start, `${method}.remote_fees_id`, 'remote_fees_id names none of the assets sent');
      beneficiaryOrProgram = { program: unversioned(a.custom_xcm_on_dest) };
      type = this.declaredType(start, origin, a.assets_transfer_type);
      if (type?.kind === 'DestinationReserve') this.destinationIsReserve(start, method, target?.chain ?? null, assets);
    } else {
      fee = assets[Number(a.fee_asset_item ?? 0)];
      if (!fee) this.problem(start, `${method}.fee_asset_item`, `fee_asset_item ${String(a.fee_asset_item)} names none of the assets sent`);
      beneficiaryOrProgram = { beneficiary: unversioned(a.beneficiary) };
      const destChain = target?.chain && target.rest.length === 0 ? target.chain : null;
      type = /teleport/i.test(method) ? { kind: 'Teleport' } : this.impliedType(start, origin, destChain, assets, method === 'transferAssets');
    }
    if (type === null) return;
    this.palletRefusals(start, method, target?.chain && target.rest.length === 0 ? target.chain : null, assets, type);
    this.palletTransfer(start, dest, assets, fee ?? assets[0], type, beneficiaryOrProgram, a.weight_limit);
  }

  /** What pallet-xcm itself refuses before it sends: a reserve transfer of what the chains teleport, a teleport the relay cannot check out. */
  private palletRefusals(start: Hop, method: string, dest: TChain | null, assets: Held[], type: TransferType): void {
    if (/^(limitedR|r)eserveTransferAssets$/.test(method) && dest && teleportTrusted(start.chain, dest) && assets.some((x) => this.teleportable(start.chain, x.path))) {
      this.problem(start, `${method}.assets`, `${start.chain} and ${dest} teleport ${assetName(start.chain, assets[0]!.path)}: pallet-xcm refuses to reserve-transfer it (${FILTERED})`);
    }
    // A relay chain tracks what it teleports out in its check account, which must stay above the existential deposit.
    const ed = type.kind === 'Teleport' && isRelay(start.chain) ? amountOf(sdk.getExistentialDeposit(start.chain)) : null;
    const relayToken = universalOfChain(start.chain);
    const small = assets.find((x) => ed !== null && x.amount !== null && samePath(x.path, relayToken) && x.amount < ed);
    if (small) this.problem(start, `${method}.assets`, `teleports ${small.amount} of ${assetName(start.chain, small.path)}, below ${start.chain}'s existential deposit (${ed}): its check account cannot take it (${CANNOT_CHECK_OUT})`);
  }

  /** DestinationReserve says the destination is the assets' reserve: pallet-xcm refuses it where the origin trusts no other reserve, or the registry names another. */
  private destinationIsReserve(start: Hop, method: string, dest: TChain | null, assets: Held[]): void {
    for (const held of assets) {
      const reserves = dest ? this.reserves(start, held.path, `${method}.assets`) : null;
      if (!reserves) continue;
      const why = RELAYS_KEEPING_THEIR_RESERVE.has(start.chain) ? `${start.chain} trusts no other chain as its reserve` : !reserves.includes(dest!) ? `the registry names ${reserves.join(' or ')}` : null;
      if (why) this.problem(start, `${method}.assets_transfer_type`, `DestinationReserve says ${dest} is the reserve of ${assetName(start.chain, held.path)}, but ${why}: pallet-xcm refuses it (InvalidAssetUnsupportedReserve)`);
    }
  }

  /** The transfer type a type-and-then call names. */
  private declaredType(hop: Hop, origin: TChain, value: unknown): TransferType | null {
    const found = variantOf(value);
    const kind = found?.[0];
    if (kind === 'Teleport' || kind === 'LocalReserve' || kind === 'DestinationReserve') return { kind } as TransferType;
    if (kind === 'RemoteReserve') {
      const loc = parseLocation(unversioned(found![1]));
      const path = loc ? absolute(universalOfChain(origin), loc) : null;
      const place = path ? placeOf(path) : null;
      if (place?.chain && place.rest.length === 0) return { kind, reserve: place.chain };
      this.problem(hop, 'assets_transfer_type.RemoteReserve', `the remote reserve ${JSON.stringify(found![1])} read on ${origin} is not a chain${place && !place.chain ? `: ${place.why}` : ''}`);
      return null;
    }
    this.problem(hop, 'assets_transfer_type', `${JSON.stringify(value)} is not a transfer type`);
    return null;
  }

  /** How the pallet moves assets when the call does not say (transferAssets, reserve transfers, xTokens). */
  private impliedType(hop: Hop, origin: TChain, dest: TChain | null, assets: Held[], mayTeleport: boolean): TransferType {
    const first = assets[0];
    if (!first) return { kind: 'DestinationReserve' };
    if (mayTeleport && dest !== null && teleportTrusted(origin, dest) && this.teleportable(origin, first.path)) return { kind: 'Teleport' };
    const reserves = reservesOf(origin, first.path);
    if (reserves === null) {
      this.warning(hop, 'assets', `the registry cannot tell the reserve of ${assetName(origin, first.path)}: its route is not checked`);
      return { kind: 'DestinationReserve' };
    }
    if (reserves.includes(origin)) return { kind: 'LocalReserve' };
    if (dest === null || reserves.includes(dest)) return { kind: 'DestinationReserve' };
    return { kind: 'RemoteReserve', reserve: reserves[0]! };
  }
  /** Walks the program pallet-xcm (or xTokens) sends for a transfer (pallet-programs.ts) from the origin. */
  private palletTransfer(start: Hop, dest: Loc, assets: Held[], fee: Held | undefined, type: TransferType, then: Then, weightLimit?: unknown): void {
    this.program(start, palletProgram(start.chain, dest, assets, fee, type, then, weightLimit), '');
  }

  private xTokens(origin: TChain, method: string, a: Json): void {
    const start = this.open(origin, []);
    const destLoc = parseLocation(unversioned(a.dest));
    if (destLoc === null || destLoc.junctions.length === 0) return this.problem(start, `${method}.dest`, `dest ${JSON.stringify(a.dest)} is not a location ending with an account`);
    let assets: Held[];
    let feeIndex = Number(a.fee_item ?? 0);
    if (method === 'transfer' || method === 'transferWithFee') {
      assets = [this.currency(start, a.currency_id, a.amount)].filter((x): x is Held => x !== null);
    } else if (method === 'transferMulticurrencies') {
      const list = Array.isArray(a.currencies) ? a.currencies : [];
      assets = list.map((pair) => (Array.isArray(pair) ? this.currency(start, pair[0], pair[1]) : null)).filter((x): x is Held => x !== null);
    } else if (method === 'transferMultiasset' || method === 'transferMultiassetWithFee') {
      assets = readAssets(origin, [unversioned(a.asset)]);
      feeIndex = 0;
    } else {
      assets = readAssets(origin, a.assets);
    }
    this.xTokensTo(start, destLoc, assets, feeIndex);
  }

  /**
   * What xTokens sends for `assets` to `destLoc` (a chain location ending with the beneficiary, read
   * on the origin). `palletXcm`: dispatched as pallet-xcm's transfer_assets (Moonbeam's precompile),
   * which sends a fee asset that moves another way than the assets apart.
   */
  private xTokensTo(start: Hop, destLoc: Loc, assets: Held[], feeIndex: number, palletXcm = false): void {
    const origin = start.chain;
    const chainLoc: Loc = { parents: destLoc.parents, junctions: destLoc.junctions.slice(0, -1) };
    const then = { beneficiary: toSdkJson({ parents: 0, junctions: destLoc.junctions.slice(-1) }) };
    if (assets.length === 0) return;
    const destPath = absolute(universalOfChain(origin), chainLoc);
    const place = destPath ? placeOf(destPath) : null;
    const destChain = place?.chain && place.rest.length === 0 ? place.chain : null;
    const type = this.impliedType(start, origin, destChain, assets, false);
    const fee = assets[feeIndex] ?? assets[0]!;
    const feeType = palletXcm && fee !== assets[0] ? this.feeWay(start, destChain, fee, type) : type;
    if (feeType === type) return this.palletTransfer(start, chainLoc, assets, fee, type, then);
    if (type.kind === 'RemoteReserve' || feeType.kind === 'RemoteReserve') {
      const message = `the fee asset ${assetName(origin, fee.path)} moves ${wayText(feeType)}, the assets ${wayText(type)}: pallet-xcm sends fees apart only where neither goes through a remote reserve (InvalidAssetUnsupportedReserve)`;
      return this.problem(start, 'feeItem', message);
    }
    this.program(start, feesApartProgram(origin, chainLoc, assets, fee, type, feeType, then), '');
  }

  /** How pallet-xcm moves the fee asset: the assets' way where it can (their remote reserve holds it too), else its own. */
  private feeWay(start: Hop, dest: TChain | null, fee: Held, assetsWay: TransferType): TransferType {
    const own = this.impliedType(start, start.chain, dest, [fee], false);
    if (own.kind !== 'RemoteReserve' && own.kind === assetsWay.kind) return assetsWay;
    if (assetsWay.kind === 'RemoteReserve' && reservesOf(start.chain, fee.path)?.includes(assetsWay.reserve)) return assetsWay;
    return own;
  }

  /** An xTokens currency id as the registry's asset; a warning when it lists none. */
  private currency(hop: Hop, id: unknown, amount: unknown): Held | null {
    const plainId = isObject(id) ? String(variantOf(id)?.[1]) : String(id);
    let location: unknown;
    try {
      location = sdk.findAssetInfo(hop.chain, { id: plainId }, null)?.location;
    } catch {
      location = undefined;
    }
    const loc = location ? parseLocation(location) : null;
    const path = loc ? absolute(universalOfChain(hop.chain), loc) : null;
    if (!path) {
      this.warning(hop, 'currency_id', `the registry lists no asset with id ${plainId} on ${hop.chain}: its route is not checked`);
      return null;
    }
    return { path, amount: amountOf(amount), reduced: false };
  }
}

/** Runs one walk; call data the walker cannot follow is not passed as if it could be. */
function walk(origin: TChain, at: string, step: (walker: Walker) => void): RouteWalk {
  const walker = new Walker();
  try {
    step(walker);
    walker.finish();
  } catch (error) {
    if (error instanceof WalkStopped) {
      walker.finish(error);
      return { hops: walker.hops, arrivals: walker.arrivals };
    }
    walker.finish();
    const reason = error instanceof Error ? error.message : String(error);
    walker.hops.push({ chain: origin, instructions: [], ok: false, problems: [{ at, message: `the route could not be followed: ${reason}` }], warnings: [] });
  }
  return { hops: walker.hops, arrivals: walker.arrivals };
}

/** Follows `call`, executed on `origin`, through every chain its message reaches. */
export function walkCall(origin: TChain, call: Call): RouteWalk {
  return walk(origin, `${call.section}.${call.method}`, (w) => w.call(origin, call));
}

/** Follows a call given by its arguments (`viewOf`), executed on `origin`: what a decode of its bytes would walk. */
export function walkView(origin: TChain, view: CallView): RouteWalk {
  return walk(origin, `${view.section}.${view.method}`, (w) => w.view(origin, view));
}

/** Follows an xTokens transfer of `transfer.assets` from `origin` to `transfer.destination`. */
export function walkXTokensTransfer(origin: TChain, transfer: XTokensTransfer): RouteWalk {
  return walk(origin, 'xTokens', (w) => w.xTokensTransfer(origin, transfer.assets, transfer.feeItem, transfer.destination));
}

/** Follows an XCM pallet call given by its arguments (what Moonbeam's XCM-interface precompile dispatches). */
export function walkPalletCall(origin: TChain, method: string, args: Record<string, unknown>): RouteWalk {
  return walk(origin, `polkadotXcm.${method}`, (w) => w.palletCall(origin, method, args));
}
