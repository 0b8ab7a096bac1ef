// The check every answer carrying call data passes before it is sent: the call decoded with the
// origin's metadata (as a wallet decodes it), walked hop by hop (walker.ts), and compared with
// what the request asked for (the final chain and beneficiary of each transfer). A problem is a
// RouteCheckError (500, logged at error level with the request); a warning is logged and counted.
import type { TChain } from '@paraspell/sdk-pjs';
import type { Call } from '@polkadot/types/interfaces';
import type { Registry } from '@polkadot/types/types';
import type { Logger } from 'pino';
import { badRequest, RouteCheckError, type ErrorDetail } from '../../errors';
import { ss58Account } from '../../schemas/address';
import { toSdkJson, type Loc } from '../../xcm/location';
import { requestFault } from './hop-rules';
import { readOnce } from './read-calls';
import { walkCall, walkPalletCall, walkView, walkXTokensTransfer, type CallView, type RouteHop, type RouteProblem, type RouteWalk, type XTokensTransfer } from './walker';

/** Where one transfer of the request must end: its chain (null for a custom location) and recipient. */
export interface RouteExpectation {
  chain: TChain | null;
  recipient?: string;
}

export type RouteOutcome = 'passed' | 'warned' | 'refused';

/** The first problem of a walk: the hop (1-based) and chain it is on. */
export interface RouteRefusal extends RouteProblem {
  hop: number;
  chain: string;
}

/** What /metrics counts (the HTTP layer wires it to src/ops/metrics.ts). */
export interface RouteCheckObserver {
  checked(outcome: RouteOutcome, origin: string): void;
}

/** The account bytes an address names (SS58, or hex of 20 or 32 bytes), lower-case hex; null when it is none. */
function accountHex(address: string): string | null {
  if (/^0x[0-9a-fA-F]{40}$/.test(address) || /^0x[0-9a-fA-F]{64}$/.test(address)) return address.toLowerCase();
  const account = ss58Account(address);
  return account && `0x${account.hex}`;
}

function beneficiaryHex(loc: Loc | null): string | null {
  const value = loc?.junctions[0]?.value as { id?: unknown; key?: unknown } | undefined;
  const raw = value?.id ?? value?.key;
  return typeof raw === 'string' ? raw.toLowerCase() : null;
}

/** Compares where the walk ends with what the request asked for; problems go on the arrival's hop. */
function compare(walk: RouteWalk, expected: RouteExpectation[]): void {
  const last = walk.hops[walk.hops.length - 1];
  if (!last) return;
  if (expected.length === 1 && expected[0]!.recipient === undefined) {
    // A transact: what it deposits (fees left over) is not the point; where its message ends is.
    const want = expected[0]!.chain;
    if (want && last.chain !== want) flag(last, 'route', `the message ends on ${last.chain}, but the request asked for ${want}`);
    return;
  }
  if (walk.arrivals.length !== expected.length) {
    // A walk that could not read the call (a warning says so) cannot count its deposits either.
    const unread = walk.hops.some((h) => h.warnings.some((w) => w.message.endsWith('its route is not checked')));
    if (!unread && walk.hops.every((h) => h.ok)) flag(last, 'route', `the call deposits ${walk.arrivals.length} time(s), but the request asked for ${expected.length} transfer(s)`);
    return;
  }
  expected.forEach((want, i) => {
    const got = walk.arrivals[i]!;
    const hop = walk.hops[got.hop]!;
    if (want.chain !== null && got.chain !== want.chain) flag(hop, 'DepositAsset', `the assets are deposited on ${got.chain}, but the request asked for ${want.chain}`);
    if (want.recipient === undefined) return;
    const wanted = accountHex(want.recipient);
    const given = beneficiaryHex(got.beneficiary);
    if (wanted !== null && given !== null && wanted !== given) {
      flag(hop, 'DepositAsset.beneficiary', `the beneficiary ${JSON.stringify(toSdkJson(got.beneficiary!))} is not the recipient the request asked for (${want.recipient})`);
    }
  });
}

function flag(hop: RouteHop, at: string, message: string): void {
  hop.ok = false;
  hop.problems.push({ at, message });
}

/** Call data decoded with `registry` as the walk reads it (read once per bytes and runtime: read-calls.ts); null for a batch or a proxy (calls inside a call). */
export function readCall(registry: Registry, hex: string): CallView | null {
  const read = readOnce(registry, hex);
  return 'view' in read ? read.view : null;
}

