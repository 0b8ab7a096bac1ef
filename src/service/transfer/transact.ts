// Transact: run a call on the destination, built by the service over @polkadot/api (sdk-pjs 11
// cannot build it). V3/V4 go through the origin's XCM pallet `send`, V5 through `execute` with
// InitiateTransfer; see docs/transfers-and-transact.md, "Transact", for what each asks of the caller.
import type { TChain, TCurrencyCore, TSubstrateChain } from '@paraspell/sdk-pjs';
import type { Codec } from '@polkadot/types-codec/types';
import type { Config } from '../../config';
import type { ConnectionPool } from '../../chains/pool';
import { ApiError, badRequest } from '../../errors';
import { sdk, type ApiPromise } from '../../sdk';
import { scaleAmount } from '../../schemas/amount-scale';
import type { TransferRequest } from '../../schemas/transfer';
import { runOnChains, sdkCall } from '../sdk-calls';
import { checkTransactRequest, transactVersion } from '../offline-checks';
import {
  accountJunction,
  executeProgram,
  location,
  normalize,
  sendProgram,
  versionedAssetId,
  versionedLocation,
  type Location,
  type OriginKind,
  type TransactStep,
  type TransferKind,
  type Weight,
} from './xcm-programs';

/** The validated payload (`transact` in /v5, `transactOptions` in /v2). */
export interface TransactPayload {
  hex: string;
  originKind: OriginKind;
  maxWeight?: { refTime: string; proofSize: string };
}

/** A transfer-shaped request that may carry a transact payload. */
export type TransactCandidate = TransferRequest & { transact?: TransactPayload; swapOptions?: unknown };

export type TransactRequest = TransferRequest & { transact: TransactPayload; to: TSubstrateChain; from: TSubstrateChain; recipient: string; sender: string };

/** Upstream pads the fee estimated from a dry run by 40% before it goes into the message. */
const FEE_PADDING_PERCENT = 140n;

const refuse = (message: string, kind = 'UnsupportedOperationError'): ApiError => badRequest(kind, message);

/** Relay chains and system chains (AssetHub, BridgeHub, People, Coretime, Collectives, Encointer) and Mythos. */
const isTrusted = (chain: TChain): boolean => sdk.isTrustedChain(chain);

// ---- locations of the route ---------------------------------------------------------------

/** Where `to` is, seen from `from` (same ecosystem). */
function chainLocation(from: TSubstrateChain, to: TSubstrateChain): Location {
  if (sdk.isRelayChain(to)) return location(1, []);
  const para = { Parachain: sdk.getParaId(to) };
  return sdk.isRelayChain(from) ? location(0, [para]) : location(1, [para]);
}

interface RouteAsset {
  onOrigin: Location;
  onDestination: Location;
  amount: bigint;
  symbol: string;
  reserve: TChain;
}

function resolveAsset(req: TransactRequest): RouteAsset {
  const currency = req.currency as TCurrencyCore & { amount: string };
  const info = sdkCall(() => sdk.findAssetInfo(req.from, currency, req.to));
  if (!info) throw badRequest('InvalidCurrencyError', `${req.from} has no asset matching the currency given`);
  if (!info.location) throw badRequest('InvalidCurrencyError', `${info.symbol} on ${req.from} has no location in the registry; select the asset by its location`);
  const amount = req.options.abstractDecimals ? scaleAmount(currency.amount, info.decimals) : BigInt(currency.amount);
  if (amount === 0n) throw badRequest('NumberFormatError', 'transact needs an amount above zero of the fee asset');
  return {
    onOrigin: normalize(sdk.localizeLocation(req.from, info.location)),
    onDestination: normalize(sdk.localizeLocation(req.to, info.location)),
    amount,
    symbol: info.symbol,
    reserve: sdkCall(() => sdk.getAssetReserveChain(req.from, info.location!)) as TChain,
  };
}

// ---- the call ------------------------------------------------------------------------------

const hexOf = (codec: Codec): `0x${string}` => codec.toHex() as `0x${string}`;

/**
 * The call's SCALE bytes, checked against the destination's metadata. A whole extrinsic given by
 * mistake (compact length, version byte, call) is reduced to its call.
 */
