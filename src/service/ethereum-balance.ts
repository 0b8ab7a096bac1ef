// Balances on Ethereum. sdk-pjs 11.14.8 reads them through a viem client on a hard-coded public RPC
// (no override, no deadline, no development mode), so this service reads them itself: from the
// caller's `apiOverrides.Ethereum` (HTTP JSON-RPC URLs, in failover order) or, outside development
// mode, the same public endpoint the SDK uses; every endpoint under the connect deadline.
import { createRequire } from 'node:module';
import type { TCurrencyCore } from '@paraspell/sdk-pjs';
import type { Config } from '../config';
import { withDeadline } from '../chains/deadline';
import { ApiError, badRequest, ProviderUnavailableError } from '../errors';
import { sdk } from '../sdk';
import { isEvmAddress } from '../schemas/address';
import { AddressGuard } from '../chains/address-guard';
import { checkOverrideHosts } from './endpoints';
import { sdkCall } from './sdk-errors';

// viem's own .d.ts pulls in sources that need the DOM lib; the little used here is typed locally.
interface EthereumClient {
  getBalance(args: { address: string }): Promise<bigint>;
  readContract(args: { address: string; abi: unknown; functionName: 'balanceOf'; args: [string] }): Promise<bigint>;
}
interface Viem {
  createPublicClient(options: { chain: unknown; transport: unknown }): EthereumClient;
  http(url: string, options: { timeout: number; retryCount: number }): unknown;
  erc20Abi: unknown;
}
const load = createRequire(__filename);
const viem = load('viem') as Viem;
const { mainnet } = load('viem/chains') as { mainnet: unknown };

/** sdk-core's ETHEREUM_RPC_URL (not exported). */
export const ETHEREUM_PUBLIC_RPC = 'https://ethereum.publicnode.com/';

export interface EthereumBalanceRequest {
  address: string;
  currency?: TCurrencyCore;
  development: boolean;
  /** `options.apiOverrides.Ethereum`: JSON-RPC URLs. */
  endpoints?: string[];
}

async function endpointsFor(req: EthereumBalanceRequest, allowPrivate: boolean): Promise<string[]> {
  if (req.endpoints?.length) {
    await checkOverrideHosts({ Ethereum: req.endpoints }, new AddressGuard(allowPrivate));
    return req.endpoints;
  }
  if (req.development) {
    throw badRequest('MissingChainApiError', 'options.development is on and options.apiOverrides has no endpoint for Ethereum (an HTTP JSON-RPC URL), which this request needs', [
      { path: 'body.options.apiOverrides.Ethereum', message: 'is required in development mode' },
    ]);
  }
  return [ETHEREUM_PUBLIC_RPC];
}

const reasonOf = (error: unknown): string => {
  const e = error as { shortMessage?: string; details?: string; message?: string };
  return [e.shortMessage, e.details].filter(Boolean).join(': ') || String(e.message ?? error);
};

/** The balance of `address` in base units: ETH by default, an ERC-20 of the registry otherwise. */
export async function ethereumBalance(req: EthereumBalanceRequest, config: Pick<Config, 'CONNECT_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS' | 'ALLOW_PRIVATE_OVERRIDES'>): Promise<bigint> {
  if (!isEvmAddress(req.address)) throw badRequest('InvalidAddressError', 'The address must be a 20-byte EVM address (0x...) on Ethereum');
  const asset = sdkCall(() => sdk.findAssetInfoOrThrow('Ethereum', req.currency ?? { symbol: sdk.getNativeAssetSymbol('Ethereum') }, null));
  const native = asset.symbol === sdk.getNativeAssetSymbol('Ethereum');
  const token = 'assetId' in asset ? asset.assetId : undefined;
  if (!native && (token === undefined || !isEvmAddress(token))) throw badRequest('InvalidCurrencyError', `${asset.symbol} has no ERC-20 contract address in the registry`);
  const urls = await endpointsFor(req, config.ALLOW_PRIVATE_OVERRIDES);
  return withDeadline(() => readBalance(urls, req.address, native ? undefined : (token as string), config.CONNECT_TIMEOUT_MS), config.REQUEST_TIMEOUT_MS, 'Reading a balance on Ethereum');
}

/** Tries each endpoint in order: the ETH balance, or `token`'s ERC-20 balanceOf. */
async function readBalance(urls: string[], owner: string, token: string | undefined, timeoutMs: number): Promise<bigint> {
  let last: unknown;
  for (const url of urls) {
    const client = viem.createPublicClient({ chain: mainnet, transport: viem.http(url, { timeout: timeoutMs, retryCount: 0 }) });
    try {
      return token === undefined ? await client.getBalance({ address: owner }) : await client.readContract({ address: token, abi: viem.erc20Abi, functionName: 'balanceOf', args: [owner] });
    } catch (error) {
      // Unreachable or silent: try the next endpoint. Anything else is the node's answer.
      const name = (error as { name?: string }).name;
      const cause = (error as { cause?: { name?: string } }).cause?.name;
      if (![name, cause].some((n) => n === 'HttpRequestError' || n === 'TimeoutError')) {
        throw new ApiError(502, 'ChainResponseError', `Ethereum (${url}) answered the balance query with an error: ${reasonOf(error)}`);
      }
      last = error;
    }
  }
  throw new ProviderUnavailableError('Ethereum', urls, reasonOf(last));
}
