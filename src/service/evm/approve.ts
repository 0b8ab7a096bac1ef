// The ERC-20 approval a Snowbridge transfer from Ethereum needs first: the gateway pulls the token
// with transferFrom, so the sender approves it for at least the amount (`/evm-x-transfer` answers
// AllowanceRequiredError until then). Built offline: nothing but the registry and the gateway's
// address, which come from the environment the SDK ships with.
import { encodeFunctionData, getAddress, isAddress, serializeTransaction, zeroAddress, type Hex } from 'viem';
import type { TCurrencyInput } from '@paraspell/sdk-pjs';
import { badRequest } from '../../errors';
import { sdk } from '../../sdk';
import type { EvmApproveRequest } from '../../schemas/evm-approve';
import { toBaseUnits } from '../evm-transfer';
import { sdkCall } from '../sdk-errors';
import { ERC20_ABI, ETHEREUM_CHAIN_ID, GATEWAY } from '../snowbridge';

/**
 * The serialized unsigned EIP-1559 transaction `approve(gateway, amount)` on the token, with the
 * amount in base units scaled exactly as `/evm-x-transfer` scales it: chain id, to and data only
 * (value 0); the client adds gas, fees and nonce and signs it with the sender's key.
 */
export function buildApprove(req: EvmApproveRequest): Hex {
  const { amount, ...selector } = req.currency;
  const asset = sdkCall(() => sdk.findAssetInfoOrThrow('Ethereum', selector as TCurrencyInput, null));
  const tokenId = 'assetId' in asset ? asset.assetId : undefined;
  if (typeof tokenId !== 'string' || !isAddress(tokenId, { strict: false })) throw badRequest('InvalidCurrencyError', `${asset.symbol} has no token address on Ethereum`);
  const token = getAddress(tokenId);
  if (token === zeroAddress) {
    throw badRequest('UnsupportedOperationError', `${asset.symbol} is Ether, not an ERC-20: /evm-x-transfer sends it as the transaction's value, with no approval`);
  }
  const units = toBaseUnits(amount, asset, req.abstractDecimals);
  const data = encodeFunctionData({ abi: ERC20_ABI, functionName: 'approve', args: [GATEWAY, units] });
  return serializeTransaction({ type: 'eip1559', chainId: ETHEREUM_CHAIN_ID, to: token, data });
}
