// The local XCM program pallet-xcm (and orml-xtokens) executes for a transfer, as the real pallets
// build it: withdraw the assets from the sender, then teleport them (InitiateTeleport), deposit
// them in the destination's sovereign account (DepositReserveAsset, this chain the reserve), send
// them back to their reserve (InitiateReserveWithdraw), or through a third chain, the reserve
// (InitiateReserveWithdraw whose program does DepositReserveAsset). The destination's program buys
// execution with the fee asset and deposits to the beneficiary, or runs the caller's own program
// (transferAssetsUsingTypeAndThen). Delivery fees are taken from the sender (jit_withdraw).
import { absolute, reanchor, sameLocation, type Loc } from '../xcm/location';
import { assetById, nativeOf } from './assets';
import type { SandboxChainName } from './chain-data';
import { ChainError } from './ledger';
import { xcmPalletOf } from './topology';
import { chainAt, reanchored, reservesOf, teleports, universal } from './xcm-executor';
import { assetJson, assetsIn, locationOf, locJson, programOf, type Asset, type Instruction } from './xcm-program';

export type TransferKind = 'teleport' | 'reserve' | 'any' | 'local' | 'destination' | { remote: Loc };

export interface LocalProgram {
  program: Instruction[];
  jit: boolean;
}

/** The signer as pallet-xcm names the origin (AccountKey20 on Moonbeam). */
export function senderLocation(signer: string): { parents: number; interior: { X1: [Record<string, unknown>] } } {
  const junction = signer.length === 42 ? { AccountKey20: { network: null, key: signer } } : { AccountId32: { network: null, id: signer } };
  return { parents: 0, interior: { X1: [junction] } };
}

export const interiorJson = (junctions: Loc['junctions']): unknown => (locJson({ parents: 0, junctions }) as { interior: unknown }).interior;
export const destinationJson = (from: SandboxChainName, to: SandboxChainName): unknown => locJson(reanchor({ parents: 0, junctions: universal(to) }, [], universal(from))!);

const wildAll = (n: number) => ({ Wild: { AllCounted: n } });
/** The real relays' existential deposits (balances.existentialDeposit): their check account takes no teleport below it. */
const RELAY_EXISTENTIAL_DEPOSIT: Partial<Record<SandboxChainName, bigint>> = { Polkadot: 10_000_000_000n, Kusama: 33_333_333n };
const half = (a: Asset): Asset => ({ id: a.id, amount: a.amount / 2n });

/** The program for a transfer of `assets` to `dest` (as this chain writes it); `onDest` replaces the deposit to `beneficiary`. */
export function transferProgram(chain: SandboxChainName, dest: Loc, beneficiary: Loc | undefined, assets: Asset[], feeIndex: number, kind: TransferKind, onDest?: Instruction[], weightLimit: unknown = 'Unlimited'): LocalProgram {
  // The call's weight_limit bounds each BuyExecution the message makes on the way.
  const buy = (fee: Asset) => ({ BuyExecution: { fees: assetJson(fee), weightLimit } });
  const to = chainAt(chain, dest);
  if (!to || to === chain) throw new ChainError(xcmPalletOf(chain), 'Unreachable', `${chain} has no route to ${JSON.stringify(locJson(dest))}`);
  const fee = assets[feeIndex];
  if (!fee) throw new ChainError(xcmPalletOf(chain), 'Empty', 'no fee asset');
  const resolved = resolveKind(chain, to, fee, kind);
  const ed = resolved === 'teleport' ? RELAY_EXISTENTIAL_DEPOSIT[chain] : undefined;
  if (ed !== undefined && assets.some((a) => a.amount < ed && sameLocation(a.id, { parents: 0, junctions: [] }))) throw new ChainError(xcmPalletOf(chain), 'CannotCheckOutTeleport', `below ${chain}'s existential deposit`);
  const n = assets.length;
  const tail = onDest ? onDest.map(([name, v]) => ({ [name]: v })) : [{ DepositAsset: { assets: wildAll(n), beneficiary: locJson(beneficiary!) } }];
  const head = [{ SetFeesMode: { jitWithdraw: true } }, { WithdrawAsset: assets.map(assetJson) }];
  let program: unknown[];
  if (resolved === 'teleport') program = [...head, { InitiateTeleport: { assets: wildAll(n), dest: locJson(dest), xcm: [buy(reanchored(fee, chain, to)), ...tail] } }];
  else if (resolved === 'local') program = [...head, { DepositReserveAsset: { assets: wildAll(n), dest: locJson(dest), xcm: [buy(reanchored(fee, chain, to)), ...tail] } }];
  else if (resolved === 'destination') program = [...head, { InitiateReserveWithdraw: { assets: wildAll(n), reserve: locJson(dest), xcm: [buy(reanchored(fee, chain, to)), ...tail] } }];
  else {
    const reserve = chainAt(chain, resolved.remote);
    if (!reserve) throw new ChainError(xcmPalletOf(chain), 'Unreachable', 'no route to the reserve');
    const destFromReserve = reanchor(dest, universal(chain), universal(reserve))!;
    const onward = { DepositReserveAsset: { assets: wildAll(n), dest: locJson(destFromReserve), xcm: [buy(half(reanchored(fee, chain, to))), ...tail] } };
    program = [...head, { InitiateReserveWithdraw: { assets: wildAll(n), reserve: locJson(resolved.remote), xcm: [buy(half(reanchored(fee, chain, reserve))), onward] } }];
  }
  return { program: programOf(program), jit: true };
}