export function destinationCall(api: ApiPromise, chain: string, hex: string): `0x${string}` {
  const bytes = Buffer.from(hex.slice(2), 'hex');
  let callError: unknown;
  try {
    const call = api.registry.createType('Call', bytes);
    if (call.encodedLength === bytes.length) return hexOf(call);
    callError = new Error(`${bytes.length - call.encodedLength} byte(s) left over after ${call.section}.${call.method}`);
  } catch (error) {
    callError = error;
  }
  try {
    const extrinsic = api.registry.createType('Extrinsic', bytes);
    if (extrinsic.encodedLength === bytes.length) return hexOf(extrinsic.method);
  } catch {
    // Not an extrinsic either: report why it is not a call.
  }
  const reason = callError instanceof Error ? callError.message.split('\n')[0] : String(callError);
  throw badRequest('ValidationError', `transact hex is not a call of ${chain} (spec ${api.runtimeVersion.specVersion.toString()}): ${reason}`);
}

/** A runtime API the route needs, or a 400 naming the chain. */
function runtimeApi(api: ApiPromise, chain: string, name: string, method: string, instead: string): (...args: unknown[]) => Promise<Codec> {
  const fn = (api.call as Record<string, Record<string, ((...args: unknown[]) => Promise<Codec>) | undefined> | undefined>)[name]?.[method];
  if (!fn) throw badRequest('RuntimeApiUnavailableError', `${chain} does not offer the runtime API ${name}.${method}, which this transact needs; ${instead}`);
  return fn;
}

const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** A JSON-RPC error the node answered (`-32000: ...`), as opposed to a connection that failed. */
const isRpcError = (error: unknown): boolean => error instanceof Error && /^-?\d+: /.test(error.message);

/**
 * Runs a runtime call. The runtime refusing it is a 400 of `kind` naming the chain and saying what
 * to do; a connection that fails underneath is a 503.
 */
async function ask(what: string, chain: string, kind: string, instead: string, run: () => Promise<Codec>): Promise<Codec> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (!isRpcError(error)) throw new ApiError(503, 'ProviderUnavailableError', `${chain} did not answer ${what}: ${firstLine(error)}`, undefined, { 'Retry-After': '5' });
    throw badRequest(kind, `${what} failed on ${chain}: ${firstLine(error)}; ${instead}`);
  }
}

interface WeightCodec extends Codec {
  refTime: { toBigInt(): bigint };
  proofSize: { toBigInt(): bigint };
}

const toWeight = (w: WeightCodec): Weight => ({ refTime: w.refTime.toBigInt(), proofSize: w.proofSize.toBigInt() });

interface ResultCodec<T> extends Codec {
  isOk: boolean;
  asOk: T;
  asErr: Codec;
}

/** V3/V4 without maxWeight: the weight the destination charges for the call (TransactionPaymentApi_query_info). */
async function estimateWeight(api: ApiPromise, chain: string, call: `0x${string}`, sender: string): Promise<Weight> {
  const instead = 'send maxWeight {refTime, proofSize} in the transact payload yourself';
  runtimeApi(api, chain, 'transactionPaymentApi', 'queryInfo', instead);
  const info = (await ask('Estimating the call weight (TransactionPaymentApi_query_info)', chain, 'UnableToComputeError', instead, () =>
    api.tx(api.createType('Call', call)).paymentInfo(sender) as Promise<Codec>,
  )) as Codec & { weight: WeightCodec };
  return toWeight(info.weight);
}

// ---- V5: prices from dry runs --------------------------------------------------------------

interface DryRunCallEffects extends Codec {
  executionResult: ResultCodec<Codec> & { asErr: Codec & { error: DispatchErrorCodec } };
  forwardedXcms: Codec & [Codec, Codec[]][];
}

interface DispatchErrorCodec extends Codec {
  isModule: boolean;
  asModule: Codec;
}

interface XcmDryRunEffects extends Codec {
  executionResult: Codec & { isComplete: boolean; asComplete: Codec & { used: WeightCodec } };
}

const V5_INSTEAD = 'send xcmVersion V4 to build the send path (funds pre-placed on the destination) instead';

function dispatchErrorText(api: ApiPromise, error: DispatchErrorCodec): string {
  try {
    if (error.isModule) {
      const meta = api.registry.findMetaError(error.asModule as unknown as Uint8Array);
      return `${meta.section}.${meta.name}`;
    }
  } catch {
    // An index the metadata does not know: show the raw error.
  }
  return JSON.stringify(error.toHuman());
}

