// Runs XCM programs on a hop's chain, and sends on to the chains they reach.
import type { TChain } from '@paraspell/sdk-pjs';
import { absolute, parseLocation, variantOf, type Junction, type Loc } from '../../xcm/location';
import { depthOf, MAX_XCM_DECODE_DEPTH } from './barrier';
import { ExecutorRules } from './executor-rules';
import { bridges, ecosystemOf, placeOf, universalOfChain } from './registry-facts';
import type { Hop } from './walk-types';
import { addTo, isObject, junctionText, locText, readAssets, unversioned, type Held, type Json } from './xcm-values';

/** Runs programs hop by hop; what each instruction checks is in HopRules. */
export class ProgramWalker extends ExecutorRules {
  /** Runs `program` on the hop's chain; `prefix` names the instruction holding it (SetAppendix). */
  protected program(hop: Hop, program: unknown, prefix: string): void {
    if (!Array.isArray(program)) return;
    let appendix: unknown = null;
    for (const instruction of program) {
      this.step();
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
          if (name === 'WithdrawAsset') this.fromOrigin(hop, at(''), 'withdraws from its account');
          const assets = readAssets(hop.chain, name === 'ClaimAsset' ? o.assets : value);
          for (const held of assets) this.known(hop, held.path, at('assets'));
          addTo(hop.holding, assets);
          break;
        }
        case 'BuyExecution':
        case 'PayFees': {
          // The executor skips a BuyExecution without a weight limit, except the first of a message
          // that arrived (the barrier sets its limit): only those, PayFees and limited ones pay.
          const limited = variantOf(o.weightLimit)?.[0] === 'Limited';
          const pays = name === 'PayFees' || limited || (hop.paid === 'first' && !prefix);
          if (name === 'BuyExecution' && hop.paid === 'first') hop.paid = 'done';
          if (name === 'PayFees') hop.feesAside = true;
          if (pays) this.fees(hop, readAssets(hop.chain, [name === 'PayFees' ? o.asset : o.fees])[0], at(name === 'PayFees' ? 'asset' : 'fees'));
          break;
        }
        case 'DepositAsset': {
          const taken = this.take(hop, o.assets).filter((h) => h.amount !== 0n);
          if (taken.length === 0 && !prefix && !hop.holdingUnknown) this.problem(hop, at('assets'), `deposits nothing: ${variantOf(o.assets)?.[0] === 'Wild' ? `the filter ${JSON.stringify(o.assets)} selects no asset of the holding` : 'the holding holds none of the assets it names'}`);
          if (!prefix) hop.deposit = name;
          this.deposit(hop, o.beneficiary, at('beneficiary'), prefix !== '');
          break;
        }
        case 'DepositReserveAsset': {
          const moved = this.take(hop, o.assets);
          this.mustBeReserve(hop, moved, at('assets'));
          this.send(hop, o.dest, at('dest'), moved, 'ReserveAssetDeposited', o.xcm);
          break;
        }
        case 'TransferReserveAsset': {
          this.fromOrigin(hop, at(''), 'transfers from its account');
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
          // It runs when the program ends, on what is left then.
          appendix = value;
          break;
        case 'SetErrorHandler':
          // It runs only where an instruction fails, and the walk reports that failure itself.
          break;
        default:
          this.executorRule(hop, name, value, at(''));
      }
    }
    if (appendix !== null) this.program(hop, appendix, `${prefix}SetAppendix.`);
  }

  /** XCM v5's InitiateTransfer: each asset filter says how it moves; the remote program runs on the destination. */
  protected initiateTransfer(hop: Hop, o: Json, at: (field: string) => string): void {
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
    if (o.preserveOrigin === true) this.warning(hop, at('preserveOrigin'), 'the destination runs the program as the sender (AliasOrigin): whether it lets the sender alias there cannot be told');
    // Its remote fees arrive first and pay (PayFees) before the other assets: what the barrier wants.
    this.paidUpFront = Boolean(o.remoteFees);
    this.send(hop, o.destination, at('destination'), moved, [...new Set(arriving)].join('+') || 'ReserveAssetDeposited', o.remoteXcm, (t) => checks.forEach((c) => c(t)));
    this.paidUpFront = false;
  }

  // ---- hops ---------------------------------------------------------------------------------

  /** Sends on to the chain `dest` names (read on the hop's chain); checks where it goes, then walks the program there. */
  protected send(hop: Hop, dest: unknown, at: string, moved: Held[], arrive: string | null, xcm: unknown, check?: (target: TChain) => void): TChain | null {
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
    const program = unversioned(xcm);
    // The message sent holds the program and the instructions around it: deeper than the decoder takes, it is not sent.
    if (depthOf(program) > MAX_XCM_DECODE_DEPTH) {
      this.problem(hop, at, `the message sent nests programs ${depthOf(program)} deep: more than MAX_XCM_DECODE_DEPTH (${MAX_XCM_DECODE_DEPTH}), it cannot be sent (ExceedsMaxMessageSize)`);
      return null;
    }
    return this.arrive(hop, path, at, moved, arrive, program, check, loc);
  }

  protected arrive(hop: Hop, path: Junction[], at: string, moved: Held[], arrive: string | null, xcm: unknown, check?: (target: TChain) => void, written?: Loc): TChain | null {
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
    const next = this.open(target, addTo([], moved), true);
    if (arrive) next.view.instructions.push(...arrive.split('+'), 'ClearOrigin');
    else next.origin = 'account';
    for (const held of next.holding) this.known(next, held.path, arrive ?? 'assets');
    this.barrier(next, hop.chain, arrive, moved, xcm);
    if (arrive === 'ReserveAssetDeposited') this.trustedReserve(next, hop.chain, moved);
    if (arrive) next.origin = 'cleared';
    this.program(next, xcm, '');
    this.settle(next);
    return target;
  }
}
