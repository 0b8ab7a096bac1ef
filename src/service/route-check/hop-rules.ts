// The hop's rules: opening a hop, recording its problems and warnings, and what each instruction
// checks against the registry (assets known, holding taken, fees, beneficiaries, reserves, teleports).
import type { TChain } from '@paraspell/sdk-pjs';
import { parseLocation, variantOf, type Junction } from '../../xcm/location';
import { assetName, assetOn, ecosystemOf, hubOf, isEvm, isRelay, networkOf, placeOf, registryView, reservesOf, teleportTrusted } from './registry-facts';
import type { Arrival, Hop, RouteHop } from './walk-types';
import { assetPath, isObject, locText, readAssets, samePath, type Held } from './xcm-values';

/** The hops a walk opens, what it found there, and the checks its instructions make. */
export class HopRules {
  readonly hops: RouteHop[] = [];
  readonly arrivals: Arrival[] = [];

  protected open(chain: TChain, holding: Held[], arrived = false): Hop {
    const view: RouteHop = { chain, instructions: [], ok: true, problems: [], warnings: [] };
    this.hops.push(view);
    return { chain, view, holding, paid: arrived ? 'first' : 'local' };
  }

  protected problem(hop: Hop, at: string, message: string): void {
    hop.view.ok = false;
    hop.view.problems.push({ at, message });
  }

  protected warning(hop: Hop, at: string, message: string): void {
    if (!hop.view.warnings.some((w) => w.at === at && w.message === message)) hop.view.warnings.push({ at, message });
  }

  protected teleportable(chain: TChain, path: Junction[]): boolean {
    const reserves = reservesOf(chain, path);
    return reserves !== null && reserves.some((r) => teleportTrusted(r, chain) || r === chain);
  }

  protected known(hop: Hop, path: Junction[], at: string): void {
    if (hop.chain === 'Ethereum') return;
    if (!assetOn(hop.chain, path)) {
      this.warning(hop, at, `the registry does not list ${locText(registryView(path, ecosystemOf(hop.chain)))} on ${hop.chain} (an unlisted or custom asset): whether ${hop.chain} holds it cannot be told`);
    }
  }

  /** Takes from the holding what a filter selects (Definite by asset, Wild as everything or all of an asset). */
  protected take(hop: Hop, filter: unknown): Held[] {
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

  protected fees(hop: Hop, fee: Held | undefined, at: string): void {
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

  protected deposit(hop: Hop, beneficiary: unknown, at: string, inAppendix: boolean): void {
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

  protected reserveText(hop: Hop, path: Junction[], reserves: TChain[]): string {
    return `${hop.chain} is not the reserve of ${assetName(hop.chain, path)} (the registry names ${reserves.join(' or ')})`;
  }

  /** The hop's chain must be the reserve of what it transfers as reserve. */
  protected mustBeReserve(hop: Hop, moved: Held[], at: string): void {
    for (const held of moved) {
      const reserves = this.reserves(hop, held.path, at);
      if (reserves && !reserves.includes(hop.chain)) this.problem(hop, at, this.reserveText(hop, held.path, reserves));
    }
  }

  /** Assets withdrawn from a reserve must go to their reserve. */
  protected mustBeReserveOf(hop: Hop, target: TChain, moved: Held[], at: string): void {
    for (const held of moved) {
      const reserves = this.reserves(hop, held.path, at);
      if (reserves && !reserves.includes(target)) this.problem(hop, at, `${target} is not the reserve of ${assetName(hop.chain, held.path)} (the registry names ${reserves.join(' or ')}): withdrawing it there fails`);
    }
  }

  protected reserves(hop: Hop, path: Junction[], at: string): TChain[] | null {
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

  protected mayTeleport(hop: Hop, target: TChain, moved: Held[], at: string): void {
    if (!teleportTrusted(hop.chain, target)) {
      this.problem(hop, at, `${hop.chain} and ${target} do not trust each other's teleports (only a relay chain and its system chains do)`);
      return;
    }
    for (const held of moved) {
      if (!this.teleportable(hop.chain, held.path)) this.problem(hop, at, `${assetName(hop.chain, held.path)} cannot be teleported: its reserve is not a chain that ${hop.chain} and ${target} trust`);
    }
  }
}
