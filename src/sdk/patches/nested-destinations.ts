// Patch: the XCM program a type-and-then transfer carries names every onward chain as the chain
// running it sees it, and buys execution on a later hop with no more than can reach it.
//
// Corrects: sdk-core 11.14.8 (upstream 14.1.1 has the same code) writes the destination of the
// program it appends to `transfer_assets_using_type_and_then` (`custom_xcm_on_dest`, run by the
// call's `dest`, the reserve) with `createDestination(origin, ...)` in `createCustomXcm`: as the
// ORIGIN sees it. From a relay chain through Asset Hub, Polkadot -> Hydration DOT carried
// `DepositReserveAsset { dest: {parents: 0, Parachain(2034)} }` run on Asset Hub: a child of Asset
// Hub, which does not exist; the deposit fails and the refund appendix keeps the DOT on Asset Hub.
// The same program bought execution on the last chain with the whole amount sent
// (`resolveBuyExecutionAmount` without the hop fees it could not compute), though what arrives
// there is the amount less the reserve's fees: NotHoldingFees. Here every onward location of the
// program (`dest` of DepositReserveAsset, InitiateTeleport and TransferReserveAsset, `reserve` of
// InitiateReserveWithdraw, `destination` of V5 InitiateTransfer), at any depth, is re-anchored from
// the origin's view to the view of the chain that runs it (src/xcm/location.ts). When the call
// sends one asset (the SDK's DOT/KSM routes: it pays every hop), every BuyExecution / PayFees and
// every Definite asset an onward instruction takes names that asset as the running chain sees it
// (AssetHubPolkadot -> AssetHubKusama DOT bought on Kusama's asset hub with
// `{parents: 2, [GlobalConsensus(Polkadot), Parachain(1000)]}`, an asset that does not exist, for
// DOT `{parents: 2, [GlobalConsensus(Polkadot)]}`; the same the other way for KSM), and buys with at
// most half of it (what pallet-xcm's own remote-reserve programs give each hop; what a hop does not
// spend stays in its holding and is deposited). Where the origin's view equals the runner's (a parachain origin through
// a sibling reserve, Snowbridge's `{parents: 2, Ethereum}` from a parachain) nothing changes. A
// location that names nothing from the origin (more parents than the origin has) is refused.
//
// Still needed? Read sdk-core's `createCustomXcm` (the `destLoc` it passes to DepositReserveAsset /
// InitiateTeleport) and `resolveBuyExecutionAmount`: when the destination is made for the reserve
// (`createDestination(version, reserve.chain, ...)` or a reanchor) and the buy amount is bounded by
// what arrives, the patch goes. Remove it (its line in patches/index.ts) and run the guard tests:
// re-anchoring an already re-anchored location is wrong, so they fail once the SDK is fixed.
//
// Guarded by: test/http/nested-destinations.test.ts, all of "type-and-then programs name each hop
// as the chain that runs it" but the Snowbridge one (which it leaves unchanged);
// test/http/route-matrix.test.ts, the type-and-then routes of "/%s every route among the sandbox
// chains" (Polkadot -> Hydration and Moonbeam DOT, Hydration -> Polkadot, Moonbeam and
// BridgeHubPolkadot DOT, both ways over the asset hub bridge).
import type { TChain } from '@paraspell/sdk-pjs';
import { absolute, parseLocation, reanchor, toSdkJson, universalOf, variantOf, type Junction, type Loc } from '../../xcm/location';
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface Serialized {
  module: string;
  method: string;
  params: Record<string, unknown>;
}

interface SdkTxApi {
  /** The chain the API was initialised for (sdk-pjs's PolkadotJsApi keeps it here). */
  _chain?: TChain;
  deserializeExtrinsics(serialized: Serialized): unknown;
}

type Json = Record<string, unknown>;

/** Instructions that send what they hold on, the field naming where, and the field with the program run there. */
const ONWARD: Record<string, { where: string; program: string }> = {
  DepositReserveAsset: { where: 'dest', program: 'xcm' },
  InitiateTeleport: { where: 'dest', program: 'xcm' },
  TransferReserveAsset: { where: 'dest', program: 'xcm' },
  InitiateReserveWithdraw: { where: 'reserve', program: 'xcm' },
  InitiateTransfer: { where: 'destination', program: 'remote_xcm' },
};

