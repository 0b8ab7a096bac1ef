// Moonbeam -> Ethereum, as the registry (sdk SDK_VERSION) routes it: Moonbeam's XCM-interface
// precompile sends the token and the bridge fee (in xcDOT) to the asset hub, with a message for
// the asset hub that forwards the token over Snowbridge. Building it reads three chains: whether
// BridgeHub's outbound queue runs, the asset hub's current bridge fee, and the sender's next nonce
// on Moonbeam (for the message id); the message itself is encoded with Moonbeam's metadata.
import { bytesToHex, concat, encodeFunctionData, getAddress, hexToBytes, parseAbi, stringToBytes, zeroAddress, type Address, type Hex } from 'viem';
import type { TAssetInfo, TLocation } from '@paraspell/sdk-pjs';
import { ApiError, badRequest, ChainResponseError } from '../../errors';
import { sdk, utilCrypto, type ApiPromise } from '../../sdk';
import { parachainJunction, xc20Address } from './precompile-locations';
import type { EvmCall } from './snowbridge';
import { accountJunction, junctionsOf, location, normalize, type Location } from '../transfer';
import { XTOKENS_ORIGINS } from './xtokens-precompile';

export const XCM_INTERFACE_PRECOMPILE: Address = getAddress('0x000000000000000000000000000000000000081A');

// Moonkit's pallet-xcm precompile (`transfer_assets_using_type_and_then_address_no_remote_reserve`).
export const XCM_INTERFACE_ABI = parseAbi([
  'function transferAssetsUsingTypeAndThenAddress((uint8 parents, bytes[] interior) dest, (address asset, uint256 amount)[] assets, uint8 assetsTransferType, uint8 remoteFeesIdIndex, uint8 feesTransferType, bytes customXcmOnDest)',
]);

/** The precompile's TransferType: Teleport = 0, LocalReserve = 1, DestinationReserve = 2. */
const DESTINATION_RESERVE = 2;

/** The chains this route reads. */
export const ROUTE_CHAINS = ['Moonbeam', 'AssetHubPolkadot', 'BridgeHubPolkadot'] as const;

/**
 * The asset hub's `BridgeHubEthereumBaseFee` (a `parameter_types!` storage item: its key is
 * twox128(":BridgeHubEthereumBaseFee:"), its value a SCALE u128 in DOT planck), the default the
 * runtime uses while it is unset, and the asset hub's execution fee: the figures sdk SDK_VERSION
 * uses (`getParaEthTransferFees`, `ASSET_HUB_EXECUTION_FEE`), each padded by 10% as it does.
 */
const BRIDGE_FEE_KEY = '0x5fbc5c7ba58845ad1f1a9a7c5bc12fad';
const DEFAULT_BRIDGE_FEE = 2_750_872_500_000n;
const ASSET_HUB_EXECUTION_FEE = 2_200_000_000n;
const pad10 = (fee: bigint): bigint => (fee * 110n) / 100n;

const ETHEREUM_JUNCTION = { GlobalConsensus: { Ethereum: { chainId: 1 } } };

/** Everything about the transfer that is known before any chain is dialled. */
export interface MoonbeamToEthereum {
  /** The asset on Moonbeam (an XC-20: Snowbridge's `.e` tokens, or DOT itself). */
  asset: TAssetInfo & { location: TLocation; assetId: string };
  /** Its address on Ethereum (zero for ETH) and its location seen from the asset hub. */
  token: { address: Hex; location: Location };
  /** Base units. */
  amount: bigint;
  sender: Address;
  /** As the caller wrote it: the message id hashes these exact characters. */
  recipient: string;
  /** The sender's account on the asset hub, where whatever is left there goes. */
  ahAddress: string;
  /** xcDOT, which pays the asset hub and the bridge. */
  feeAsset: Address;
}

/** Under Ethereum's global consensus: a token whose reserve is Ethereum. */
const isEthereumNative = (loc: TLocation): boolean =>
  junctionsOf(loc).some((j) => JSON.stringify(j['GlobalConsensus']) === JSON.stringify(ETHEREUM_JUNCTION.GlobalConsensus));

/** (1, Here): the relay chain's own token, DOT. */
const isRelayNative = (loc: TLocation): boolean => Number(loc.parents) === 1 && junctionsOf(loc).length === 0;

