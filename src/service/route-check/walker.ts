// Follows a decoded call hop by hop: each chain its message reaches, the instructions that chain
// executes, and what is wrong there. Every location is read as the chain executing it reads it
// (absolute paths from src/xcm/location.ts). Calls whose program the XCM pallet or xTokens writes
// (teleports, reserve transfers, type-and-then) are walked as the program the pallet sends
// (pallet-programs.ts); `execute`, `send` and custom programs are walked as written. The XCM
// values it reads (assets as holdings, locations) are read by xcm-values.ts.
import type { TChain } from '@paraspell/sdk-pjs';
import type { Call } from '@polkadot/types/interfaces';
import { sdk } from '../../sdk';
import { absolute, parseLocation, toSdkJson, variantOf, type Junction, type Loc } from '../../xcm/location';
import {
  assetName,
  assetOn,
  bridges,
  ecosystemOf,
  hubOf,
  isEvm,
  isRelay,
  networkOf,
  placeOf,
  registryView,
  reservesOf,
  teleportTrusted,
  universalOfChain,
} from './registry-facts';
import { feesApartProgram, palletProgram, wayText, type Then, type TransferType } from './pallet-programs';
import { accountLoc, amountOf, assetPath, isObject, junctionText, LOCAL_TARGET, locText, readAssets, samePath, unversioned, type Held, type Json } from './xcm-values';

export interface RouteProblem {
  /** Where in the hop: the instruction and its field (`DepositReserveAsset.dest`), or the call's argument. */
  at: string;
  message: string;
}

/** One chain the message reaches, in the order it travels. */
export interface RouteHop {
  /** Registry name of the chain executing this part, or `unknown`. */
  chain: string;
  /** The instructions it executes, in order (for pallet transfers, those the pallet writes). */
  instructions: string[];
  /** False when a problem was found here: the message does not do what it should at this hop. */
  ok: boolean;
  problems: RouteProblem[];
  /** What the registry cannot tell (an unlisted or custom asset): not a refusal. */
  warnings: RouteProblem[];
}

/** Where value ends up: a DepositAsset (or a local transfer's target) outside any appendix. */
export interface Arrival {
  chain: TChain;
  beneficiary: Loc | null;
  hop: number;
}

export interface RouteWalk {
  hops: RouteHop[];
  arrivals: Arrival[];
}

interface Hop {
  chain: TChain;
  view: RouteHop;
  holding: Held[];
  /** A message that arrived from another chain, whose first BuyExecution the barrier makes pay. */
  paid: 'first' | 'done' | 'local';
}

/** Walks calls into hops. One instance per walk. */
class Walker {
  readonly hops: RouteHop[] = [];
  readonly arrivals: Arrival[] = [];

  private open(chain: TChain, holding: Held[], arrived = false): Hop {
    const view: RouteHop = { chain, instructions: [], ok: true, problems: [], warnings: [] };
    this.hops.push(view);
    return { chain, view, holding, paid: arrived ? 'first' : 'local' };
  }

  private problem(hop: Hop, at: string, message: string): void {
    hop.view.ok = false;
    hop.view.problems.push({ at, message });
  }

  private warning(hop: Hop, at: string, message: string): void {
    if (!hop.view.warnings.some((w) => w.at === at && w.message === message)) hop.view.warnings.push({ at, message });
  }

  // ---- calls ----------------------------------------------------------------------------