/** Teleport where the chains trust each other, else by the asset's reserve; a call that names its kind must get it. */
function resolveKind(chain: SandboxChainName, to: SandboxChainName, fee: Asset, kind: TransferKind): 'teleport' | 'local' | 'destination' | { remote: Loc } {
  const pallet = xcmPalletOf(chain);
  const path = absolute(universal(chain), fee.id);
  if (!path) throw new ChainError(pallet, 'InvalidAssetUnknownReserve', 'the asset names nothing');
  const canTeleport = teleports(chain, to, path);
  if (kind === 'teleport' && !canTeleport) throw new ChainError(pallet, 'Filtered', `${chain} and ${to} do not teleport this asset`);
  if (kind === 'reserve' && canTeleport) throw new ChainError(pallet, 'Filtered', 'a teleportable asset cannot be reserve-transferred');
  if (kind === 'teleport' || (kind === 'any' && canTeleport)) return 'teleport';
  if (typeof kind === 'object' || kind === 'local' || kind === 'destination') return kind;
  const reserves = reservesOf(path, chain);
  if (reserves.includes(chain)) return 'local';
  if (reserves.includes(to)) return 'destination';
  const reserve = reserves.find((c) => c.startsWith('AssetHub')) ?? reserves[0];
  if (!reserve) throw new ChainError(pallet, 'InvalidAssetUnknownReserve', 'the sandbox knows no reserve of this asset');
  return { remote: reanchor({ parents: 0, junctions: universal(reserve) }, [], universal(chain))! };
}

/** orml-xtokens: the asset by currency id (or named), the destination holds the beneficiary as its last junction. */
export function xTokensTransfer(chain: SandboxChainName, method: string, args: Record<string, unknown>): LocalProgram {
  const full = locationOf(args['dest']);
  const dest: Loc = { parents: full.parents, junctions: full.junctions.slice(0, -1) };
  const beneficiary: Loc = { parents: 0, junctions: full.junctions.slice(-1) };
  let assets: Asset[];
  let feeIndex = 0;
  if (method === 'transfer') {
    const id = Number(args['currency_id']);
    const asset = id === 0 ? nativeOf(chain) : assetById(chain, 'Tokens', id);
    if (!asset) throw new ChainError('XTokens', 'NotCrossChainTransferableCurrency', `${chain} has no currency ${String(args['currency_id'])}`);
    // The location the runtime's currency conversion gives the currency (HDX: {0, X1[GeneralIndex 0]}).
    assets = [{ id: asset.aliases?.[0] ?? asset.location, amount: BigInt(args['amount'] as string | number) }];
  } else if (method === 'transferMultiasset') {
    assets = assetsIn(args['asset']);
  } else if (method === 'transferMultiassets') {
    assets = assetsIn(args['assets']);
    feeIndex = Number(args['fee_item'] ?? 0);
  } else {
    throw new ChainError('System', 'CallFiltered', `the sandbox does not emulate xTokens.${method}`);
  }
  return transferProgram(chain, dest, beneficiary, assets, feeIndex, 'reserve');
}
