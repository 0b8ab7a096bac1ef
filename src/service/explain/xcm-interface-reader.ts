// Reads a call to the XCM-interface precompile (moonkit's pallet-xcm precompile, 0x...081A) past
// its ABI: which assets it sends in what order, which one pays on the destination, how they move,
// and the program the destination runs (`customXcmOnDest`, a SCALE VersionedXcm that only the
// chain's metadata decodes), ending with where the assets arrive and who gets what is left.
import type { TAssetInfo, TChain, TLocation } from '@paraspell/sdk-pjs';
import type { Registry } from '@polkadot/types/types';
import { formatUnits, getAddress } from 'viem';
import { sdk } from '../../sdk';
import { hexBytes, plain } from './call-decoder';
import { xc20Address } from '../evm';
import { programTransfers } from './call-reader';
import { amountText, beneficiaryAddress, isObject, unversion, variant } from './xcm-reader';
import { readProgram } from './xcm-sentences';
import { checkMessageBounds } from './xcm-bounds';
import { scanValue } from './call-scan';
import type { AssetAmount, TransferKind, TransferView, Warning, XcmStep } from './views';

/** The precompile's TransferTypeHelper (anything else reverts). */
const TRANSFER_TYPES = ['Teleport', 'LocalReserve', 'DestinationReserve'] as const;

/** One `(address asset, uint256 amount)` of the call, read against the registry. */
export interface PrecompileAsset {
  address: string;
  asset: AssetAmount;
}

export interface XcmInterfaceCall {
  origin: TChain;
  /** The destination the call names (null when no registry chain matches). */
  destination: TChain | null;
  assets: PrecompileAsset[];
  assetsTransferType: number;
  remoteFeesIdIndex: number;
  feesTransferType: number;
  customXcmOnDest: `0x${string}`;
}

export interface XcmInterfaceReading {
  transfers: TransferView[];
  xcm: XcmStep[];
  warnings: Warning[];
  /** customXcmOnDest decoded (`{v4: [...]}`), when the chain's metadata could decode it. */
  customXcm?: unknown;
}

function registryAsset(chain: TChain, currency: { id: string } | { location: TLocation }): TAssetInfo | null {
  try {
    return sdk.findAssetInfo(chain, currency, null);
  } catch {
    return null;
  }
}

const warn = (code: string, severity: Warning['severity'], message: string): Warning => ({ code, severity, message });
const typeName = (n: number): string => TRANSFER_TYPES[n] ?? `unknown (${n})`;

// ---- the order pallet-xcm sees ---------------------------------------------------------------

const JUNCTIONS = ['Parachain', 'AccountId32', 'AccountIndex64', 'AccountKey20', 'PalletInstance', 'GeneralIndex', 'GeneralKey', 'OnlyChild', 'Plurality', 'GlobalConsensus'];
const NETWORKS = ['ByGenesis', 'ByFork', 'Polkadot', 'Kusama', 'Westend', 'Rococo', 'Wococo', 'Ethereum', 'BitcoinCore', 'BitcoinCash', 'PolkadotBulletin'];

const variantName = (key: string): string => variant(key)[0];
const rank = (order: string[], key: string): number => (order.includes(key) ? order.indexOf(key) : order.length);

/** Values compared as SCALE types derive Ord: None first, integers by value, byte strings by bytes, enums by variant index. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  const numeric = (v: unknown) => typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && /^\d+$/.test(v));
  if (numeric(a) && numeric(b)) return BigInt(a as string) < BigInt(b as string) ? -1 : BigInt(a as string) > BigInt(b as string) ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (isObject(a) && isObject(b)) {
    // Enum variants are spelt `Ethereum` by the registry and `ethereum` by polkadot.js.
    const [ka, kb] = [Object.keys(a).map(variantName), Object.keys(b).map(variantName)];
    if (ka.length === 1 && kb.length === 1 && ka[0] !== kb[0]) return rank(NETWORKS, ka[0]!) - rank(NETWORKS, kb[0]!) || (ka[0]! < kb[0]! ? -1 : 1);
    return compareValues(Object.values(a), Object.values(b));
  }
  return String(a) < String(b) ? -1 : 1;
}

/** A registry location as the origin chain itself holds it: its own junctions below (0, ...). */
function anchored(origin: TChain, location: unknown): { parents: number; junctions: [string, unknown][] } | null {
  if (!isObject(location)) return null;
  const [kind, list] = variant(location.interior);
  const junctions = (kind === 'Here' ? [] : Array.isArray(list) ? list : [list]).map((j) => variant(j));
  const parents = Number(location.parents ?? 0);
  const [first] = junctions;
  if (parents === 1 && first?.[0] === 'Parachain' && Number(first[1]) === sdk.getParaId(origin)) return { parents: 0, junctions: junctions.slice(1) };
  return { parents, junctions };
}

