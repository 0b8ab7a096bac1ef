// The XCM programs of a transact, as plain objects that @polkadot/api encodes with the origin's
// metadata (enum variants by name, struct fields camelCase). Nothing here talks to a chain.
import type { TLocation } from '@paraspell/sdk-pjs';
import { utilCrypto } from '../../sdk';

export type XcmVersion = 'V3' | 'V4' | 'V5';

export interface Weight {
  refTime: bigint;
  proofSize: bigint;
}

/** The contract's spelling -> the SCALE variant (Native = 0, SovereignAccount = 1, Superuser = 2, Xcm = 3). */
export const ORIGIN_KINDS = {
  Native: 'Native',
  SovereignAccount: 'SovereignAccount',
  SuperUser: 'Superuser',
  XCM: 'Xcm',
} as const;

export type OriginKind = keyof typeof ORIGIN_KINDS;

type Junction = Record<string, unknown>;
export interface Location {
  parents: number;
  interior: 'Here' | Record<string, Junction[]>;
}

/** The junctions of any registry location, as a list (none for `Here`). */
export const junctionsOf = (loc: Location | TLocation): Junction[] => {
  const interior = loc.interior as unknown;
  if (interior === 'Here' || interior === null || typeof interior !== 'object' || 'Here' in interior) return [];
  const [list] = Object.values(interior as Record<string, Junction | Junction[]>);
  return Array.isArray(list) ? list : list === undefined ? [] : [list];
};

/** `{parents, interior: X<n>}` with the junctions as a list (the V4/V5 shape). */
export function location(parents: number, junctions: Junction[]): Location {
  return { parents, interior: junctions.length === 0 ? 'Here' : { [`X${junctions.length}`]: junctions } };
}

/** Any registry location (`Here` or `{Here: null}`, X1 as one junction or a list) in one shape. */
export function normalize(loc: TLocation | Location): Location {
  return location(Number(loc.parents), junctionsOf(loc));
}

/** The location written for `version`: V3's X1 holds one junction, not a list. */
function versioned(loc: Location, version: XcmVersion): unknown {
  const junctions = junctionsOf(loc);
  if (junctions.length === 0) return { parents: loc.parents, interior: { Here: null } };
  const key = `X${junctions.length}`;
  return { parents: loc.parents, interior: { [key]: version === 'V3' && junctions.length === 1 ? junctions[0] : junctions } };
}

/** The beneficiary junction of an address: AccountKey20 for a 20-byte hex, AccountId32 otherwise. */
export function accountJunction(address: string): Junction {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return { AccountKey20: { network: null, key: address.toLowerCase() } };
  return { AccountId32: { network: null, id: utilCrypto.decodeAddress(address) } };
}

const assetId = (loc: Location, version: XcmVersion): unknown => (version === 'V3' ? { Concrete: versioned(loc, version) } : versioned(loc, version));

const fungible = (loc: Location, amount: bigint, version: XcmVersion) => ({ id: assetId(loc, version), fun: { Fungible: amount } });

export interface TransactStep {
  originKind: OriginKind;
  /** Exact call bytes; they go in verbatim (the codec adds the length). */
  call: `0x${string}`;
  /** V3/V4: required; V5: the fallback weight, absent = None. */
  weight?: Weight;
}

const weightOf = (w: Weight) => ({ refTime: w.refTime, proofSize: w.proofSize });

/** Transact then ExpectTransactStatus(Success): a failed call fails the message instead of passing silently. */
function transactInstructions(step: TransactStep, version: XcmVersion): unknown[] {
  const weightField = version === 'V5' ? { fallbackMaxWeight: step.weight ? weightOf(step.weight) : null } : { requireWeightAtMost: weightOf(step.weight!) };
  return [
    { Transact: { originKind: ORIGIN_KINDS[step.originKind], ...weightField, call: { encoded: step.call } } },
    { ExpectTransactStatus: 'Success' },
  ];
}

/** Refund what the call did not use, then deposit everything left (one asset) to the beneficiary. */
function settle(beneficiary: Location, version: XcmVersion): unknown[] {
  return ['RefundSurplus', { DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: versioned(beneficiary, version) } }];
}

export interface SendProgram {
  dest: unknown;
  message: unknown;
}

/**
 * V3/V4, for the origin's `send`: runs on the destination as the origin account's location
 * (`send` prepends DescendOrigin), paying with `amount` of the asset already held there.
 */
export function sendProgram(args: {
  version: 'V3' | 'V4';
  destination: Location;
  /** The fee asset as the destination sees it. */
  asset: Location;
  amount: bigint;
  beneficiary: Location;
  transact: TransactStep;
}): SendProgram {
  const { version, destination, amount, beneficiary, transact } = args;
  const asset = fungible(args.asset, amount, version);
  return {
    dest: { [version]: versioned(destination, version) },
    message: {
      [version]: [
        { WithdrawAsset: [asset] },
        { BuyExecution: { fees: asset, weightLimit: 'Unlimited' } },
        ...transactInstructions(transact, version),
        ...settle(beneficiary, version),
      ],
    },
  };
}

/** How the asset moves to the destination (InitiateTransfer's AssetTransferFilter). */
export type TransferKind = 'Teleport' | 'ReserveDeposit' | 'ReserveWithdraw';

/**
 * V5, for the origin's `execute`: withdraw the asset, send it on with `remoteFee` of it paying
 * on the destination, and run the call there as the sender (preserve_origin).
 */
export function executeProgram(args: {
  destination: Location;
  /** The asset as the origin sees it. */
  asset: Location;
  amount: bigint;
  remoteFee: bigint;
  kind: TransferKind;
  beneficiary: Location;
  transact: TransactStep;
}): unknown {
  const { destination, amount, remoteFee, kind, beneficiary, transact } = args;
  const id = versioned(args.asset, 'V5');
  return {
    V5: [
      { WithdrawAsset: [fungible(args.asset, amount, 'V5')] },
      // Delivery fees come from the account, not from the assets being sent.
      { SetFeesMode: { jitWithdraw: true } },
      {
        InitiateTransfer: {
          destination: versioned(destination, 'V5'),
          remoteFees: { [kind]: { Definite: [fungible(args.asset, remoteFee, 'V5')] } },
          preserveOrigin: true,
          assets: [{ [kind]: { Wild: { AllOf: { id, fun: 'Fungible' } } } }],
          remoteXcm: [...transactInstructions(transact, 'V5'), ...settle(beneficiary, 'V5')],
        },
      },
    ],
  };
}

/** `{V5: location}` for runtime API arguments. */
export const versionedLocation = (loc: Location, version: XcmVersion): unknown => ({ [version]: versioned(loc, version) });

/** `{V5: asset id}` for XcmPaymentApi_query_weight_to_asset_fee. */
export const versionedAssetId = (loc: Location, version: XcmVersion): unknown => ({ [version]: assetId(loc, version) });
