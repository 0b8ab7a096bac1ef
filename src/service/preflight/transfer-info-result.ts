// The transfer info of the contract (`/transfer-info`), from sdk-pjs SDK_VERSION's:
//
// * Transfer info (`TTransferInfo`): bigint amounts, deprecated `currencySymbol` strings,
//   duplicate `assetHub` / `bridgeHub` objects, and `UnableToComputeError` INSTANCES as values of
//   destination `sufficient` / `receivedAmount` / `balanceAfter`. BridgeHub hops carry only
//   `{currencySymbol, xcmFee}` (no `asset`, no `existentialDeposit`).
import type { TAssetInfo, TTransferInfo } from '@paraspell/sdk-pjs';
import { resolveRef, toContractAsset, type AssetResolver, type ContractAsset } from './contract-asset';
import { foldHubs, str, type HubKey, type LegDryRunError } from './route-legs';

/** A value the SDK could not compute (11.x returns an `UnableToComputeError` instance). */
export interface UnableToCompute {
  error: 'UnableToComputeError';
  message: string;
}
export type Computed<T> = T | UnableToCompute;

export interface TransferInfoHopResult {
  asset?: ContractAsset;
  existentialDeposit?: string;
  xcmFee: { fee: string; asset?: ContractAsset };
}

/** Response of `/transfer-info`. */
export interface TransferInfoResult {
  chain: { origin: string; destination: string; ecosystem: string };
  origin: {
    selectedCurrency: {
      sufficient: boolean;
      balance: string;
      balanceAfter: string;
      asset: ContractAsset;
      existentialDeposit: string;
    };
    xcmFee: {
      sufficient: boolean;
      fee: string;
      balance: string;
      balanceAfter: string;
      asset: ContractAsset;
    };
  };
  destination?: {
    receivedCurrency: {
      sufficient: Computed<boolean>;
      receivedAmount: Computed<string>;
      balance: string;
      balanceAfter: Computed<string>;
      asset: ContractAsset;
      existentialDeposit: string;
    };
    xcmFee: {
      fee: string;
      /** Recipient's balance of the fee asset (11.x returns it although its .d.ts omits it). */
      balance?: string;
      balanceAfter: Computed<string>;
      asset: ContractAsset;
      /** The destination could not be dry-run (the XCM passes a hop without dry-run support): `fee` is the SDK's placeholder. */
      dryRunError?: LegDryRunError;
    };
  };
  hops: { chain: string; result: TransferInfoHopResult }[];
}

function computed<T>(v: T | Error, map: (x: T) => T extends bigint ? string : T): Computed<T extends bigint ? string : T> {
  if (v instanceof Error) return { error: 'UnableToComputeError', message: v.message };
  return map(v);
}
const bigStr = <T>(x: T): T extends bigint ? string : T => (typeof x === 'bigint' ? x.toString(10) : x) as T extends bigint ? string : T;

type SdkHopTransferInfoResult = {
  asset?: TAssetInfo;
  currencySymbol?: string;
  existentialDeposit?: bigint;
  xcmFee: { fee: bigint; asset?: TAssetInfo; currencySymbol?: string };
};

function toTransferHop(chain: string, r: SdkHopTransferInfoResult, resolve?: AssetResolver): TransferInfoHopResult {
  const out: TransferInfoHopResult = { xcmFee: { fee: str(r.xcmFee.fee) } };
  const asset = r.asset
    ? toContractAsset(r.asset, chain, resolve)
    : r.currencySymbol !== undefined
      ? resolveRef(chain, r.currencySymbol, resolve)
      : undefined;
  if (asset) out.asset = asset;
  if (r.existentialDeposit !== undefined) out.existentialDeposit = str(r.existentialDeposit);
  const feeA = r.xcmFee.asset
    ? toContractAsset(r.xcmFee.asset, chain, resolve)
    : r.xcmFee.currencySymbol !== undefined
      ? resolveRef(chain, r.xcmFee.currencySymbol, resolve)
      : undefined;
  if (feeA) out.xcmFee.asset = feeA;
  return out;
}

/**
 * `TTransferInfo` (11.x) -> contract transfer info: `chain`, `origin`, `destination` (when the SDK
 * produced one; 11.x always does, its fee query falls back to payment info), `hops` (always; the
 * `assetHub` / `bridgeHub` duplicates folded in). All bigints become decimal strings;
 * `UnableToComputeError` values become `{error: 'UnableToComputeError', message}`; deprecated
 * `currencySymbol` strings are dropped (BridgeHub hops, which have no `asset`, get one from the
 * resolver through that symbol).
 */
export function toTransferInfoResult(r: TTransferInfo, opts: { resolveAsset?: AssetResolver } = {}): TransferInfoResult {
  const resolve = opts.resolveAsset;
  const originChain = r.chain.origin;
  const destChain = r.chain.destination;
  const sel = r.origin.selectedCurrency;
  const ofee = r.origin.xcmFee;

  const hubs: Partial<Record<HubKey, SdkHopTransferInfoResult>> = {};
  if (r.assetHub) hubs.assetHub = r.assetHub;
  if (r.bridgeHub) hubs.bridgeHub = r.bridgeHub;
  const rawHops = foldHubs<SdkHopTransferInfoResult>(r.hops ?? [], hubs, originChain);

  const out: TransferInfoResult = {
    chain: { origin: originChain, destination: destChain, ecosystem: r.chain.ecosystem },
    origin: {
      selectedCurrency: {
        sufficient: sel.sufficient,
        balance: str(sel.balance),
        balanceAfter: str(sel.balanceAfter),
        asset: toContractAsset(sel.asset, originChain, resolve),
        existentialDeposit: str(sel.existentialDeposit),
      },
      xcmFee: {
        sufficient: ofee.sufficient,
        fee: str(ofee.fee),
        balance: str(ofee.balance),
        balanceAfter: str(ofee.balanceAfter),
        asset: toContractAsset(ofee.asset, originChain, resolve),
      },
    },
    hops: rawHops.map((h) => ({ chain: h.chain, result: toTransferHop(h.chain, h.result, resolve) })),
  };

  const d = r.destination as TTransferInfo['destination'] | undefined;
  if (d) {
    const rc = d.receivedCurrency;
    const destBalance = (d.xcmFee as { balance?: unknown }).balance;
    out.destination = {
      receivedCurrency: {
        sufficient: computed(rc.sufficient, bigStr),
        receivedAmount: computed(rc.receivedAmount, bigStr),
        balance: str(rc.balance),
        balanceAfter: computed(rc.balanceAfter, bigStr),
        asset: toContractAsset(rc.asset, destChain, resolve),
        existentialDeposit: str(rc.existentialDeposit),
      },
      xcmFee: {
        fee: str(d.xcmFee.fee),
        balanceAfter: computed(d.xcmFee.balanceAfter, bigStr),
        asset: toContractAsset(d.xcmFee.asset, destChain, resolve),
      },
    };
    if (typeof destBalance === 'bigint') out.destination.xcmFee.balance = str(destBalance);
  }
  return out;
}