/**
 * The route's checks that need no chain: the asset must be one the bridge carries from the
 * asset hub (a token native to Ethereum, or DOT, which Ethereum holds as a Polkadot-native ERC-20)
 * and have its counterpart on Ethereum in the registry.
 */
export function planMoonbeamToEthereum(
  asset: TAssetInfo,
  onEthereum: TAssetInfo | null,
  transfer: Pick<MoonbeamToEthereum, 'amount' | 'sender' | 'recipient' | 'ahAddress'>,
): MoonbeamToEthereum {
  const dot = sdk.findAssetInfo('Moonbeam', { location: { parents: 1, interior: { Here: null } } }, null);
  if (!dot || !('assetId' in dot) || typeof dot.assetId !== 'string') throw new Error('the registry has no DOT XC-20 on Moonbeam');
  if (!asset.location || !('assetId' in asset) || typeof asset.assetId !== 'string') {
    throw badRequest('UnsupportedOperationError', `${asset.symbol} on Moonbeam is not an XC-20, so the XCM precompile cannot send it to Ethereum`);
  }
  if (!isEthereumNative(asset.location) && !isRelayNative(asset.location)) {
    throw badRequest(
      'UnsupportedOperationError',
      `Moonbeam -> Ethereum carries tokens native to Ethereum (the registry's ".e" assets, e.g. WETH.e) and DOT; ${asset.symbol} is neither. Send it to AssetHubPolkadot and on from there with POST /x-transfer`,
    );
  }
  if (!onEthereum || !('assetId' in onEthereum) || typeof onEthereum.assetId !== 'string' || !onEthereum.location) {
    throw badRequest('InvalidCurrencyError', `${asset.symbol} on Moonbeam has no counterpart on Ethereum in the registry`);
  }
  return {
    ...transfer,
    asset: asset as MoonbeamToEthereum['asset'],
    feeAsset: xc20Address(dot.assetId),
    token: { address: onEthereum.assetId.toLowerCase() as Hex, location: normalize(onEthereum.location) },
  };
}

// ---- chain reads ---------------------------------------------------------------------------

/** The DOT the asset hub needs to send on over the bridge and to execute there, padded as upstream does. */
async function bridgeFees(assetHub: ApiPromise): Promise<bigint> {
  const stored = (await assetHub.rpc.state.getStorage(BRIDGE_FEE_KEY)) as unknown as { toU8a(bare: boolean): Uint8Array };
  const bytes = stored.toU8a(true);
  if (bytes.length !== 0 && bytes.length !== 16) {
    throw new ChainResponseError('AssetHubPolkadot', `holds ${bytes.length} bytes under BridgeHubEthereumBaseFee (${BRIDGE_FEE_KEY}), not a u128`);
  }
  const stored128 = bytes.length === 0 ? 0n : BigInt(bytesToHex(bytes.slice().reverse()));
  return pad10(stored128 === 0n ? DEFAULT_BRIDGE_FEE : stored128) + pad10(ASSET_HUB_EXECUTION_FEE);
}

/** The sender's next nonce on Moonbeam, spelt as polkadot.js spells it (`0x` + the u32 in 8 hex digits). */
async function nextNonceHex(moonbeam: ApiPromise, sender: Address): Promise<string> {
  return (await moonbeam.rpc.system.accountNextIndex(sender)).toHex();
}

/**
 * The SetTopic of the message: blake2-256 over what sdk SDK_VERSION hashes (Moonbeam's para id and
 * the nonce as text, the sender's bytes, the token's address bytes, the recipient and the amount
 * as text), so the id matches what a wallet on the registry's SDK would send.
 */
function messageId(plan: MoonbeamToEthereum, nonceHex: string): Hex {
  const entropy = concat([
    stringToBytes(String(sdk.getParaId('Moonbeam'))),
    hexToBytes(plan.sender),
    stringToBytes(nonceHex),
    hexToBytes(plan.token.address),
    stringToBytes(plan.recipient),
    stringToBytes(plan.amount.toString()),
  ]);
  return utilCrypto.blake2AsHex(entropy, 256) as Hex;
}

// ---- the message for the asset hub ---------------------------------------------------------

