// The hop's rules: opening a hop, recording its problems and warnings, and what each instruction
// checks against the registry (assets known, holding taken, fees, beneficiaries, reserves, teleports).
import type { TChain } from '@paraspell/sdk-pjs';
import { parseLocation, variantOf, type Junction } from '../../xcm/location';
import { leastPrice } from './runtime-facts';
import { assetName, assetOn, ecosystemOf, hubOf, isEvm, isRelay, isSystemChain, networkOf, placeOf, registryView, reservesOf, teleportTrusted, universalOfChain } from './registry-facts';
import type { Arrival, Hop, RouteHop } from './walk-types';
import { assetPath, isObject, locText, readAssets, samePath, type Held } from './xcm-values';

/**
 * Bounds on one walk, whoever wrote the call data (/explain walks anyone's): call data a chain
 * decodes holds at most 100 instructions and 20 assets a list per message, but a batch of such
 * messages, each sending a thousand distinct assets on from hop to hop, still made a walk copy and
 * check every asset at every hop. Past these the walk stops and its last hop says so.
 */
/** Chains one walk opens (a real transfer reaches 2 to 4). */
export const MAX_ROUTE_HOPS = 32;
/** Problems, and warnings, listed per hop; one more line counts the rest. */
export const MAX_HOP_NOTES = 20;
/** Instructions run, assets carried and assets checked in one walk (a message at XCM's bounds takes about 25,000). */
export const MAX_WALK_STEPS = 50_000;
/**
 * Distinct assets one walk checks against the registry (a real transfer moves 1 to 3): a registry
 * look-up costs up to half a millisecond, and distinct made-up assets miss every memo. Assets past
 * them are carried on, unchecked, and the hop says so.
 */
export const MAX_WALK_ASSETS = 16;

/** Thrown when a walk reaches one of its bounds: the walk ends where it got to. */
export class WalkStopped extends Error {}

interface Notes {
  seen: Set<string>;
  unlisted: { problems: number; warnings: number };
}

/** How a fee below the chain's price is named. */
export const TOO_EXPENSIVE = 'TooExpensive';
/** How a teleport below the relay's existential deposit is named. */
export const CANNOT_CHECK_OUT = 'CannotCheckOutTeleport';

/** How pallet-xcm's refusal of a call whose method the chains do not allow for the asset is named. */
export const FILTERED = 'Filtered';

/**
 * The request's own part in a problem, answered as a 400 of this kind rather than as our fault:
 * an amount that does not cover what the way costs, or a method pallet-xcm refuses for the asset.
 */
export function requestFault(message: string): 'AmountTooLowError' | 'UnsupportedOperationError' | null {
  if (message.endsWith(`(${TOO_EXPENSIVE})`) || message.endsWith(`(${CANNOT_CHECK_OUT})`)) return 'AmountTooLowError';
  return message.endsWith(`(${FILTERED})`) ? 'UnsupportedOperationError' : null;
}

/** The hops a walk opens, what it found there, and the checks its instructions make. */
export class HopRules {
  readonly hops: RouteHop[] = [];
  readonly arrivals: Arrival[] = [];
  readonly #notes = new Map<RouteHop, Notes>();
  #steps = 0;
  /** The assets checked so far, by key; each path's key worked out once. */
  readonly #assets = new Set<string>();
  readonly #keys = new WeakMap<Junction[], string>();

  protected open(chain: TChain, holding: Held[], arrived = false): Hop {
    if (this.hops.length >= MAX_ROUTE_HOPS) throw new WalkStopped(`the message reaches more than ${MAX_ROUTE_HOPS} chains (MAX_ROUTE_HOPS): the walk stopped there`);
    this.step(holding.length);
    const view: RouteHop = { chain, instructions: [], ok: true, problems: [], warnings: [] };
    this.hops.push(view);
    this.#notes.set(view, { seen: new Set(), unlisted: { problems: 0, warnings: 0 } });
    return { chain, view, holding, paid: arrived ? 'first' : 'local', origin: arrived ? 'chain' : 'signer' };
  }

