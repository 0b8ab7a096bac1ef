// What a call moves: for each movement of value, its kind, ends, beneficiary and assets, plus the
// XCM program the call sends or implies. Reads decoded calls only; no chain is asked here.
import type { TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import type { Call } from '@polkadot/types/interfaces';
import { sdk } from '../../sdk';
import { plain } from './call-decoder';
import {
  accountAddress,
  amountText,
  assetAt,
  beneficiaryAddress,
  ecosystemOf,
  isObject,
  junctionsOf,
  readAsset,
  readAssets,
  resolve,
  unversion,
  variant,
  weightLimit,
  assetAmount,
} from './xcm-reader';
import { readProgram } from './xcm-sentences';
import type { AssetAmount, CallReading, TransferKind, TransferView, XcmStep } from './views';

const TRUSTED = /^(AssetHub|BridgeHub|People|Coretime|Collectives|Encointer)/;
const isTrusted = (chain: TChain | null): boolean => chain !== null && ((sdk.RELAYCHAINS as readonly string[]).includes(chain) || TRUSTED.test(chain));

const args = (call: Call): Record<string, unknown> => Object.fromEntries(call.argsEntries.map(([name, value]) => [name, plain(value)]));

function reserveOf(origin: TChain, asset: AssetAmount): TChain | null {
  if (origin === 'Ethereum') return null;
  try {
    const info = assetAt(origin, asset.location);
    if (!info?.location) return null;
    return sdk.getAssetReserveChain(origin as TSubstrateChain, info.location);
  } catch {
    return null;
  }
}

function kindOf(origin: TChain, dest: TChain | null, method: string, asset: AssetAmount | undefined, transferType?: string): TransferKind {
  if (dest === 'Ethereum') return 'toEthereum';
  if (dest !== null && ecosystemOf(dest) !== ecosystemOf(origin)) return 'bridge';
  if (/teleport/i.test(method) || transferType === 'Teleport') return 'teleport';
  if (transferType === 'RemoteReserve') return 'throughReserve';
  if (transferType === 'LocalReserve' || transferType === 'DestinationReserve') return 'reserveTransfer';
  const reserve = asset ? reserveOf(origin, asset) : null;
  if (method === 'transferAssets' && isTrusted(origin) && isTrusted(dest) && (reserve === null || reserve === origin || reserve === dest)) {
    return reserve === origin || reserve === dest ? 'reserveTransfer' : 'teleport';
  }
  if (reserve !== null && reserve !== origin && reserve !== dest) return 'throughReserve';
  return 'reserveTransfer';
}

/** The program the destination runs for a transfer extrinsic (the pallet writes it, the call only implies it). */
function impliedProgram(kind: TransferKind, origin: TChain, view: TransferView, viaReserve: TChain | null): XcmStep[] {
  const dest = view.destination;
  const assets = view.assets.map(amountText).join(', ');
  const fee = view.feeAsset ? amountText(view.feeAsset) : 'the first asset';
  const to = typeof view.beneficiary === 'string' ? view.beneficiary : JSON.stringify(view.beneficiary.location);
  const arrive: Record<TransferKind, string> = {
    local: '',
    teleport: `Mint ${assets} teleported from ${origin} into the holding`,
    reserveTransfer: `Credit ${assets} to the holding, backed by the reserve`,
    throughReserve: `Credit ${assets} to the holding, backed by the reserve ${viaReserve ?? ''}`.trim(),
    bridge: `Receive ${assets} over the bridge from ${origin}`,
    toEthereum: `Release ${assets} on Ethereum through the bridge`,
  };
  const steps: XcmStep[] = [{ chain: origin, instruction: 'WithdrawAsset', text: `Take ${assets} from the signer's account on ${origin}` }];
  if (kind === 'throughReserve' && viaReserve) {
    steps.push({ chain: viaReserve, instruction: 'WithdrawAsset', text: `Withdraw ${assets} from ${origin}'s account on the reserve ${viaReserve}, pay fees and deposit them to ${dest}'s account` });
  }
  steps.push(
    { chain: dest, instruction: 'Arrive', text: arrive[kind] },
    { chain: dest, instruction: 'BuyExecution', text: `Pay for execution with up to ${fee}, with ${view.feeLimit === 'unlimited' || view.feeLimit === undefined ? 'no weight limit' : `a weight limit of ${view.feeLimit.refTime} ref time`}` },
    { chain: dest, instruction: 'DepositAsset', text: `Deposit everything left to ${to} on ${dest}` },
  );
  return steps;
}

/** The beneficiary of the first DepositAsset of a program, or of a program it sends on. */
function depositIn(program: unknown): unknown {
  for (const instruction of Array.isArray(program) ? program : []) {
    const [name, value] = variant(instruction);
    if (!isObject(value)) continue;
    if (name === 'DepositAsset') return value.beneficiary;
    const found = depositIn(value.xcm ?? value.remoteXcm);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** polkadotXcm / xcmPallet transfers: dest, beneficiary, assets, fee item, weight limit. */
function readXcmPalletTransfer(origin: TChain, call: Call, out: CallReading): void {
  const a = args(call);
  const place = resolve(origin, unversion(a.dest).value);
  const destChain = place.chain;
  const assets = readAssets(origin, a.assets);
  let beneficiaryLocation: unknown = a.beneficiary !== undefined ? unversion(a.beneficiary).value : undefined;
  let transferType: string | undefined;
  let feeIndex = Number(a.fee_asset_item ?? 0);
  if (call.method === 'transferAssetsUsingTypeAndThen') {
    transferType = variant(a.assets_transfer_type)[0];
    const feeId = unversion(a.remote_fees_id).value;
    feeIndex = Math.max(0, assets.findIndex((x) => JSON.stringify(x.location) === JSON.stringify(feeId)));
    // The beneficiary stands in the custom program's DepositAsset, maybe in a program it sends on.
    beneficiaryLocation = depositIn(unversion(a.custom_xcm_on_dest).value);
  }
  const kind = kindOf(origin, destChain, call.method, assets[0], transferType);
  const beneficiary = (destChain && beneficiaryAddress(destChain, beneficiaryLocation)) ?? { location: beneficiaryLocation ?? null };
  const view: TransferView = {
    kind,
    origin,
    destination: destChain ?? 'unknown',
    ...(destChain ? {} : { destinationLocation: a.dest }),
    beneficiary,
    assets,
    ...(assets[feeIndex] ? { feeAsset: assets[feeIndex] } : {}),
    feeLimit: a.weight_limit === undefined ? 'unlimited' : weightLimit(a.weight_limit),
  };
  out.transfers.push(view);
  const viaReserve = assets[0] ? reserveOf(origin, assets[0]) : null;
  out.xcm.push(...impliedProgram(kind, origin, view, viaReserve));
}

/** xTokens: the destination location ends with the beneficiary's account. */
function readXTokens(origin: TChain, call: Call, out: CallReading): void {
  const a = args(call);
  const destLocation = unversion(a.dest).value;
  const junctions = junctionsOf(destLocation);
  const account = junctions[junctions.length - 1];
  const chainLocation = isObject(destLocation)
    ? { parents: destLocation.parents, interior: junctions.length <= 1 ? { here: null } : { [`x${junctions.length - 1}`]: (variant(destLocation.interior)[1] as unknown[]).slice(0, -1) } }
    : destLocation;
  const place = resolve(origin, chainLocation);
  const destChain = place.chain;
  let assets: AssetAmount[];
  if (call.method === 'transfer' || call.method === 'transferWithFee') {
    const info = (() => {
      try {
        return sdk.findAssetInfo(origin, { id: currencyIdOf(a.currency_id) }, null);
      } catch {
        return null;
      }
    })();
    assets = [assetAmount(info, String(a.amount), a.currency_id)];
  } else if (call.method === 'transferMultiasset' || call.method === 'transferMultiassetWithFee') {
    assets = [readAsset(origin, unversion(a.asset).value)];
  } else {
    assets = readAssets(origin, a.assets);
  }
  const view: TransferView = {
    kind: kindOf(origin, destChain, call.method, assets[0]),
    origin,
    destination: destChain ?? 'unknown',
    ...(destChain ? {} : { destinationLocation: a.dest }),
    beneficiary: accountAddress(account, destChain) ?? { location: destLocation },
    assets,
    feeLimit: weightLimit(a.dest_weight_limit),
  };
  out.transfers.push(view);
  out.xcm.push(...impliedProgram(view.kind, origin, view, assets[0] ? reserveOf(origin, assets[0]) : null));
}

/** Currency ids decode as numbers, strings or enums (`{token: 'BNC'}`): the registry matches the plain id. */
function currencyIdOf(id: unknown): string {
  if (isObject(id)) {
    const [, value] = variant(id);
    return String(value);
  }
  return String(id);
}

const LOCAL: Record<string, { dest: string; amount?: string; asset?: string; keepAlive: boolean | 'arg' }> = {
  'balances.transferKeepAlive': { dest: 'dest', amount: 'value', keepAlive: true },
  'balances.transferAllowDeath': { dest: 'dest', amount: 'value', keepAlive: false },
  'balances.transfer': { dest: 'dest', amount: 'value', keepAlive: false },
  'balances.transferAll': { dest: 'dest', keepAlive: 'arg' },
  'assets.transfer': { dest: 'target', amount: 'amount', asset: 'id', keepAlive: false },
  'assets.transferKeepAlive': { dest: 'target', amount: 'amount', asset: 'id', keepAlive: true },
  'foreignAssets.transfer': { dest: 'target', amount: 'amount', asset: 'id', keepAlive: false },
  'foreignAssets.transferKeepAlive': { dest: 'target', amount: 'amount', asset: 'id', keepAlive: true },
  'tokens.transfer': { dest: 'dest', amount: 'amount', asset: 'currency_id', keepAlive: false },
  'tokens.transferKeepAlive': { dest: 'dest', amount: 'amount', asset: 'currency_id', keepAlive: true },
  'tokens.transferAll': { dest: 'dest', asset: 'currency_id', keepAlive: 'arg' },
  'currencies.transfer': { dest: 'dest', amount: 'amount', asset: 'currency_id', keepAlive: false },
};

function localAsset(chain: TChain, pallet: string, id: unknown): ReturnType<typeof sdk.findAssetInfo> {
  try {
    if (id === undefined) return sdk.findNativeAssetInfo(chain);
    if (pallet === 'foreignAssets') return assetAt(chain, id);
    return sdk.findAssetInfo(chain, { id: currencyIdOf(id) }, null);
  } catch {
    return null;
  }
}

function readLocal(chain: TChain, call: Call, out: CallReading): void {
  const spec = LOCAL[`${call.section}.${call.method}`]!;
  const a = args(call);
  const dest = a[spec.dest];
  const address = isObject(dest) && 'id' in dest ? String(dest.id) : String(dest);
  const info = localAsset(chain, call.section, spec.asset ? a[spec.asset] : undefined);
  const keepAlive = spec.keepAlive === 'arg' ? Boolean(a.keep_alive) : spec.keepAlive;
  const assets = [assetAmount(info, spec.amount ? String(a[spec.amount]) : 'ALL', spec.asset ? a[spec.asset] : null)];
  out.transfers.push({ kind: 'local', origin: chain, destination: chain, beneficiary: address, assets, keepAlive });
}

/** How an instruction that sends assets on moves them. */
const SENDING: Record<string, TransferKind> = {
  InitiateTeleport: 'teleport',
  DepositReserveAsset: 'reserveTransfer',
  InitiateReserveWithdraw: 'reserveTransfer',
  TransferReserveAsset: 'reserveTransfer',
};

/**
 * The movements of an `execute` program (or of the program a transfer runs on its destination,
 * read from there with the assets it brings `held`): assets withdrawn on the origin that a later
 * instruction sends on and a DepositAsset on another chain hands to a beneficiary.
 */
export function programTransfers(origin: TChain, chain: TChain | null, program: unknown, held: AssetAmount[], kind: TransferKind | null, out: TransferView[]): void {
  for (const instruction of (unversion(program).value as unknown[]) ?? []) {
    const [name, value] = variant(instruction);
    const o = isObject(value) ? value : {};
    if (name === 'WithdrawAsset' && chain === origin) held = readAssets(origin, value);
    else if (name === 'InitiateTransfer') {
      const dest = chain ? resolve(chain, o.destination).chain : null;
      const [first] = Array.isArray(o.assets) ? o.assets : [];
      const how = variant(first)[0];
      const moved: TransferKind = dest === 'Ethereum' ? 'toEthereum' : dest && ecosystemOf(dest) !== ecosystemOf(origin) ? 'bridge' : how === 'Teleport' ? 'teleport' : 'reserveTransfer';
      programTransfers(origin, dest, o.remoteXcm, held, moved, out);
    } else if (SENDING[name]) {
      const dest = chain ? resolve(chain, o.reserve ?? o.dest).chain : null;
      programTransfers(origin, dest, o.xcm, held, dest === 'Ethereum' ? 'toEthereum' : kind === null ? SENDING[name]! : 'throughReserve', out);
    } else if (name === 'DepositAsset' && kind !== null) {
      out.push({
        kind,
        origin,
        destination: chain ?? 'unknown',
        beneficiary: (chain && beneficiaryAddress(chain, o.beneficiary)) ?? { location: o.beneficiary },
        assets: held,
      });
    }
  }
}

/** utility.batch, batchAll or forceBatch: read as its calls, in order. */
export const isBatch = (call: Call): boolean => call.section === 'utility' && ['batch', 'batchAll', 'forceBatch'].includes(call.method);

/** Reads one call, and the calls it nests, as executed on `chain`. */
export function readCall(chain: TChain, call: Call, out: CallReading): void {
  const id = `${call.section}.${call.method}`;
  const a = () => args(call);
  if (isBatch(call)) {
    for (const inner of call.args[0] as unknown as Call[]) readCall(chain, inner, out);
  } else if (id === 'proxy.proxy' || id === 'proxy.proxyAnnounced' || id === 'utility.asDerivative') {
    readCall(chain, call.args[id === 'proxy.proxy' ? 2 : id === 'utility.asDerivative' ? 1 : 3] as unknown as Call, out);
  } else if ((call.section === 'polkadotXcm' || call.section === 'xcmPallet') && call.method === 'send') {
    const args = a();
    const dest = resolve(chain, unversion(args.dest).value).chain;
    out.xcm.push(...readProgram(dest, args.message));
  } else if ((call.section === 'polkadotXcm' || call.section === 'xcmPallet') && call.method === 'execute') {
    const message = a().message;
    out.xcm.push(...readProgram(chain, message));
    programTransfers(chain, chain, message, [], null, out.transfers);
  } else if (call.section === 'polkadotXcm' || call.section === 'xcmPallet') {
    readXcmPalletTransfer(chain, call, out);
  } else if (call.section === 'xTokens') {
    readXTokens(chain, call, out);
  } else if (LOCAL[id]) {
    readLocal(chain, call, out);
  } else {
    out.unknown.push(id);
  }
}