/** Reads the hops of call data already decoded (the route /explain answers). */
export function routeOf(origin: TChain, call: Call): RouteHop[] {
  return walkCall(origin, call).hops;
}

export class RouteCheck {
  private observer: RouteCheckObserver | undefined;

  constructor(private readonly logger: Logger) {}

  observe(observer: RouteCheckObserver): void {
    this.observer = observer;
  }

  /**
   * Checks call data `hex` built for `origin` (decoded with `registry`, the origin's metadata)
   * and returns it; throws a RouteCheckError naming the first failing hop. `request` is logged
   * with a refusal; `expected` lists each transfer's final chain and recipient, in call order.
   */
  check(registry: Registry, origin: TChain, hex: string, expected: RouteExpectation[] | null, request: unknown): string {
    // The view of the bytes walks as the call decoded from them does (walkCall reads a call that is no batch or proxy by its view).
    const read = readOnce(registry, hex);
    this.judge(origin, 'view' in read ? walkView(origin, read.view) : walkCall(origin, read.call), expected, request);
    return hex;
  }

  /**
   * Checks call data `hex` already read as `view` (its bytes decoded with the origin's metadata
   * give exactly that view: the caller proves it) and returns it; throws as `check`.
   */
  checkView(origin: TChain, view: CallView, hex: string, expected: RouteExpectation[], request: unknown): string {
    this.judge(origin, walkView(origin, view), expected, request);
    return hex;
  }

  /**
   * Checks an xTokens transfer that is no Substrate call (Moonbeam's XTokens precompile: the
   * caller decodes its ABI into the assets' locations and the destination); throws as `check`.
   */
  checkXTokens(origin: TChain, transfer: XTokensTransfer, expected: RouteExpectation[], request: unknown): void {
    this.judge(origin, walkXTokensTransfer(origin, transfer), expected, request);
  }

  /**
   * Walks an xTokens transfer as `checkXTokens` does, without logging or counting it: the first
   * problem, or null when it would pass. A builder choosing between ways to send asks this.
   */
  trialXTokens(origin: TChain, transfer: XTokensTransfer, expected: RouteExpectation[]): RouteRefusal | null {
    const walk = walkXTokensTransfer(origin, transfer);
    compare(walk, expected);
    const failing = walk.hops.findIndex((h) => !h.ok);
    if (failing === -1) return null;
    const hop = walk.hops[failing]!;
    return { hop: failing + 1, chain: hop.chain, ...hop.problems[0]! };
  }

  /** Checks an XCM pallet call given by its arguments (Moonbeam's XCM-interface precompile dispatches one); throws as `check`. */
  checkPalletCall(origin: TChain, method: string, args: Record<string, unknown>, expected: RouteExpectation[], request: unknown): void {
    this.judge(origin, walkPalletCall(origin, method, args), expected, request);
  }

  private judge(origin: TChain, walk: RouteWalk, expected: RouteExpectation[] | null, request: unknown): void {
    if (expected) compare(walk, expected);
    const failing = walk.hops.findIndex((h) => !h.ok);
    if (failing === -1) {
      const warned = walk.hops.some((h) => h.warnings.length > 0);
      if (warned) this.logger.warn({ origin, route: walk.hops, request }, 'route check: the registry cannot tell every hop');
      this.observer?.checked(warned ? 'warned' : 'passed', origin);
      return;
    }
    const hop = walk.hops[failing]!;
    const [first] = hop.problems;
    const details: ErrorDetail[] = walk.hops.flatMap((h, i) => h.problems.map((p) => ({ path: `route.${i}.${p.at}`, message: `${h.chain}: ${p.message}` })));
    const fault = requestFault(first!.message);
    if (fault) {
      // The request's to change (its amount, or the method it named), as pre-flight says: not our fault.
      this.observer?.checked('refused', origin);
      const what = fault === 'AmountTooLowError' ? 'The amount does not cover the fees on the way' : 'The chain refuses the call the request asks for';
      throw badRequest(fault, `${what}: at hop ${failing + 1} (${hop.chain}), ${first!.at}: ${first!.message}`, details.slice(0, 20));
    }
    const error = new RouteCheckError(
      `The call data built from ${origin} would not arrive: at hop ${failing + 1} (${hop.chain}), ${first!.at}: ${first!.message}. It was not answered; this is a fault of the service, please report it.`,
      details.slice(0, 20),
      walk.hops,
    );
    this.logger.error({ origin, route: walk.hops, request, err: { kind: error.kind, message: error.message } }, 'route check refused call data');
    this.observer?.checked('refused', origin);
    throw error;
  }
}