  /** Counts `n` steps of work against MAX_WALK_STEPS. */
  protected step(n = 1): void {
    this.#steps += n;
    if (this.#steps > MAX_WALK_STEPS) throw new WalkStopped(`the walk stopped after ${MAX_WALK_STEPS} steps (MAX_WALK_STEPS: instructions run, assets carried and checked): what follows is not checked`);
  }

  /** Whether the walk checks the asset at `path`: one of the first MAX_WALK_ASSETS distinct ones. */
  protected checks(hop: Hop, path: Junction[]): boolean {
    let key = this.#keys.get(path);
    if (key === undefined) {
      key = JSON.stringify(path);
      this.#keys.set(path, key);
    }
    if (this.#assets.has(key)) return true;
    if (this.#assets.size < MAX_WALK_ASSETS) {
      this.#assets.add(key);
      return true;
    }
    this.warning(hop, 'assets', `more than ${MAX_WALK_ASSETS} distinct assets move: the others are carried on but not checked (MAX_WALK_ASSETS)`);
    return false;
  }

  protected problem(hop: Hop, at: string, message: string): void {
    hop.view.ok = false;
    this.#note(hop.view, 'problems', at, message);
  }

  protected warning(hop: Hop, at: string, message: string): void {
    this.#note(hop.view, 'warnings', at, message);
  }

  /** Lists a note once per hop, at most MAX_HOP_NOTES of each kind; the others are counted. */
  #note(view: RouteHop, kind: 'problems' | 'warnings', at: string, message: string): void {
    const notes = this.#notes.get(view)!;
    const key = `${kind}\0${at}\0${message}`;
    if (notes.seen.has(key)) return;
    notes.seen.add(key);
    if (view[kind].length < MAX_HOP_NOTES) view[kind].push({ at, message });
    else notes.unlisted[kind]++;
  }

  /** Ends the walk: `stopped` (a bound reached) goes on the last hop, and each hop counts the notes it did not list. */
  finish(stopped?: WalkStopped): void {
    const last = this.hops.at(-1);
    if (stopped && last) last.warnings.push({ at: 'route', message: stopped.message });
    for (const [view, { unlisted }] of this.#notes) {
      for (const kind of ['problems', 'warnings'] as const) {
        if (unlisted[kind] > 0) view[kind].push({ at: 'route', message: `${unlisted[kind]} more ${kind} on this hop are not listed (MAX_HOP_NOTES: ${MAX_HOP_NOTES} are)` });
      }
    }
  }

  protected teleportable(chain: TChain, path: Junction[]): boolean {
    const reserves = reservesOf(chain, path);
    return reserves !== null && reserves.some((r) => teleportTrusted(r, chain) || r === chain);
  }

  protected known(hop: Hop, path: Junction[], at: string): void {
    this.step();
    if (hop.chain === 'Ethereum' || !this.checks(hop, path)) return;
    if (!assetOn(hop.chain, path)) {
      this.warning(hop, at, `the registry does not list ${locText(registryView(path, ecosystemOf(hop.chain)))} on ${hop.chain} (an unlisted or custom asset): whether ${hop.chain} holds it cannot be told`);
    }
  }

  /** Takes from the holding what a filter selects (Definite by asset and amount, Wild as everything, `AllCounted(n)` as n assets, or all of an asset). */
  protected take(hop: Hop, filter: unknown): Held[] {
    this.step(hop.holding.length);
    const found = variantOf(filter);
    if (found?.[0] === 'Definite') {
      const wanted = readAssets(hop.chain, found[1]);
      const taken: Held[] = [];
      for (const w of wanted) {
        const held = hop.holding.find((h) => samePath(h.path, w.path));
        if (!held) {
          taken.push(w);
          continue;
        }
        const part = w.amount !== null && held.amount !== null && w.amount < held.amount;
        taken.push(part ? { ...held, amount: w.amount } : { ...held });
        if (part) held.amount! -= w.amount!;
        else hop.holding = hop.holding.filter((h) => h !== held);
      }
      return taken;
    }
    const wild = found?.[0] === 'Wild' ? variantOf(found[1]) : null;
    if (wild && (wild[0] === 'AllOf' || wild[0] === 'AllOfCounted') && isObject(wild[1])) {
      const path = assetPath(hop.chain, wild[1].id);
      const taken = hop.holding.filter((h) => path !== null && samePath(h.path, path));
      hop.holding = hop.holding.filter((h) => !taken.includes(h));
      return taken;
    }
    const count = wild?.[0] === 'AllCounted' ? Number(wild[1]) : hop.holding.length;
    const taken = hop.holding.slice(0, count);
    hop.holding = hop.holding.slice(count);
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
    const price = leastPrice(hop.chain);
    const relayToken = universalOfChain(ecosystemOf(hop.chain) as TChain);
    if (price && fee.amount !== null && samePath(fee.path, relayToken) && fee.amount < price.fee) {
      this.problem(hop, at, `buys execution with ${fee.amount} of ${name}, but any message costs at least ${price.fee} on ${hop.chain} (${TOO_EXPENSIVE})`);
    }
    held.reduced = true;
  }

  protected deposit(hop: Hop, beneficiary: unknown, at: string, inAppendix: boolean): void {
    const loc = parseLocation(beneficiary);
    const account = loc && loc.parents === 0 && loc.junctions.length === 1 ? loc.junctions[0]! : null;
    const kind = account?.type;
    if (kind !== 'AccountId32' && kind !== 'AccountKey20') {
      this.problem(hop, at, `the beneficiary ${loc ? locText(loc) : JSON.stringify(beneficiary)} is not an account on ${hop.chain}`);
    } else if (kind === 'AccountKey20' && !isEvm(hop.chain) && isSystemChain(hop.chain)) {
      const message = `the beneficiary is a 20-byte account, but ${hop.chain} has 32-byte accounts: it cannot deposit there (FailedToTransactAsset)`;
      if (inAppendix) this.warning(hop, at, `${message}: what is left after the transfer stays trapped there`);
      else this.problem(hop, at, message);
    } else if (kind === 'AccountKey20' && !isEvm(hop.chain)) {
      this.warning(hop, at, `the beneficiary is a 20-byte account on ${hop.chain}, whose accounts are 32-byte: whether it maps one cannot be told`);
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
      if (!this.checks(hop, held.path)) continue;
      const reserves = this.reserves(hop, held.path, at);
      if (reserves && !reserves.includes(hop.chain)) this.problem(hop, at, this.reserveText(hop, held.path, reserves));
    }
  }

  /** Assets withdrawn from a reserve must go to their reserve. */
  protected mustBeReserveOf(hop: Hop, target: TChain, moved: Held[], at: string): void {
    for (const held of moved) {
      if (!this.checks(hop, held.path)) continue;
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
      if (!this.checks(hop, held.path)) continue;
      if (!this.teleportable(hop.chain, held.path)) this.problem(hop, at, `${assetName(hop.chain, held.path)} cannot be teleported: its reserve is not a chain that ${hop.chain} and ${target} trust`);
    }
  }
}
