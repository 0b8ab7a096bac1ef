// The route check of EVM transactions that carry XCM. Moonbeam's precompiles dispatch an xTokens
// transfer (the XTokens precompile) or pallet-xcm's transfer_assets_using_type_and_then (the
// XCM-interface precompile): their ABI is decoded back into what they dispatch, each ERC-20
// address into the asset's location, and walked by the route check before the transaction is
// answered. Snowbridge's sendToken from Ethereum carries no XCM this service writes (the gateway
// composes the message on Ethereum from the token, para id and recipient): it is not walked.
import { decodeFunctionData, getAddress, hexToBigInt, type Address, type Hex } from 'viem';
import type { TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import type { Registry } from '@polkadot/types/types';
import { sdk } from '../../sdk';
import { parseLocation, toSdkJson, type Loc } from '../../xcm/location';
import type { RouteCheck, SentAsset, XTokensTransfer } from '../route-check';
import { XCM_INTERFACE_ABI } from './moonbeam-ethereum';
import { readPrecompileLocation } from './precompile-locations';
import { NATIVE_ERC20, XTOKENS_ABI } from './xtokens-precompile';

/** Moonbeam's Erc20XcmBridge pallet: a local ERC-20 is (0, [PalletInstance(110), AccountKey20(address)]). */
const ERC20_XCM_BRIDGE = 110;

/** The precompile's TransferType, by its uint8. */
const TRANSFER_TYPES = ['Teleport', 'LocalReserve', 'DestinationReserve'];

function registryLocation(from: TChain, address: Address): Loc | null {
  try {
    const info = getAddress(address) === NATIVE_ERC20 ? sdk.findNativeAssetInfo(from as TSubstrateChain) : sdk.findAssetInfo(from, { id: hexToBigInt(`0x${address.slice(10)}`).toString() }, null);
    return info?.location ? parseLocation(info.location) : null;
  } catch {
    return null;
  }
}

/**
 * The location `from` reads for an asset address, as Moonbeam's matchers do: the native token
 * (0x...0802), an XC-20 (0xffffffff + its u128 id in the registry), else a local ERC-20.
 */
function assetLocation(from: TChain, address: Address): Loc {
  const xc20 = getAddress(address) === NATIVE_ERC20 || /^0xffffffff/i.test(address);
  const found = xc20 ? registryLocation(from, address) : null;
  return found ?? { parents: 0, junctions: [{ type: 'PalletInstance', value: ERC20_XCM_BRIDGE }, { type: 'AccountKey20', value: { network: null, key: address.toLowerCase() } }] };
}

/** A location the precompile takes, read back; one this service never writes is our bug, refused by the check as unreadable. */
function destinationOf(location: { parents: number; interior: readonly Hex[] }): Loc {
  const read = readPrecompileLocation(location);
  if (read === null) throw new Error(`the precompile location ${JSON.stringify(location)} holds a junction the route check does not read`);
  return read;
}

/** What XTokens precompile calldata built for `from` dispatches: the assets' locations, the fee item, the destination. */
export function xTokensTransferOf(from: TChain, data: Hex): XTokensTransfer {
  const call = decodeFunctionData({ abi: XTOKENS_ABI, data });
  const sent = (address: Address, amount: bigint): SentAsset => ({ location: assetLocation(from, address), amount });
  const [assets, feeItem, destination] =
    call.functionName === 'transfer'
      ? [[sent(call.args[0], call.args[1])], 0, call.args[2]]
      : [call.args[0].map((c) => sent(c.currencyAddress, c.amount)), call.args[1], call.args[2]];
  return { assets, feeItem, destination: destinationOf(destination) };
}

/** Checks XTokens precompile calldata built for `from` (throws the RouteCheckError naming the hop). */
export function checkXTokensCall(routes: RouteCheck, from: TChain, data: Hex, expected: { to: TChain; recipient: string }, request: unknown): void {
  routes.checkXTokens(from, xTokensTransferOf(from, data), [{ chain: expected.to, recipient: expected.recipient }], request);
}

/**
 * Checks XCM-interface precompile calldata (transferAssetsUsingTypeAndThenAddress) built for
 * Moonbeam: its message for the destination is decoded with Moonbeam's metadata (`registry`).
 */
export function checkXcmInterfaceCall(routes: RouteCheck, registry: Registry, data: Hex, expected: { to: TChain; recipient: string }, request: unknown): void {
  const { args } = decodeFunctionData({ abi: XCM_INTERFACE_ABI, data });
  const [dest, assets, assetsType, feeIndex, feesType, customXcm] = args;
  const located = assets.map((a) => ({ id: toSdkJson(assetLocation('Moonbeam', a.asset)), fun: { Fungible: a.amount.toString() } }));
  routes.checkPalletCall(
    'Moonbeam',
    'transferAssetsUsingTypeAndThen',
    {
      dest: toSdkJson(destinationOf(dest)),
      assets: located,
      assets_transfer_type: TRANSFER_TYPES[assetsType] ?? `TransferType(${assetsType})`,
      remote_fees_id: located[feeIndex]?.id ?? null,
      fees_transfer_type: TRANSFER_TYPES[feesType] ?? `TransferType(${feesType})`,
      custom_xcm_on_dest: registry.createType('XcmVersionedXcm', customXcm).toJSON(),
    },
    [{ chain: expected.to, recipient: expected.recipient }],
    request,
  );
}