/** Dry-runs the execute on the origin as the sender; the message it forwards to the destination. */
async function dryRunOnOrigin(api: ApiPromise, req: TransactRequest, execute: Codec, destination: Location): Promise<Codec> {
  const dryRunCall = runtimeApi(api, req.from, 'dryRunApi', 'dryRunCall', V5_INSTEAD);
  const args: unknown[] = [{ System: { Signed: req.sender } }, execute];
  if ((dryRunCall as unknown as { meta: { params: unknown[] } }).meta.params.length > 2) args.push(5);
  const result = (await ask('Dry-running the execute (DryRunApi_dry_run_call)', req.from, 'DryRunFailedError', V5_INSTEAD, () => dryRunCall(...args))) as ResultCodec<DryRunCallEffects>;
  if (!result.isOk) throw badRequest('DryRunFailedError', `The dry run on ${req.from} was refused: ${JSON.stringify(result.asErr.toHuman())}`);
  const effects = result.asOk;
  if (!effects.executionResult.isOk) {
    throw badRequest('DryRunFailedError', `The execute fails on ${req.from} for ${req.sender}: ${dispatchErrorText(api, effects.executionResult.asErr.error)} (does the sender hold the amount and the fees?)`);
  }
  const destKey = api.createType('XcmVersionedLocation', versionedLocation(destination, 'V5'));
  const forwarded = effects.forwardedXcms.find(([where]) => where.eq(destKey));
  const message = forwarded?.[1][0];
  if (!message) throw badRequest('DryRunFailedError', `The execute on ${req.from} sends no message to ${req.to} in its dry run`);
  return message;
}

/** Dry-runs the forwarded message on the destination: the weight it uses there. */
async function dryRunOnDestination(api: ApiPromise, req: TransactRequest, message: Codec): Promise<Weight> {
  const dryRunXcm = runtimeApi(api, req.to, 'dryRunApi', 'dryRunXcm', V5_INSTEAD);
  const origin = versionedLocation(chainLocation(req.to, req.from), 'V5');
  let xcm: Codec;
  try {
    xcm = api.createType('XcmVersionedXcm', message.toU8a());
  } catch (error) {
    throw badRequest('UnsupportedOperationError', `${req.to} does not read XCM V5 messages (${firstLine(error)}); ${V5_INSTEAD}`);
  }
  const result = (await ask('Dry-running the message on the destination (DryRunApi_dry_run_xcm)', req.to, 'DryRunFailedError', V5_INSTEAD, () =>
    dryRunXcm(origin, xcm),
  )) as ResultCodec<XcmDryRunEffects>;
  if (!result.isOk) throw badRequest('DryRunFailedError', `The dry run on ${req.to} was refused: ${JSON.stringify(result.asErr.toHuman())}`);
  const outcome = result.asOk.executionResult;
  if (!outcome.isComplete) {
    throw badRequest('DryRunFailedError', `The message fails on ${req.to}: ${JSON.stringify(outcome.toHuman())} (a failing AliasOrigin means ${req.to} does not let ${req.from} keep the sender's origin; ${V5_INSTEAD})`);
  }
  return toWeight(outcome.asComplete.used);
}

/** The destination's price of `weight` in the asset (XcmPaymentApi_query_weight_to_asset_fee). */
async function feeOnDestination(api: ApiPromise, req: TransactRequest, weight: Weight, asset: RouteAsset): Promise<bigint> {
  const query = runtimeApi(api, req.to, 'xcmPaymentApi', 'queryWeightToAssetFee', V5_INSTEAD);
  const result = (await ask('Pricing execution (XcmPaymentApi_query_weight_to_asset_fee)', req.to, 'UnableToComputeError', V5_INSTEAD, () =>
    query(weight, versionedAssetId(asset.onDestination, 'V5')),
  )) as ResultCodec<Codec & { toBigInt(): bigint }>;
  if (!result.isOk) throw badRequest('UnableToComputeError', `${req.to} does not take ${asset.symbol} for execution fees (${JSON.stringify(result.asErr.toHuman())}); pick another currency`);
  return result.asOk.toBigInt();
}

/** The origin's weight of the whole program, the `max_weight` of execute (XcmPaymentApi_query_xcm_weight). */
async function programWeight(api: ApiPromise, chain: string, program: unknown): Promise<Weight> {
  const query = runtimeApi(api, chain, 'xcmPaymentApi', 'queryXcmWeight', V5_INSTEAD);
  const result = (await ask('Weighing the message (XcmPaymentApi_query_xcm_weight)', chain, 'UnableToComputeError', V5_INSTEAD, () => query(program))) as ResultCodec<WeightCodec>;
  if (!result.isOk) throw badRequest('UnableToComputeError', `${chain} cannot weigh the message: ${JSON.stringify(result.asErr.toHuman())}`);
  return toWeight(result.asOk);
}