/**
 * What the asset hub runs (XCM V4, as upstream): leftovers go back to `ahAddress` whatever
 * happens (SetAppendix), then the token crosses to Ethereum, where it is deposited to the
 * recipient. A token native to Ethereum goes back to its reserve (InitiateReserveWithdraw); DOT,
 * whose reserve is the asset hub, is deposited there for Ethereum (DepositReserveAsset).
 */
function assetHubProgram(plan: MoonbeamToEthereum, topic: Hex): unknown {
  const ethereum = location(2, [ETHEREUM_JUNCTION]);
  const onEthereum = (fees: Location) => [
    { BuyExecution: { fees: { id: fees, fun: { Fungible: 1n } }, weightLimit: 'Unlimited' } },
    { DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: location(0, [{ AccountKey20: { network: null, key: plan.recipient.toLowerCase() } }]) } },
    { SetTopic: topic },
  ];
  let main: unknown;
  if (isEthereumNative(plan.asset.location)) {
    const token = plan.token.address === zeroAddress ? location(0, []) : location(0, [{ AccountKey20: { network: null, key: plan.token.address } }]);
    main = { InitiateReserveWithdraw: { assets: { Wild: { AllOf: { id: plan.token.location, fun: 'Fungible' } } }, reserve: ethereum, xcm: onEthereum(token) } };
  } else {
    const relay = location(1, [{ GlobalConsensus: { [sdk.getRelayChainOf('Moonbeam')]: null } }]);
    main = { DepositReserveAsset: { assets: { Wild: { AllOf: { id: normalize(plan.asset.location), fun: 'Fungible' } } }, dest: ethereum, xcm: onEthereum(relay) } };
  }
  return {
    V4: [
      { SetAppendix: [{ DepositAsset: { assets: { Wild: 'All' }, beneficiary: location(0, [accountJunction(plan.ahAddress)]) } }] },
      main,
      { SetTopic: topic },
    ],
  };
}

export interface RouteApis {
  moonbeam: ApiPromise;
  assetHub: ApiPromise;
  bridgeHub: ApiPromise;
}

/**
 * The precompile call. Its `assets` are XC-20 addresses: the precompile maps each address to a
 * location through Moonbeam's matchers (0x...0802 the native token, 0xffffffff + id a foreign
 * asset from Moonbeam's asset registry, anything else a local ERC-20 of the Erc20XcmBridge
 * pallet). Upstream SDK_VERSION passes the token's Ethereum address (e.g. WETH's 0xc02a...), which
 * Moonbeam would read as a local ERC-20 at that address, not the bridged token.
 */
export async function buildMoonbeamToEthereum(plan: MoonbeamToEthereum, apis: RouteApis): Promise<EvmCall> {
  // The SDK's own reading of BridgeHub's Snowbridge outbound queue, as GET /x-transfer/eth-bridge-status answers it.
  const [mode, fee, nonce] = await Promise.all([sdk.getBridgeStatus(apis.bridgeHub), bridgeFees(apis.assetHub), nextNonceHex(apis.moonbeam, plan.sender)]);
  // The kind /x-transfer answers for the SDK's BridgeHaltedError.
  if (mode !== 'Normal') {
    throw new ApiError(503, 'FeatureTemporarilyDisabledError', `Snowbridge is halted: BridgeHubPolkadot's outbound queue to Ethereum is ${mode}; try again when governance resumes it`);
  }
  const customXcm = apis.moonbeam.createType('XcmVersionedXcm', assetHubProgram(plan, messageId(plan, nonce))).toHex();
  const assetHub = { parents: 1, interior: [parachainJunction(sdk.getParaId('AssetHubPolkadot'))] };
  const data = encodeFunctionData({
    abi: XCM_INTERFACE_ABI,
    functionName: 'transferAssetsUsingTypeAndThenAddress',
    args: [
      assetHub,
      // The fee first (index 0). pallet-xcm sorts the assets before it reads the index, and DOT
      // (1, Here) sorts before every Ethereum token (2, ...); for DOT itself the two entries merge.
      [
        { asset: plan.feeAsset, amount: fee },
        { asset: xc20Address(plan.asset.assetId), amount: plan.amount },
      ],
      DESTINATION_RESERVE,
      0,
      DESTINATION_RESERVE,
      customXcm,
    ],
  });
  return { chainId: XTOKENS_ORIGINS.Moonbeam!, to: XCM_INTERFACE_PRECOMPILE, data, value: 0n };
}
