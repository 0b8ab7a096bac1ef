// Moonbeam and Moonriver: the XTokens precompile. Everything comes from the registry, so the
// call is built without dialling any chain.
import { encodeFunctionData, getAddress, maxUint64, parseAbi, type Address, type Hex } from 'viem';
import type { TAssetInfo, TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import { badRequest } from '../../errors';
import { sdk } from '../../sdk';
import { accountJunction, beneficiaryLocation, xc20Address } from './precompile-locations';
import type { EvmCall } from './snowbridge';

export const XTOKENS_PRECOMPILE: Address = getAddress('0x0000000000000000000000000000000000000804');
/** The native token (GLMR, MOVR) as an ERC-20. */
export const NATIVE_ERC20: Address = getAddress('0x0000000000000000000000000000000000000802');

export const XTOKENS_ABI = parseAbi([
  'function transfer(address currencyAddress, uint256 amount, (uint8 parents, bytes[] interior) destination, uint64 weight)',
  'function transferMultiCurrencies((address currencyAddress, uint256 amount)[] currencies, uint32 feeItem, (uint8 parents, bytes[] interior) destination, uint64 weight)',
]);

/** Origins served through the precompile, with their EIP-155 chain ids. */
export const XTOKENS_ORIGINS: Partial<Record<TChain, number>> = { Moonbeam: 1284, Moonriver: 1285 };

/** u64::MAX: the precompile reads it as "Unlimited" weight. */
const UNLIMITED = maxUint64;

export interface XTokensTransfer {
  from: TChain;
  to: TChain;
  asset: TAssetInfo;
  /** Base units. */
  amount: bigint;
  recipient: string;
  /** A second asset that pays the fees on every chain the transfer reaches (xtokens' fee item). */
  fee?: { asset: TAssetInfo; amount: bigint };
}

function erc20Of(from: TChain, asset: TAssetInfo): Address {
  if (asset.symbol === sdk.getNativeAssetSymbol(from)) return NATIVE_ERC20;
  if (!('assetId' in asset) || typeof asset.assetId !== 'string') {
    throw badRequest('InvalidCurrencyError', `${asset.symbol} on ${from} has no asset id, so it has no XC-20 address`);
  }
  return xc20Address(asset.assetId);
}

/** The destination must be a chain of the origin's ecosystem, other than the origin. */
export function checkXTokensDestination(from: TChain, to: TChain): void {
  if (to === from) throw badRequest('UnsupportedOperationError', `from and to are both ${from}: a transfer on ${from} itself is a plain ERC-20 transfer, not an XCM one`);
  // Moonbeam -> Ethereum goes through the XCM precompile (moonbeam-ethereum.ts), not here.
  if (to === 'Ethereum') throw badRequest('UnsupportedOperationError', `${from} -> Ethereum is not a route of the registry; Moonbeam -> Ethereum is`);
  const relay = sdk.getRelayChainOf(from as TSubstrateChain);
  if (sdk.getRelayChainOf(to as TSubstrateChain) !== relay) {
    throw badRequest('UnsupportedOperationError', `${to} is not in the ${relay} ecosystem, which ${from}'s XTokens precompile reaches`);
  }
}

export function buildXTokensTransfer({ from, to, asset, amount, recipient, fee }: XTokensTransfer): EvmCall {
  const paraId = sdk.isRelayChain(to) ? undefined : sdk.getParaId(to);
  const destination = beneficiaryLocation(paraId, accountJunction(recipient, sdk.isChainEvm(to)));
  const currency = erc20Of(from, asset);
  const data: Hex = fee
    ? encodeFunctionData({
        abi: XTOKENS_ABI,
        functionName: 'transferMultiCurrencies',
        args: [[{ currencyAddress: currency, amount }, { currencyAddress: erc20Of(from, fee.asset), amount: fee.amount }], 1, destination, UNLIMITED],
      })
    : encodeFunctionData({ abi: XTOKENS_ABI, functionName: 'transfer', args: [currency, amount, destination, UNLIMITED] });
  return { chainId: XTOKENS_ORIGINS[from]!, to: XTOKENS_PRECOMPILE, data, value: 0n };
}