/** Instructions holding a program run by the same chain. */
const SAME_CHAIN = new Set(['SetAppendix', 'SetErrorHandler']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{V4: x}` -> ['V4', x]. */
function versioned(value: unknown): [string, unknown] | null {
  const v = variantOf(value);
  return v !== null && /^V\d+$/.test(v[0]) ? v : null;
}

/** Where a chain sits in the universe. */
function universalOfChain(chain: TChain): Junction[] {
  if (chain === 'Ethereum') return universalOf('Ethereum');
  const substrate = chain as Exclude<TChain, 'Ethereum'>;
  return universalOf(sdk.getRelayChainOf(substrate), sdk.isRelayChain(substrate) ? undefined : sdk.getParaId(substrate));
}

/** A location in the SDK's spelling for `version` (V3 writes X1 as one junction, not a list). */
function written(location: Loc, version: string): unknown {
  const json = toSdkJson(location);
  if (version !== 'V3' || location.junctions.length !== 1) return json;
  return { parents: json.parents, interior: { X1: (json.interior as { X1: unknown[] }).X1[0] } };
}

/** The fungible amount of an SDK asset (`{id, fun: {Fungible: n}}`), if it is one. */
function amountOf(asset: unknown): bigint | null {
  const fun = isObject(asset) ? variantOf(asset.fun) : null;
  if (fun === null || fun[0] !== 'Fungible') return null;
  const amount = fun[1];
  return typeof amount === 'bigint' || typeof amount === 'number' || (typeof amount === 'string' && /^\d+$/.test(amount)) ? BigInt(amount) : null;
}

class NestedProgram {
  constructor(
    private readonly origin: Junction[],
    private readonly version: string,
    /** The one asset the call sends (origin's view), when it sends one: what pays every hop. */
    private readonly sent: { id: Loc; amount: bigint } | null,
  ) {}

  /** Rewrites `program`, run by the chain at `runner`, in place. */
  fix(program: unknown, runner: Junction[]): void {
    if (!Array.isArray(program)) return;
    for (const instruction of program) {
      const v = variantOf(instruction);
      if (v === null || !isObject(instruction)) continue;
      const [name, body] = v;
      const onward = ONWARD[name];
      if (onward && isObject(body)) this.fixOnward(name, body, onward, runner);
      else if (SAME_CHAIN.has(name)) this.fix(body, runner);
      else if ((name === 'BuyExecution' || name === 'PayFees') && isObject(body)) this.payWithTheAssetSent(body, runner);
    }
  }

  private fixOnward(name: string, body: Json, onward: { where: string; program: string }, runner: Junction[]): void {
    const location = parseLocation(body[onward.where]);
    if (location === null) return;
    const target = absolute(this.origin, location);
    const seen = reanchor(location, this.origin, runner);
    if (target === null || seen === null) {
      throw new sdk.InvalidParameterError(`The ${name} destination of the transfer's XCM program names no chain: ${JSON.stringify(body[onward.where])} has more parents than its origin`);
    }
    body[onward.where] = written(seen, this.version);
    this.takeTheAssetSent(body, runner);
    this.fix(body[onward.program], target);
  }

  /**
   * In a one-asset transfer the asset sent is the only one any hop holds: a purchase names it as
   * the hop sees it, and buys with at most half of it (a later hop never holds all that was sent).
   */
  private payWithTheAssetSent(body: Json, runner: Junction[]): void {
    const fees = body.fees ?? body.asset;
    if (this.sent === null || !isObject(fees)) return;
    const id = reanchor(this.sent.id, this.origin, runner);
    const amount = amountOf(fees);
    if (id === null || amount === null) return;
    fees.id = written(id, this.version);
    const cap = this.sent.amount / 2n;
    if (amount > cap) fees.fun = { Fungible: cap };
  }

  /** The assets an onward instruction takes from holding, when it names them: the asset sent, as the hop sees it. */
  private takeTheAssetSent(body: Json, runner: Junction[]): void {
    const definite = variantOf(body.assets);
    if (this.sent === null || definite === null || definite[0] !== 'Definite' || !Array.isArray(definite[1])) return;
    const id = reanchor(this.sent.id, this.origin, runner);
    if (id === null) return;
    for (const asset of definite[1]) if (isObject(asset)) asset.id = written(id, this.version);
  }
}

/** The one asset of a versioned asset list (origin's view), if the list holds exactly one fungible asset. */
function onlyAsset(assets: unknown): { id: Loc; amount: bigint } | null {
  const list = versioned(assets)?.[1];
  if (!Array.isArray(list) || list.length !== 1) return null;
  const id = isObject(list[0]) ? parseLocation(list[0].id) : null;
  const amount = amountOf(list[0]);
  return id === null || amount === null ? null : { id, amount };
}

/** Fixes the program of a serialized type-and-then call (a copy; the SDK's own object is left alone). */
function withProgramFixed(origin: TChain, serialized: Serialized): Serialized {
  const { dest, custom_xcm_on_dest: customXcm, assets } = serialized.params;
  const destination = parseLocation(versioned(dest)?.[1]);
  const program = versioned(customXcm);
  if (destination === null || program === null) return serialized;
  const from = universalOfChain(origin);
  const runner = absolute(from, destination);
  if (runner === null) return serialized;
  const copy = structuredClone(program[1]);
  new NestedProgram(from, program[0], onlyAsset(assets)).fix(copy, runner);
  return { ...serialized, params: { ...serialized.params, custom_xcm_on_dest: { [program[0]]: copy } } };
}

export function anchorNestedProgramsToTheirChains(): void {
  const proto = apiPrototypeOf<SdkTxApi>(sdk);
  const deserializeExtrinsics = proto.deserializeExtrinsics;
  proto.deserializeExtrinsics = function (this: SdkTxApi, serialized: Serialized) {
    const origin = this._chain;
    const fixed = origin !== undefined && isObject(serialized.params) && 'custom_xcm_on_dest' in serialized.params ? withProgramFixed(origin, serialized) : serialized;
    return deserializeExtrinsics.call(this, fixed);
  };
}