/** How the asset travels: teleport between trusted chains, else from or back to its reserve. */
function transferKind(req: TransactRequest, asset: RouteAsset): TransferKind {
  if (isTrusted(req.from) && isTrusted(req.to)) return 'Teleport';
  if (asset.reserve === req.from) return 'ReserveDeposit';
  if (asset.reserve === req.to) return 'ReserveWithdraw';
  throw refuse(`${asset.symbol}'s reserve is ${asset.reserve}, neither ${req.from} nor ${req.to}: transact over V5 moves the asset directly; pick an asset whose reserve is one of them`);
}

const MAX_WEIGHT: Weight = { refTime: 2n ** 64n - 1n, proofSize: 2n ** 64n - 1n };

type Tx = (...args: unknown[]) => { method: Codec };

function xcmCall(api: ApiPromise, chain: TSubstrateChain, method: 'send' | 'execute'): Tx {
  const pallet = sdk.isRelayChain(chain) ? 'xcmPallet' : 'polkadotXcm';
  const fn = (api.tx as unknown as Record<string, Record<string, Tx | undefined> | undefined>)[pallet]?.[method];
  if (!fn) throw refuse(`${chain} has no ${pallet}.${method}, which transact needs`);
  return fn;
}

/** Passes call data built on the origin (decoded with its metadata) before it is answered: the route check. */
export type CheckCallData = (registry: ApiPromise['registry'], hex: string) => string;

/** Builds the transact's call data (`tx.method.toHex()`) over pooled connections; `checked` sees it before it is answered. */
export function buildTransact(pool: ConnectionPool, config: Config, candidate: TransactCandidate, checked: CheckCallData): Promise<string> {
  checkTransactRequest(candidate);
  // The checks above (also run by checkBeforeDial) establish every field TransactRequest narrows.
  const req = candidate as TransactRequest;
  const version = transactVersion(req);
  const asset = resolveAsset(req);
  const beneficiary = location(0, [accountJunction(req.recipient)]);
  const destination = chainLocation(req.from, req.to);
  const given = req.transact.maxWeight && { refTime: BigInt(req.transact.maxWeight.refTime), proofSize: BigInt(req.transact.maxWeight.proofSize) };

  return runOnChains(pool, config, req.options, `Building a transact ${req.from} -> ${req.to}`, async (call) => {
    const [origin, dest] = (await Promise.all([call.apiOverrides[req.from], call.apiOverrides[req.to]])) as [ApiPromise, ApiPromise];
    const step: TransactStep = { originKind: req.transact.originKind, call: destinationCall(dest, req.to, req.transact.hex), weight: given };

    if (version !== 'V5') {
      step.weight ??= await estimateWeight(dest, req.to, step.call, req.sender);
      const program = sendProgram({ version, destination, asset: asset.onDestination, amount: asset.amount, beneficiary, transact: step });
      return checked(origin.registry, xcmCall(origin, req.from, 'send')(program.dest, program.message).method.toHex());
    }

    const execute = xcmCall(origin, req.from, 'execute');
    const kind = transferKind(req, asset);
    const program = (remoteFee: bigint) => executeProgram({ destination, asset: asset.onOrigin, amount: asset.amount, remoteFee, kind, beneficiary, transact: step });
    // A first version of the message (half the amount as remote fees) tells what the destination will run.
    const forwarded = await dryRunOnOrigin(origin, req, execute(program(asset.amount / 2n), MAX_WEIGHT).method, destination);
    const used = await dryRunOnDestination(dest, req, forwarded);
    const remoteFee = ((await feeOnDestination(dest, req, used, asset)) * FEE_PADDING_PERCENT) / 100n;
    if (remoteFee >= asset.amount) {
      throw badRequest('AmountTooLowError', `The amount does not cover execution on ${req.to}: send more than ${remoteFee} (base units of ${asset.symbol}, fees padded by 40%)`);
    }
    const final = program(remoteFee);
    return checked(origin.registry, execute(final, await programWeight(origin, req.from, final)).method.toHex());
  });
}
