// The programs pallet-xcm (and xTokens) writes for a transfer, as the origin executes them: the
// walker (walker.ts) follows them hop by hop. Built the way pallet-xcm builds them: withdraw, then
// teleport, transfer to or withdraw from the reserve; a remote reserve buys execution with half the
// fees and deposits to the destination, which buys with the other half.
import type { TChain } from '@paraspell/sdk-pjs';
import { absolute, reanchor, relative, toSdkJson, type Loc } from '../../xcm/location';
import { placeOf, universalOfChain } from './registry-facts';
import type { Held } from './xcm-values';

/** A location written by `writer`, in the spelling `reader` reads (for programs the pallet writes). */
const seenBy = (loc: Loc, writer: TChain, reader: TChain): unknown => toSdkJson(reanchor(loc, universalOfChain(writer), universalOfChain(reader)) ?? loc);
const assetJson = (held: Held, reader: TChain): unknown => ({
  id: toSdkJson(relative(universalOfChain(reader), held.path)),
  fun: { Fungible: held.amount === null ? '0' : held.amount.toString() },
});
const halved = (held: Held): Held => ({ ...held, amount: held.amount === null ? null : held.amount / 2n });

export type TransferType = { kind: 'Teleport' } | { kind: 'LocalReserve' } | { kind: 'DestinationReserve' } | { kind: 'RemoteReserve'; reserve: TChain };

/** What the destination does with the assets: deposit them to a beneficiary, or run a program (type-and-then). */
export type Then = { beneficiary: unknown } | { program: unknown };

const unlimited = { Unlimited: null };

/** The program pallet-xcm sends for `assets` moved as `type`, with `fee` (one of them) buying execution on each chain (within the call's `weightLimit`). */
export function palletProgram(origin: TChain, dest: Loc, assets: Held[], fee: Held | undefined, type: TransferType, then: Then, weightLimit: unknown = unlimited): unknown[] {
  const destPath = absolute(universalOfChain(origin), dest);
  const destPlace = destPath ? placeOf(destPath) : null;
  const destChain = destPlace?.chain ?? origin;
  const onDest = (reader: TChain, feeHeld: Held | undefined): unknown[] => [
    ...(feeHeld ? [{ BuyExecution: { fees: assetJson(feeHeld, reader), weightLimit } }] : []),
    ...thenProgram(then, assets.length),
  ];
  const all = { Wild: { AllCounted: assets.length } };
  const definite = assets.map((x) => assetJson(x, origin));
  const destJson = toSdkJson(dest);
  switch (type.kind) {
    case 'Teleport':
      return [{ WithdrawAsset: definite }, { InitiateTeleport: { assets: all, dest: destJson, xcm: onDest(destChain, fee) } }];
    case 'LocalReserve':
      return [{ TransferReserveAsset: { assets: definite, dest: destJson, xcm: onDest(destChain, fee) } }];
    case 'DestinationReserve':
      return [{ WithdrawAsset: definite }, { InitiateReserveWithdraw: { assets: all, reserve: destJson, xcm: onDest(destChain, fee) } }];
    case 'RemoteReserve': {
      const reserve = type.reserve;
      const half = fee ? halved(fee) : undefined;
      const atReserve = [
        ...(half ? [{ BuyExecution: { fees: assetJson(half, reserve), weightLimit: unlimited } }] : []),
        { DepositReserveAsset: { assets: all, dest: seenBy(dest, origin, reserve), xcm: onDest(destChain, half) } },
      ];
      return [{ WithdrawAsset: definite }, { InitiateReserveWithdraw: { assets: all, reserve: toSdkJson(relative(universalOfChain(origin), universalOfChain(reserve))), xcm: atReserve } }];
    }
  }
}

/** How a transfer type moves an asset, in words. */
export const wayText = (type: TransferType): string => (type.kind === 'RemoteReserve' ? `through its reserve ${type.reserve}` : `as ${type.kind}`);

/** The asset filter InitiateTransfer names for each way (XCM v5). */
const FILTER = { Teleport: 'Teleport', LocalReserve: 'ReserveDeposit', DestinationReserve: 'ReserveWithdraw' } as const;

/**
 * pallet-xcm's transfer_assets when the fee asset moves another way than the assets (neither
 * through a remote reserve): one message whose fees come first, so that the destination's barrier
 * lets it pay. Written here as the XCM v5 InitiateTransfer that says the same, each part moved its way.
 */
export function feesApartProgram(origin: TChain, dest: Loc, assets: Held[], fee: Held, way: TransferType, feeWay: TransferType, then: Then): unknown[] {
  const destPath = absolute(universalOfChain(origin), dest);
  const destChain = (destPath ? placeOf(destPath).chain : null) ?? origin;
  const filter = (type: TransferType) => FILTER[type.kind as keyof typeof FILTER];
  const rest = assets.filter((a) => a !== fee);
  return [
    { WithdrawAsset: [fee, ...rest].map((x) => assetJson(x, origin)) },
    {
      InitiateTransfer: {
        destination: toSdkJson(dest),
        remoteFees: { [filter(feeWay)]: { Definite: [assetJson(fee, origin)] } },
        assets: [{ [filter(way)]: { Wild: { AllCounted: rest.length } } }],
        remoteXcm: [{ BuyExecution: { fees: assetJson(fee, destChain), weightLimit: unlimited } }, ...thenProgram(then, assets.length)],
      },
    },
  ];
}

function thenProgram(then: Then, count: number): unknown[] {
  if ('program' in then) return Array.isArray(then.program) ? (then.program as unknown[]) : [];
  return [{ DepositAsset: { assets: { Wild: { AllCounted: count } }, beneficiary: then.beneficiary } }];
}