  call(origin: TChain, call: Call): void {
    const id = `${call.section}.${call.method}`;
    const args = Object.fromEntries(call.argsEntries.map(([name, value]) => [name, value.toJSON()])) as Json;
    if (call.section === 'utility' && ['batch', 'batchAll', 'forceBatch'].includes(call.method)) {
      for (const inner of call.args[0] as unknown as Call[]) this.call(origin, inner);
    } else if (id === 'proxy.proxy' || id === 'proxy.proxyAnnounced' || id === 'utility.asDerivative') {
      this.call(origin, call.args[id === 'proxy.proxy' ? 2 : id === 'utility.asDerivative' ? 1 : 3] as unknown as Call);
    } else if (call.section === 'polkadotXcm' || call.section === 'xcmPallet') {
      this.xcmPallet(origin, call.method, args);
    } else if (call.section === 'xTokens') {
      this.xTokens(origin, call.method, args);
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
    } else {
      fee = assets[Number(a.fee_asset_item ?? 0)];
      if (!fee) this.problem(start, `${method}.fee_asset_item`, `fee_asset_item ${String(a.fee_asset_item)} names none of the assets sent`);
      beneficiaryOrProgram = { beneficiary: unversioned(a.beneficiary) };
      const destChain = target?.chain && target.rest.length === 0 ? target.chain : null;
      type = /teleport/i.test(method) ? { kind: 'Teleport' } : this.impliedType(start, origin, destChain, assets, method === 'transferAssets');
    }
    if (type === null) return;
    this.palletTransfer(start, dest, assets, fee ?? assets[0], type, beneficiaryOrProgram);
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

  private teleportable(chain: TChain, path: Junction[]): boolean {
    const reserves = reservesOf(chain, path);
    return reserves !== null && reserves.some((r) => teleportTrusted(r, chain) || r === chain);
  }

  /** Walks the program pallet-xcm (or xTokens) sends for a transfer (pallet-programs.ts) from the origin. */
  private palletTransfer(start: Hop, dest: Loc, assets: Held[], fee: Held | undefined, type: TransferType, then: Then): void {
    this.program(start, palletProgram(start.chain, dest, assets, fee, type, then), '');
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

  // ---- programs ---------------------------------------------------------------------------

  /** Runs `program` on the hop's chain; `prefix` names the instruction holding it (SetAppendix). */
  private program(hop: Hop, program: unknown, prefix: string): void {
    if (!Array.isArray(program)) return;
    for (const instruction of program) {
      const found = variantOf(instruction);
      if (!found) continue;
      const [name, value] = found;
      const o = isObject(value) ? value : {};
      const at = (field: string) => `${prefix}${name}${field ? `.${field}` : ''}`;
      if (!prefix) hop.view.instructions.push(name);
      switch (name) {
        case 'WithdrawAsset':
        case 'ReserveAssetDeposited':
        case 'ReceiveTeleportedAsset':
        case 'ClaimAsset': {
          const assets = readAssets(hop.chain, name === 'ClaimAsset' ? o.assets : value);
          for (const held of assets) this.known(hop, held.path, at('assets'));
          hop.holding.push(...assets);
          break;
        }
        case 'BuyExecution':
        case 'PayFees': {
          // The executor skips a BuyExecution without a weight limit, except the first of a message
          // that arrived (the barrier sets its limit): only those, PayFees and limited ones pay.
          const limited = variantOf(o.weightLimit)?.[0] === 'Limited';
          const pays = name === 'PayFees' || limited || (hop.paid === 'first' && !prefix);
          if (name === 'BuyExecution' && hop.paid === 'first') hop.paid = 'done';
          if (pays) this.fees(hop, readAssets(hop.chain, [name === 'PayFees' ? o.asset : o.fees])[0], at(name === 'PayFees' ? 'asset' : 'fees'));
          break;
        }
        case 'DepositAsset':
          this.take(hop, o.assets);
          this.deposit(hop, o.beneficiary, at('beneficiary'), prefix !== '');
          break;
        case 'DepositReserveAsset': {
          const moved = this.take(hop, o.assets);
          this.mustBeReserve(hop, moved, at('assets'));
          this.send(hop, o.dest, at('dest'), moved, 'ReserveAssetDeposited', o.xcm);
          break;
        }
        case 'TransferReserveAsset': {
          const moved = readAssets(hop.chain, o.assets);
          for (const held of moved) this.known(hop, held.path, at('assets'));
          this.mustBeReserve(hop, moved, at('assets'));
          this.send(hop, o.dest, at('dest'), moved, 'ReserveAssetDeposited', o.xcm);
          break;
        }
        case 'InitiateReserveWithdraw': {
          const moved = this.take(hop, o.assets);
          this.send(hop, o.reserve, at('reserve'), moved, 'WithdrawAsset', o.xcm, (t) => this.mustBeReserveOf(hop, t, moved, at('reserve')));
          break;
        }
        case 'InitiateTeleport': {
          const moved = this.take(hop, o.assets);
          this.send(hop, o.dest, at('dest'), moved, 'ReceiveTeleportedAsset', o.xcm, (t) => this.mayTeleport(hop, t, moved, at('dest')));
          break;
        }
        case 'InitiateTransfer':
          this.initiateTransfer(hop, o, at);
          break;
        case 'ExportMessage': {
          const network = o.network;
          const destination = parseLocation(isObject(o.destination) ? { parents: 0, interior: o.destination } : o.destination);
          const path = destination ? [{ type: 'GlobalConsensus', value: network } as Junction, ...destination.junctions] : null;
          if (!/^BridgeHub/.test(hop.chain)) this.problem(hop, at(''), `${hop.chain} is no bridge hub: it cannot export a message to another consensus`);
          if (path) this.arrive(hop, path, at('destination'), [], null, o.xcm);
          break;
        }
        case 'SetAppendix':
        case 'SetErrorHandler':
          this.program(hop, value, `${name}.`);
          break;
        default:
          break;
      }
    }
  }

  /** XCM v5's InitiateTransfer: each asset filter says how it moves; the remote program runs on the destination. */
  private initiateTransfer(hop: Hop, o: Json, at: (field: string) => string): void {
    const filters = [...(o.remoteFees ? [o.remoteFees] : []), ...(Array.isArray(o.assets) ? o.assets : [])];
    const moved: Held[] = [];
    const arriving: string[] = [];
    const checks: Array<(target: TChain) => void> = [];
    for (const filter of filters) {
      const found = variantOf(filter);
      if (!found) continue;
      const [how, inner] = found;
      const part = this.take(hop, inner);
      moved.push(...part);
      if (how === 'Teleport') {
        arriving.push('ReceiveTeleportedAsset');
        checks.push((t) => this.mayTeleport(hop, t, part, at('destination')));
      } else if (how === 'ReserveDeposit') {
        arriving.push('ReserveAssetDeposited');
        this.mustBeReserve(hop, part, at('assets'));
      } else {
        arriving.push('WithdrawAsset');
        checks.push((t) => this.mustBeReserveOf(hop, t, part, at('destination')));
      }
    }
    this.send(hop, o.destination, at('destination'), moved, [...new Set(arriving)].join('+') || 'ReserveAssetDeposited', o.remoteXcm, (t) => checks.forEach((c) => c(t)));
  }

  // ---- hops ---------------------------------------------------------------------------------

  /** Sends on to the chain `dest` names (read on the hop's chain); checks where it goes, then walks the program there. */
  private send(hop: Hop, dest: unknown, at: string, moved: Held[], arrive: string | null, xcm: unknown, check?: (target: TChain) => void): TChain | null {
    const loc = parseLocation(unversioned(dest));
    if (loc === null) {
      this.problem(hop, at, `${JSON.stringify(dest)} is not a location`);
      return null;
    }
    const path = absolute(universalOfChain(hop.chain), loc);
    if (path === null) {
      this.problem(hop, at, `${locText(loc)} climbs above the top of the universe when ${hop.chain} reads it`);
      return null;
    }
    return this.arrive(hop, path, at, moved, arrive, unversioned(xcm), check, loc);
  }

  private arrive(hop: Hop, path: Junction[], at: string, moved: Held[], arrive: string | null, xcm: unknown, check?: (target: TChain) => void, written?: Loc): TChain | null {
    const place = placeOf(path);
    const seen = written ? `${locText(written)}, read on ${hop.chain},` : 'the destination';
    if (place.chain === null) {
      this.problem(hop, at, `${seen} names no chain: ${place.why}`);
      return null;
    }
    if (place.rest.length > 0) {
      const what = place.rest.length === 1 && place.rest[0]!.type === 'Parachain' ? `a child of ${place.chain}, which does not exist` : `something inside ${place.chain}, not a chain`;
      this.problem(hop, at, `${seen} names ${place.rest.map(junctionText).join(', ')} under ${place.chain}: ${what}`);
      return null;
    }
    const target = place.chain;
    if (target === hop.chain) {
      this.problem(hop, at, `${seen} names ${hop.chain} itself`);
      return null;
    }
    if (ecosystemOf(target) !== ecosystemOf(hop.chain) && !bridges(hop.chain)) {
      this.problem(hop, at, `${target} is in another consensus system (${ecosystemOf(target)}); ${hop.chain} has no bridge to it (only asset hubs and bridge hubs send there)`);
      return null;
    }
    check?.(target);
    const next = this.open(target, moved.map((m) => ({ ...m })), true);
    if (arrive) next.view.instructions.push(...arrive.split('+'), 'ClearOrigin');
    for (const held of next.holding) this.known(next, held.path, arrive ?? 'assets');
    this.program(next, xcm, '');
    return target;
  }

  // ---- rules --------------------------------------------------------------------------------

  private known(hop: Hop, path: Junction[], at: string): void {
    if (hop.chain === 'Ethereum') return;
    if (!assetOn(hop.chain, path)) {
      this.warning(hop, at, `the registry does not list ${locText(registryView(path, ecosystemOf(hop.chain)))} on ${hop.chain} (an unlisted or custom asset): whether ${hop.chain} holds it cannot be told`);
    }
  }

  /** Takes from the holding what a filter selects (Definite by asset, Wild as everything or all of an asset). */
  private take(hop: Hop, filter: unknown): Held[] {
    const found = variantOf(filter);
    if (found?.[0] === 'Definite') {
      const wanted = readAssets(hop.chain, found[1]);
      const taken = wanted.map((w) => {
        const held = hop.holding.find((h) => samePath(h.path, w.path));
        return held ? { ...held, amount: w.amount !== null && held.amount !== null && w.amount < held.amount ? w.amount : held.amount } : w;
      });
      hop.holding = hop.holding.filter((h) => !wanted.some((w) => samePath(w.path, h.path)));
      return taken;
    }
    const wild = found?.[0] === 'Wild' ? variantOf(found[1]) : null;
    if (wild && (wild[0] === 'AllOf' || wild[0] === 'AllOfCounted') && isObject(wild[1])) {
      const path = assetPath(hop.chain, wild[1].id);
      const taken = hop.holding.filter((h) => path !== null && samePath(h.path, path));
      hop.holding = hop.holding.filter((h) => !taken.includes(h));
      return taken;
    }
    const taken = hop.holding;
    hop.holding = [];
    return taken;
  }

  private fees(hop: Hop, fee: Held | undefined, at: string): void {
    if (!fee) return;
    const name = assetName(hop.chain, fee.path);
    // Ethereum runs no XCM: the bridge turns the message into a command there, paid on this side.
    if (hop.chain === 'Ethereum') return;
    const listed = assetOn(hop.chain, fee.path);
    if (listed?.accepted === false) this.problem(hop, at, `${hop.chain} does not take ${name} for fees`);
    else if (listed?.accepted === null) this.warning(hop, at, `the registry marks no fee asset on ${hop.chain}: whether it takes ${name} for fees cannot be told`);
    const held = hop.holding.find((h) => samePath(h.path, fee.path));
    if (!held) {
      this.problem(hop, at, `pays fees in ${name}, which the holding on ${hop.chain} does not hold`);
      return;
    }
    if (fee.amount !== null && held.amount !== null) {
      if (fee.amount > held.amount) this.problem(hop, at, `buys execution with ${fee.amount} of ${name}, but at most ${held.amount} reach ${hop.chain}`);
      else if (held.reduced && fee.amount >= held.amount) {
        this.problem(hop, at, `buys execution with all ${held.amount} of ${name} sent, but less reaches ${hop.chain}: a chain before took its fees from it`);
      }
    }
    held.reduced = true;
  }

  private deposit(hop: Hop, beneficiary: unknown, at: string, inAppendix: boolean): void {
    const loc = parseLocation(beneficiary);
    const account = loc && loc.parents === 0 && loc.junctions.length === 1 ? loc.junctions[0]! : null;
    const kind = account?.type;
    if (kind !== 'AccountId32' && kind !== 'AccountKey20') {
      this.problem(hop, at, `the beneficiary ${loc ? locText(loc) : JSON.stringify(beneficiary)} is not an account on ${hop.chain}`);
    } else if (kind === 'AccountId32' && isEvm(hop.chain)) {
      // An appendix deposits only what is left (the SDK's refund to the sender): a warning there.
      const message = `the beneficiary is a 32-byte account, but accounts on ${hop.chain} are 20-byte (AccountKey20)`;
      if (inAppendix) this.warning(hop, at, `${message}: what is left after the transfer stays trapped there`);
      else this.problem(hop, at, message);
    }
    if (!inAppendix) this.arrivals.push({ chain: hop.chain, beneficiary: account ? loc : null, hop: this.hops.indexOf(hop.view) });
  }

  private reserveText(hop: Hop, path: Junction[], reserves: TChain[]): string {
    return `${hop.chain} is not the reserve of ${assetName(hop.chain, path)} (the registry names ${reserves.join(' or ')})`;
  }

  /** The hop's chain must be the reserve of what it transfers as reserve. */
  private mustBeReserve(hop: Hop, moved: Held[], at: string): void {
    for (const held of moved) {
      const reserves = this.reserves(hop, held.path, at);
      if (reserves && !reserves.includes(hop.chain)) this.problem(hop, at, this.reserveText(hop, held.path, reserves));
    }
  }

  /** Assets withdrawn from a reserve must go to their reserve. */
  private mustBeReserveOf(hop: Hop, target: TChain, moved: Held[], at: string): void {
    for (const held of moved) {
      const reserves = this.reserves(hop, held.path, at);
      if (reserves && !reserves.includes(target)) this.problem(hop, at, `${target} is not the reserve of ${assetName(hop.chain, held.path)} (the registry names ${reserves.join(' or ')}): withdrawing it there fails`);
    }
  }

  private reserves(hop: Hop, path: Junction[], at: string): TChain[] | null {
    const reserves = reservesOf(hop.chain, path);
    if (reserves === null) {
      this.warning(hop, at, `the registry cannot tell the reserve of ${assetName(hop.chain, path)}`);
      return null;
    }
    // An asset of another consensus system is held in reserve on this side by its asset hub (the
    // bridge's end), and at home by the chain it comes from (for a relay token, the relay or its hub).
    const network = networkOf(path[0]);
    if (network === null || network === ecosystemOf(hop.chain) || hop.chain === 'Ethereum') return reserves;
    const home = placeOf(path.slice(0, network === 'Ethereum' ? 1 : 2));
    const more = [hubOf(ecosystemOf(hop.chain)), home.chain, home.chain !== null && isRelay(home.chain) ? hubOf(home.chain) : null];
    return [...new Set([...reserves, ...more.filter((c): c is TChain => c !== null)])];
  }

  private mayTeleport(hop: Hop, target: TChain, moved: Held[], at: string): void {
    if (!teleportTrusted(hop.chain, target)) {
      this.problem(hop, at, `${hop.chain} and ${target} do not trust each other's teleports (only a relay chain and its system chains do)`);
      return;
    }
    for (const held of moved) {
      if (!this.teleportable(hop.chain, held.path)) this.problem(hop, at, `${assetName(hop.chain, held.path)} cannot be teleported: its reserve is not a chain that ${hop.chain} and ${target} trust`);
    }
  }
}

/** Runs one walk; call data the walker cannot follow is not passed as if it could be. */
function walk(origin: TChain, at: string, step: (walker: Walker) => void): RouteWalk {
  const walker = new Walker();
  try {
    step(walker);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    walker.hops.push({ chain: origin, instructions: [], ok: false, problems: [{ at, message: `the route could not be followed: ${reason}` }], warnings: [] });
  }
  return { hops: walker.hops, arrivals: walker.arrivals };
}

/** Follows `call`, executed on `origin`, through every chain its message reaches. */
export function walkCall(origin: TChain, call: Call): RouteWalk {
  return walk(origin, `${call.section}.${call.method}`, (w) => w.call(origin, call));
}

/** One asset of a transfer given outside call data: its location as the origin reads it, and its amount. */
export interface SentAsset {
  location: Loc;
  amount: bigint;
}

/** What xTokens does for a transfer that is no Substrate call (Moonbeam's XTokens precompile dispatches it). */
export interface XTokensTransfer {
  assets: SentAsset[];
  /** The asset that pays the fees (index into `assets`). */
  feeItem: number;
  /** The destination chain followed by the beneficiary, as the origin reads it. */
  destination: Loc;
}

/** Follows an xTokens transfer of `transfer.assets` from `origin` to `transfer.destination`. */
export function walkXTokensTransfer(origin: TChain, transfer: XTokensTransfer): RouteWalk {
  return walk(origin, 'xTokens', (w) => w.xTokensTransfer(origin, transfer.assets, transfer.feeItem, transfer.destination));
}

/** Follows an XCM pallet call given by its arguments (what Moonbeam's XCM-interface precompile dispatches). */
export function walkPalletCall(origin: TChain, method: string, args: Record<string, unknown>): RouteWalk {
  return walk(origin, `polkadotXcm.${method}`, (w) => w.palletCall(origin, method, args));
}
