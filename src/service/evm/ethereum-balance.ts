// Balances on Ethereum. sdk-pjs SDK_VERSION reads them through a viem client on a hard-coded public RPC
// (no override, no deadline, no development mode), so this service reads them itself: from the
// caller's `apiOverrides.Ethereum` (HTTP JSON-RPC URLs, in failover order) or, outside development
// mode, the same public endpoint the SDK uses; every endpoint under the connect deadline.
import { decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import type { TCurrencyCore } from '@paraspell/sdk-pjs';
import type { Config } from '../../config';
import type { AddressGuard } from '../../chains/address-guard';
import { withDeadline } from '../../chains/deadline';
import { ApiError, badRequest, ProviderUnavailableError } from '../../errors';
import { sdk } from '../../sdk';
import { isEvmAddress } from '../../schemas/address';
import { checkOverrideHosts, sdkCall } from '../sdk-calls';
import { EthCallRevertedError, EthRpc, redactUrl } from './ethereum-rpc';

/** sdk-core's ETHEREUM_RPC_URL (not exported). */
export const ETHEREUM_PUBLIC_RPC = 'https://ethereum.publicnode.com/';

export interface EthereumBalanceRequest {
  address: string;
  currency?: TCurrencyCore;
  development: boolean;
  /** `options.apiOverrides.Ethereum`: JSON-RPC URLs. */
  endpoints?: string[];
}

async function endpointsFor(req: EthereumBalanceRequest, guard: AddressGuard): Promise<string[]> {
  if (req.endpoints?.length) {
    await checkOverrideHosts({ Ethereum: req.endpoints }, guard);
    return req.endpoints;
  }
  if (req.development) {
    throw badRequest('MissingChainApiError', 'options.development is on and options.apiOverrides has no endpoint for Ethereum (an HTTP JSON-RPC URL), which this request needs', [
      { path: 'body.options.apiOverrides.Ethereum', message: 'is required in development mode' },
    ]);
  }
  return [ETHEREUM_PUBLIC_RPC];
}

/** The balance of `address` in base units: ETH by default, an ERC-20 of the registry otherwise. */
export async function ethereumBalance(
  req: EthereumBalanceRequest,
  config: Pick<Config, 'CONNECT_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS' | 'CHAIN_MAX_FRAME_BYTES'>,
  guard: AddressGuard,
): Promise<bigint> {
  if (!isEvmAddress(req.address)) throw badRequest('InvalidAddressError', 'The address must be a 20-byte EVM address (0x...) on Ethereum');
  const asset = sdkCall(() => sdk.findAssetInfoOrThrow('Ethereum', req.currency ?? { symbol: sdk.getNativeAssetSymbol('Ethereum') }, null));
  const native = asset.symbol === sdk.getNativeAssetSymbol('Ethereum');
  const token = 'assetId' in asset ? asset.assetId : undefined;
  if (!native && (token === undefined || !isEvmAddress(token))) throw badRequest('InvalidCurrencyError', `${asset.symbol} has no ERC-20 contract address in the registry`);
  const urls = await endpointsFor(req, guard);
  return withDeadline(
    async (signal) => {
      let unavailable: ProviderUnavailableError | undefined;
      // Each endpoint in order: one that is unreachable or silent gives way to the next.
      for (const url of urls) {
        const rpc = new EthRpc(url, { answerTimeoutMs: config.CONNECT_TIMEOUT_MS, signal, guard, maxBytes: config.CHAIN_MAX_FRAME_BYTES });
        try {
          return await readBalance(rpc, req.address as Hex, native ? undefined : (token as Hex));
        } catch (error) {
          if (!(error instanceof ProviderUnavailableError)) throw error;
          unavailable = error;
        }
      }
      throw new ProviderUnavailableError('Ethereum', urls.map(redactUrl), unavailable?.reason ?? 'no endpoint answered');
    },
    config.REQUEST_TIMEOUT_MS,
    'Reading a balance on Ethereum',
  );
}

/** The ETH balance, or `token`'s ERC-20 balanceOf; an answer that is not a balance is the node's fault (502). */
async function readBalance(rpc: EthRpc, owner: Hex, token: Hex | undefined): Promise<bigint> {
  const wrong = (what: string) => new ApiError(502, 'ChainResponseError', `Ethereum answered the balance query with ${what}`);
  if (token === undefined) {
    const result = await rpc.request('eth_getBalance', [owner, 'latest']);
    if (typeof result !== 'string' || !/^0x[0-9a-f]{1,64}$/i.test(result)) throw wrong('no quantity');
    return BigInt(result);
  }
  try {
    const data = await rpc.call(token, encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] }));
    return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data });
  } catch (error) {
    if (error instanceof EthCallRevertedError) throw wrong(`a revert of balanceOf on ${token}: ${error.message}`);
    if (error instanceof ProviderUnavailableError || error instanceof ApiError) throw error;
    throw wrong(`bytes that are not a balanceOf answer (${(error as Error).message.split('\n')[0]})`);
  }
}