function compareLocations(origin: TChain, a: unknown, b: unknown): number {
  const [x, y] = [anchored(origin, a), anchored(origin, b)];
  if (!x || !y) return compareValues(JSON.stringify(a), JSON.stringify(b));
  if (x.parents !== y.parents) return x.parents - y.parents;
  if (x.junctions.length !== y.junctions.length) return x.junctions.length - y.junctions.length;
  for (let i = 0; i < x.junctions.length; i++) {
    const [[ta, va], [tb, vb]] = [x.junctions[i]!, y.junctions[i]!];
    const c = rank(JUNCTIONS, ta) - rank(JUNCTIONS, tb) || compareValues(va, vb);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * The assets as pallet-xcm receives them: the precompile collects them into `Assets`, which
 * sorts them by location and merges equal ones, and only then reads `remoteFeesIdIndex`. Null
 * when an asset's location is unknown (the order cannot be known then).
 */
function sentOrder(origin: TChain, assets: PrecompileAsset[]): AssetAmount[] | null {
  if (assets.some((a) => a.asset.symbol === null)) return null;
  const sorted = assets.map((a) => a.asset).sort((a, b) => compareLocations(origin, a.location, b.location));
  const merged: AssetAmount[] = [];
  for (const asset of sorted) {
    const last = merged[merged.length - 1];
    if (last && compareLocations(origin, last.location, asset.location) === 0) {
      const amount = BigInt(last.amount) + BigInt(asset.amount);
      merged[merged.length - 1] = { ...last, amount: amount.toString(), amountWhole: last.decimals === null ? null : formatUnits(amount, last.decimals) };
    } else merged.push(asset);
  }
  return merged;
}

// ---- the program on the destination -----------------------------------------------------------

/**
 * customXcmOnDest as JSON, decoded as the precompile decodes it (all bytes, one VersionedXcm).
 * Scanned first (call-scan.ts): past XCM's bounds, or not decoding, the program is neither
 * decoded, read nor walked, and the warning says why.
 */
function decodeCustomXcm(registry: Registry, hex: `0x${string}`): unknown {
  const bytes = hexBytes(hex);
  checkMessageBounds(scanValue(registry, 'XcmVersionedXcm', bytes), bytes.length, 'customXcmOnDest');
  const xcm = registry.createType('XcmVersionedXcm', bytes);
  if (xcm.encodedLength !== bytes.length) throw new Error(`${bytes.length - xcm.encodedLength} byte(s) left over after the VersionedXcm`);
  return plain(xcm);
}

const instructions = (program: unknown): [string, unknown][] => {
  const list = unversion(program).value;
  return Array.isArray(list) ? list.map((i) => variant(i)) : [];
};

/** The beneficiary of the DepositAsset inside SetAppendix: where leftovers go on the destination. */
function leftoversOf(destination: TChain | null, program: unknown): TransferView['leftoversTo'] | null {
  for (const [name, value] of instructions(program)) {
    if (name !== 'SetAppendix') continue;
    for (const [inner, v] of instructions(value)) {
      if (inner === 'DepositAsset' && isObject(v)) return (destination && beneficiaryAddress(destination, v.beneficiary)) ?? { location: v.beneficiary };
    }
  }
  return null;
}

/** Every SetTopic of the program and of the programs it sends on. */
function topicsOf(program: unknown, out: string[] = []): string[] {
  for (const [name, value] of instructions(program)) {
    if (name === 'SetTopic') out.push(String(value));
    else if (isObject(value) && (Array.isArray(value.xcm) || Array.isArray(value.remoteXcm))) topicsOf(value.xcm ?? value.remoteXcm, out);
  }
  return out;
}

/** The asset id of the first `AllOf` filter a sending instruction of the program names. */
function forwardedId(program: unknown): unknown {
  for (const [name, value] of instructions(program)) {
    if (!SENDING.includes(name) || !isObject(value)) continue;
    const [kind, wild] = variant(value.assets);
    const [filter, of] = kind === 'Wild' ? variant(wild) : ['', null];
    if ((filter === 'AllOf' || filter === 'AllOfCounted') && isObject(of)) return of.id;
  }
  return null;
}

const SENDING = ['InitiateReserveWithdraw', 'DepositReserveAsset', 'InitiateTeleport', 'TransferReserveAsset', 'InitiateTransfer'];
const sendsOn = (program: unknown): boolean =>
  instructions(program).some(([name]) => SENDING.includes(name));
const depositsAtTop = (program: unknown): boolean => instructions(program).some(([name]) => name === 'DepositAsset');

/** How assets of a transfer type move, in words. */
function movement(origin: TChain, destination: string, type: number): string {
  if (type === 1) return `LocalReserve: ${origin} holds their reserve, so they move to ${destination}'s account on ${origin} and ${destination} credits them`;
  if (type === 2) return `DestinationReserve: ${destination} holds their reserve, so they are burnt on ${origin} and withdrawn from ${origin}'s account there`;
  if (type === 0) return `Teleport: burnt on ${origin} and minted on ${destination}`;
  return `transfer type ${type}, which the precompile does not take`;
}

// ---- the reading ------------------------------------------------------------------------------

/** An address the registry does not know as an asset of `origin`; named when it is a token's Ethereum address. */
function assetWarnings(origin: TChain, assets: PrecompileAsset[]): Warning[] {
  const warnings: Warning[] = [];
  for (const { address, asset } of assets) {
    if (asset.symbol !== null) continue;
    // Upstream's known slip: the token's Ethereum address where its XC-20 belongs.
    const onEthereum = registryAsset('Ethereum', { id: address.toLowerCase() });
    const xc20 = onEthereum?.location ? registryAsset(origin, { location: onEthereum.location }) : null;
    const itsXc20 = xc20 && 'assetId' in xc20 && typeof xc20.assetId === 'string' ? ` (${xc20.symbol}'s XC-20 is ${xc20Address(xc20.assetId)})` : '';
    warnings.push(
      warn(
        'UnknownAsset',
        'danger',
        onEthereum
          ? `${address} is ${onEthereum.symbol}'s address on Ethereum, not an XC-20 of ${origin}${itsXc20}: ${origin} reads it as a local ERC-20 at that address, or reverts ("Asset not found")`
          : `${address} is not an asset of ${origin} the registry knows: the precompile reverts ("Asset not found") unless ${origin} maps the address to an asset this explanation cannot name`,
      ),
    );
  }
  return warnings;
}

/** What the decoded program gets wrong for a signer: who receives, what pays, what is left, which id. */
function programWarnings(
  call: XcmInterfaceCall,
  customXcm: unknown,
  transfers: TransferView[],
  feeAsset: AssetAmount | undefined,
  leftovers: TransferView['leftoversTo'] | null,
  topics: string[],
): Warning[] {
  const warnings: Warning[] = [];
  const dest = call.destination ?? 'unknown';
  for (const t of transfers) {
    if (typeof t.beneficiary !== 'string') {
      warnings.push(warn('BeneficiaryNotAnAccount', 'danger', `The program on ${dest} deposits the assets on ${t.destination} to no single account: ${JSON.stringify(t.beneficiary.location)}`));
    } else if (t.destination === 'Ethereum' && !/^0x[0-9a-fA-F]{40}$/.test(t.beneficiary)) {
      warnings.push(warn('BeneficiaryNotAnAccount', 'danger', `The recipient on Ethereum is ${t.beneficiary}, not a 20-byte Ethereum address`));
    }
  }
  if (transfers.some((t) => t.destination === 'Ethereum') && feeAsset && !isRelayToken(feeAsset)) {
    warnings.push(
      warn(
        'FeeAssetNotDot',
        'danger',
        `remoteFeesIdIndex ${call.remoteFeesIdIndex} makes ${feeAsset.symbol} the fee asset, not DOT, in which ${dest} and the bridge to Ethereum are paid: execution on ${dest} is bought with ${feeAsset.symbol} out of what is meant for the recipient, or fails and leaves the assets trapped there`,
      ),
    );
  }
  if (!leftovers && sendsOn(customXcm) && !depositsAtTop(customXcm)) {
    warnings.push(warn('LeftoversTrapped', 'caution', `The program on ${dest} deposits nothing that is left there (no SetAppendix with a DepositAsset): unused fees stay in its holding and are trapped`));
  }
  if (new Set(topics).size > 1) warnings.push(warn('TopicMismatch', 'caution', `The program sets ${new Set(topics).size} different topics (${[...new Set(topics)].join(', ')}): the hops report the message under different ids`));
  return warnings;
}

/** The call's transfers, the program it sends (sentences, from the origin on) and what a signer must see. */
export function readXcmInterfaceCall(call: XcmInterfaceCall, registry: Registry | null): XcmInterfaceReading {
  const { origin, destination, assets } = call;
  const dest = destination ?? 'unknown';
  const warnings: Warning[] = [];
  if (!destination) warnings.push(warn('UnknownDestination', 'danger', `No registry chain matches the destination the call names: the assets leave ${origin} for a place this explanation cannot name`));
  warnings.push(...assetWarnings(origin, assets));
  for (const [field, type] of [['assetsTransferType', call.assetsTransferType], ['feesTransferType', call.feesTransferType]] as const) {
    if (!TRANSFER_TYPES[type]) warnings.push(warn('UnknownTransferType', 'danger', `${field} ${type} is not a transfer type the precompile takes (0 Teleport, 1 LocalReserve, 2 DestinationReserve): the call reverts`));
  }

  const sent = sentOrder(origin, assets);
  const feeAsset = sent?.[call.remoteFeesIdIndex];
  if (sent && !feeAsset) {
    warnings.push(warn('FeeIndexOutOfRange', 'danger', `remoteFeesIdIndex ${call.remoteFeesIdIndex} points past the ${sent.length} asset(s) the precompile sends (equal assets merged): the call reverts ("remote_fees_id not found")`));
  }

  let customXcm: unknown;
  if (!registry) {
    warnings.push(warn('UndecodableCustomXcm', 'danger', `customXcmOnDest cannot be read without ${origin}'s metadata: what ${dest} does with the assets is not shown`));
  } else {
    try {
      customXcm = decodeCustomXcm(registry, call.customXcmOnDest);
    } catch (error) {
      warnings.push(warn('UndecodableCustomXcm', 'danger', `customXcmOnDest does not decode as a VersionedXcm of ${origin} (the precompile reverts): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`));
    }
  }

  // What the transfer is for: the assets the program sends on (an AllOf filter), else every entry
  // but the fee's; the fee's own entry drops out when it merely pays (DOT sent as DOT: two entries).
  const feeEntry = feeAsset ? assets.findIndex((a) => compareLocations(origin, a.asset.location, feeAsset.location) === 0) : -1;
  const forwarded = customXcm === undefined ? null : forwardedId(customXcm);
  let carried = assets.filter((a) => forwarded !== null && a.asset.symbol !== null && compareLocations(origin, a.asset.location, forwarded) === 0);
  if (carried.length === 0) carried = assets.filter((_, i) => i !== feeEntry);
  else if (carried.length > 1) carried = carried.filter((a) => a !== assets[feeEntry]);
  const held = (carried.length > 0 ? carried : assets).map((a) => a.asset);
  const kind: TransferKind = call.assetsTransferType === 0 ? 'teleport' : 'reserveTransfer';
  const found: TransferView[] = [];
  if (customXcm !== undefined) programTransfers(origin, destination, customXcm, held, kind, found);
  const topics = customXcm === undefined ? [] : topicsOf(customXcm);
  const leftovers = customXcm === undefined ? null : leftoversOf(destination, customXcm);
  if (found.length === 0) found.push({ kind, origin, destination: dest, beneficiary: { location: null }, assets: held });
  const transfers = found.map((t) => ({
    ...t,
    ...(feeAsset ? { feeAsset } : {}),
    feeLimit: 'unlimited' as const,
    ...(t.destination !== dest ? { via: dest } : {}),
    ...(leftovers ? { leftoversTo: leftovers } : {}),
    ...(topics[0] ? { topic: topics[0] } : {}),
  }));

  if (customXcm !== undefined) warnings.push(...programWarnings(call, customXcm, transfers, feeAsset, leftovers, topics));

  const names = assets.map((a) => (a.asset.symbol ? amountText(a.asset) : `${a.asset.amount} base units at ${getAddress(a.address)}`)).join(', ');
  const xcm: XcmStep[] = [
    { chain: origin, instruction: 'WithdrawAsset', text: `Take ${names} from the signer's account on ${origin} and send them to ${dest} (${movement(origin, dest, call.assetsTransferType)})` },
    {
      chain: dest,
      instruction: 'BuyExecution',
      text: `Pay for execution on ${dest} with up to ${feeAsset ? amountText(feeAsset) : `asset ${call.remoteFeesIdIndex} of the sorted list`} (fees moved as ${typeName(call.feesTransferType)}), with no weight limit`,
    },
  ];
  if (customXcm !== undefined) xcm.push(...readProgram(destination, customXcm));
  return { transfers, xcm, warnings, ...(customXcm !== undefined ? { customXcm } : {}) };
}

/** DOT (the relay chain's token, `(1, Here)`), as xcDOT and the asset hubs hold it. */
const isRelayToken = (asset: AssetAmount): boolean => isObject(asset.location) && Number(asset.location.parents) === 1 && variant(asset.location.interior)[0] === 'Here';
