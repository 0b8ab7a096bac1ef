// Ethereum -> Polkadot over Snowbridge (V1 gateway): `sendToken` on the gateway proxy, paid in
// ETH with the fee the gateway quotes. Gateway address, chain id, default endpoint and the
// per-destination fees come from Snowbridge's environment, the one the SDK ships with.
import { decodeFunctionResult, encodeFunctionData, getAddress, parseAbi, zeroAddress, type Address, type Hex } from 'viem';
import type { TChain } from '@paraspell/sdk-pjs';
import { ApiError, badRequest } from '../errors';
import { sdk, snowbridgeMainnet } from '../sdk';
import { accountId32 } from './evm-locations';
import { EthCallRevertedError, type EthRpc } from './eth-rpc';

export const GATEWAY_ABI = parseAbi([
  'function sendToken(address token, uint32 destinationChain, (uint8 kind, bytes data) destinationAddress, uint128 destinationFee, uint128 amount) payable',
  'function quoteSendTokenFee(address token, uint32 destinationChain, uint128 destinationFee) view returns (uint256)',
]);

export const ERC20_ABI = parseAbi([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
]);

export const GATEWAY: Address = getAddress(snowbridgeMainnet.config.GATEWAY_CONTRACT);
export const ETHEREUM_CHAIN_ID = snowbridgeMainnet.ethChainId;
/** The registry's public Ethereum endpoint, used when the operator sets no ETHEREUM_RPC_URL. */
export const DEFAULT_ETHEREUM_RPC = snowbridgeMainnet.config.ETHEREUM_CHAINS[String(ETHEREUM_CHAIN_ID)];

/** `destinationAddress.kind` of the gateway's MultiAddress. */
const ADDRESS_32 = 1;
const ADDRESS_20 = 2;

export interface SnowbridgeDestination {
  chain: TChain;
  paraId: number;
  /** DOT (base units) the asset hub pays to deliver onwards; 0 for the asset hub itself. */
  destinationFee: bigint;
}

const SERVED: SnowbridgeDestination[] = sdk.CHAINS.flatMap((chain) => {
  if (chain === 'Ethereum' || sdk.getRelayChainOf(chain) !== 'Polkadot' || sdk.isRelayChain(chain)) return [];
  const paraId = sdk.getParaId(chain);
  const info = snowbridgeMainnet.locations.find((l) => l.paraInfo?.paraId === paraId)?.paraInfo;
  return info ? [{ chain, paraId, destinationFee: info.destinationFeeDOT }] : [];
});

/** Where `sendToken` can deliver: Snowbridge's destinations that the registry knows. */
export function snowbridgeDestination(to: TChain): SnowbridgeDestination {
  const found = SERVED.find((d) => d.chain === to);
  if (found) return found;
  throw badRequest(
    'UnsupportedOperationError',
    `Ethereum -> ${to} is not served: Snowbridge's sendToken delivers to ${SERVED.map((d) => d.chain).join(', ')} (the destinations with a known delivery fee); send to AssetHubPolkadot and on from there with POST /x-transfer`,
  );
}

export interface SendToken {
  token: Address;
  symbol: string;
  /** Base units. */
  amount: bigint;
  destination: SnowbridgeDestination;
  recipient: string;
  sender: Address;
}

export interface EvmCall {
  chainId: number;
  to: Address;
  data: Hex;
  value: bigint;
}

function recipientAddress(recipient: string, to: TChain): { kind: number; data: Hex } {
  if (sdk.isChainEvm(to)) return { kind: ADDRESS_20, data: getAddress(recipient).toLowerCase() as Hex };
  return { kind: ADDRESS_32, data: accountId32(recipient) };
}

async function quoteFee(rpc: EthRpc, transfer: SendToken): Promise<bigint> {
  const data = encodeFunctionData({
    abi: GATEWAY_ABI,
    functionName: 'quoteSendTokenFee',
    args: [transfer.token, transfer.destination.paraId, transfer.destination.destinationFee],
  });
  let answer: Hex;
  try {
    answer = await rpc.call(GATEWAY, data);
  } catch (error) {
    if (error instanceof EthCallRevertedError) {
      throw badRequest('UnsupportedOperationError', `The Snowbridge gateway refuses to quote ${transfer.symbol} to ${transfer.destination.chain}: ${error.message}`);
    }
    throw error;
  }
  try {
    return decodeFunctionResult({ abi: GATEWAY_ABI, functionName: 'quoteSendTokenFee', data: answer });
  } catch {
    throw rpc.unavailable(`quoteSendTokenFee answered ${answer.slice(0, 20)}, not a fee (is ${GATEWAY} the gateway on this chain?)`);
  }
}

/** The sender's allowance for the gateway, or undefined when the token does not answer `allowance`. */
async function readAllowance(rpc: EthRpc, transfer: SendToken): Promise<bigint | undefined> {
  const data = encodeFunctionData({ abi: ERC20_ABI, functionName: 'allowance', args: [transfer.sender, GATEWAY] });
  try {
    return decodeFunctionResult({ abi: ERC20_ABI, functionName: 'allowance', data: await rpc.call(transfer.token, data) });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    return undefined;
  }
}

/**
 * The gateway call: value is the quoted fee, plus the amount itself when the asset is ETH. An
 * ERC-20 is pulled by the gateway, so the sender must have approved it for at least the amount.
 */
export async function buildSendToken(rpc: EthRpc, transfer: SendToken): Promise<EvmCall> {
  const isEther = transfer.token === zeroAddress;
  const recipient = recipientAddress(transfer.recipient, transfer.destination.chain);
  await rpc.expectChain(ETHEREUM_CHAIN_ID);
  const [fee, allowance] = await Promise.all([quoteFee(rpc, transfer), isEther ? undefined : readAllowance(rpc, transfer)]);
  if (allowance !== undefined && allowance < transfer.amount) {
    throw badRequest(
      'AllowanceRequiredError',
      `${transfer.sender} has approved ${allowance} base units of ${transfer.symbol} (${transfer.token}) for the Snowbridge gateway, less than the ${transfer.amount} to send: first send approve(${GATEWAY}, ${transfer.amount}) to ${transfer.token} from ${transfer.sender} (POST /evm-approve with the same currency and sender builds that transaction)`,
    );
  }
  const data = encodeFunctionData({
    abi: GATEWAY_ABI,
    functionName: 'sendToken',
    args: [transfer.token, transfer.destination.paraId, recipient, transfer.destination.destinationFee, transfer.amount],
  });
  return { chainId: ETHEREUM_CHAIN_ID, to: GATEWAY, data, value: isEther ? fee + transfer.amount : fee };
}
