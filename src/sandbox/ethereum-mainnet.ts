// The sandbox's Ethereum (chain id 1): as much of mainnet's state and JSON-RPC as a wallet's
// Snowbridge transfer reads, answered with the real ABI encodings at the real addresses. It holds
// the Snowbridge Gateway proxy (quoteSendTokenFee, isTokenRegistered, sendToken's checks) and WETH
// (an ERC-20: balanceOf, allowance, decimals, symbol, name, totalSupply); the development accounts
// hold ETH and WETH and have approved the Gateway for their WETH, as if each had sent the approval
// POST /evm-approve builds. No EVM runs and no transaction is taken: the state never changes, and
// one block (the head) answers for every block tag. The Gateway's fee is its V1 formula over the
// emulated pricing below, not mainnet's current parameters.
import { decodeFunctionData, encodeFunctionResult, erc20Abi, getAddress, parseAbi, zeroAddress, type Hex } from 'viem';
import { ethCallOf, EthereumRpcError, type EthCall } from './ethereum-rpc';

/** The Snowbridge Gateway proxy and WETH on mainnet (the SDK's Snowbridge environment and registry name the same). */
export const GATEWAY = getAddress('0x27ca963c279c93801941e1eb8799c23f407d68e7');
export const WETH = getAddress('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2');

const GATEWAY_ABI = parseAbi([
  'function sendToken(address token, uint32 destinationChain, (uint8 kind, bytes data) destinationAddress, uint128 destinationFee, uint128 amount) payable',
  'function quoteSendTokenFee(address token, uint32 destinationChain, uint128 destinationFee) view returns (uint256)',
  'function isTokenRegistered(address token) view returns (bool)',
]);

const ETHER = 10n ** 18n;
/** What each development account holds. */
const ETH_HELD = 10_000n * ETHER;
const WETH_HELD = 1_000n * ETHER;

/** Gas prices (wei): the head's base fee and the tip the node suggests. */
const BASE_FEE = 1_000_000_000n;
const PRIORITY_FEE = 100_000_000n;
const GAS_LIMIT = 30_000_000n;
/** What `eth_estimateGas` answers, by what the transaction does (typical mainnet figures). */
const GAS = { transfer: 21_000n, approve: 46_000n, sendToken: 120_000n, call: 50_000n };

/**
 * The Gateway's pricing (emulated): the delivery cost and the asset hub's reserve transfer fee in
 * DOT base units (10 decimals), converted to wei at the exchange rate (ETH per DOT) and padded by
 * the multiplier, as Gateway V1's `_calculateFee` does.
 */
const PRICING = { deliveryCost: 500_000_000n, assetHubReserveTransferFee: 2_000_000_000n, ethPerDot: [15n, 10_000n], multiplier: [133n, 100n] } as const;
const ASSET_HUB_PARA_ID = 1000;

/** `quoteSendTokenFee(token, destinationChain, destinationFee)`: wei. */
export function quoteSendTokenFee(destinationChain: number, destinationFee: bigint): bigint {
  const foreign = PRICING.deliveryCost + PRICING.assetHubReserveTransferFee + (destinationChain === ASSET_HUB_PARA_ID ? 0n : destinationFee);
  const [rateNum, rateDen] = PRICING.ethPerDot;
  const [mulNum, mulDen] = PRICING.multiplier;
  return (foreign * 10n ** 8n * rateNum * mulNum) / (rateDen * mulDen);
}

const revert = (reason: string) => new EthereumRpcError(3, `execution reverted: ${reason}`);
const quantity = (n: bigint | number) => `0x${n.toString(16)}`;

/** Mainnet as the sandbox holds it: the development accounts' ETH, WETH and WETH allowances for the Gateway. */
export class EthereumMainnet {
  readonly #accounts: Set<string>;
  readonly #head: { number: number; timestamp: number };

  constructor(accounts: readonly string[], startedAt = Date.now()) {
    this.#accounts = new Set(accounts.map((a) => a.toLowerCase()));
    this.#head = { number: 1, timestamp: Math.floor(startedAt / 1000) };
  }

  ethBalance(who: string): bigint {
    return this.#accounts.has(who.toLowerCase()) ? ETH_HELD : 0n;
  }

  wethBalance(who: string): bigint {
    return this.#accounts.has(who.toLowerCase()) ? WETH_HELD : 0n;
  }

  wethAllowance(owner: string, spender: string): bigint {
    return this.#accounts.has(owner.toLowerCase()) && getAddress(spender) === GATEWAY ? WETH_HELD : 0n;
  }

  /** The answer of `method`; throws EthereumRpcError (code 3 for a revert, as geth answers it). */
  answer(method: string, params: unknown[]): unknown {
    switch (method) {
      case 'eth_chainId':
        return '0x1';
      case 'net_version':
        return '1';
      case 'eth_blockNumber':
        return quantity(this.#head.number);
      case 'eth_getBlockByNumber':
        return this.block();
      case 'eth_getBalance':
        return quantity(this.ethBalance(String(params[0] ?? '')));
      case 'eth_getCode':
        return safeAddress(params[0]) === GATEWAY || safeAddress(params[0]) === WETH ? '0x60806040' : '0x';
      case 'eth_getTransactionCount':
        return '0x0';
      case 'eth_gasPrice':
        return quantity(BASE_FEE + PRIORITY_FEE);
      case 'eth_maxPriorityFeePerGas':
        return quantity(PRIORITY_FEE);
      case 'eth_feeHistory': {
        const count = Math.min(Math.max(Number(params[0] ?? 1) || 1, 1), 1024);
        const percentiles = Array.isArray(params[2]) ? params[2] : [];
        return {
          oldestBlock: quantity(Math.max(this.#head.number - count + 1, 0)),
          baseFeePerGas: Array.from({ length: count + 1 }, () => quantity(BASE_FEE)),
          gasUsedRatio: Array.from({ length: count }, () => 0.5),
          reward: Array.from({ length: count }, () => percentiles.map(() => quantity(PRIORITY_FEE))),
        };
      }
      case 'eth_call':
        return this.call(ethCallOf(params));
      case 'eth_estimateGas':
        return quantity(this.estimate(ethCallOf(params)));
      default:
        throw new EthereumRpcError(-32601, `the method ${method} does not exist/is not available`);
    }
  }

  /** The head block, for every tag and number. */
  private block(): Record<string, unknown> {
    const hash = `0x${this.#head.number.toString(16).padStart(64, '0')}`;
    return {
      number: quantity(this.#head.number),
      hash,
      parentHash: `0x${'0'.repeat(64)}`,
      nonce: '0x0000000000000000',
      sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
      logsBloom: `0x${'0'.repeat(512)}`,
      transactionsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      stateRoot: `0x${'0'.repeat(64)}`,
      receiptsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      miner: zeroAddress,
      difficulty: '0x0',
      totalDifficulty: '0x0',
      extraData: '0x',
      size: '0x220',
      gasLimit: quantity(GAS_LIMIT),
      gasUsed: quantity(GAS_LIMIT / 2n),
      timestamp: quantity(this.#head.timestamp),
      baseFeePerGas: quantity(BASE_FEE),
      mixHash: `0x${'0'.repeat(64)}`,
      transactions: [],
      uncles: [],
      withdrawals: [],
      withdrawalsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    };
  }

  private call(call: EthCall): Hex {
    const to = safeAddress(call.to);
    if (to === GATEWAY) return this.gateway(call);
    if (to === WETH) return this.weth(call);
    // An account without code: the call succeeds and answers nothing, as on mainnet.
    return '0x';
  }

  private gateway(call: EthCall): Hex {
    let decoded;
    try {
      decoded = decodeFunctionData({ abi: GATEWAY_ABI, data: call.data as Hex });
    } catch {
      throw new EthereumRpcError(3, 'execution reverted');
    }
    switch (decoded.functionName) {
      case 'quoteSendTokenFee': {
        const [token, destinationChain, destinationFee] = decoded.args;
        if (!registered(token)) throw revert('TokenNotRegistered()');
        return encodeFunctionResult({ abi: GATEWAY_ABI, functionName: 'quoteSendTokenFee', result: quoteSendTokenFee(destinationChain, destinationFee) });
      }
      case 'isTokenRegistered':
        return encodeFunctionResult({ abi: GATEWAY_ABI, functionName: 'isTokenRegistered', result: registered(decoded.args[0]) });
      case 'sendToken': {
        this.checkSendToken(call, decoded.args);
        return '0x';
      }
    }
  }

  /** What makes the Gateway revert `sendToken` from `call.from`. */
  private checkSendToken(call: EthCall, [token, destinationChain, , destinationFee, amount]: readonly [Hex, number, unknown, bigint, bigint]): void {
    if (!registered(token)) throw revert('TokenNotRegistered()');
    if (amount === 0n) throw revert('InvalidAmount()');
    const fee = quoteSendTokenFee(destinationChain, destinationFee);
    const ether = getAddress(token) === zeroAddress;
    if (call.value < fee + (ether ? amount : 0n)) throw revert('FeePaymentToLow()');
    if (this.ethBalance(call.from) < call.value) throw new EthereumRpcError(-32000, 'insufficient funds for transfer');
    if (ether) return;
    if (this.wethAllowance(call.from, GATEWAY) < amount) throw revert('ERC20: insufficient allowance');
    if (this.wethBalance(call.from) < amount) throw revert('ERC20: transfer amount exceeds balance');
  }

  private weth(call: EthCall): Hex {
    let decoded;
    try {
      decoded = decodeFunctionData({ abi: erc20Abi, data: call.data as Hex });
    } catch {
      // WETH9's fallback is deposit(): anything else it is sent succeeds and answers nothing.
      return '0x';
    }
    switch (decoded.functionName) {
      case 'balanceOf':
        return encodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', result: this.wethBalance(decoded.args[0]) });
      case 'allowance':
        return encodeFunctionResult({ abi: erc20Abi, functionName: 'allowance', result: this.wethAllowance(decoded.args[0], decoded.args[1]) });
      case 'decimals':
        return encodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', result: 18 });
      case 'symbol':
        return encodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', result: 'WETH' });
      case 'name':
        return encodeFunctionResult({ abi: erc20Abi, functionName: 'name', result: 'Wrapped Ether' });
      case 'totalSupply':
        return encodeFunctionResult({ abi: erc20Abi, functionName: 'totalSupply', result: BigInt(this.#accounts.size) * WETH_HELD });
      case 'approve':
        return encodeFunctionResult({ abi: erc20Abi, functionName: 'approve', result: true });
      case 'transfer':
      case 'transferFrom': {
        const [from, amount] = decoded.functionName === 'transfer' ? [call.from, decoded.args[1]] : [decoded.args[0], decoded.args[2]];
        if (this.wethBalance(from) < amount) throw new EthereumRpcError(3, 'execution reverted');
        return encodeFunctionResult({ abi: erc20Abi, functionName: decoded.functionName, result: true });
      }
    }
  }

  /** Gas of what the transaction does; a transaction that would revert fails here as it would on chain. */
  private estimate(call: EthCall): bigint {
    if (call.to === '') throw new EthereumRpcError(-32000, 'contract creation is not served by the sandbox');
    if (this.ethBalance(call.from) < call.value) throw new EthereumRpcError(-32000, 'insufficient funds for transfer');
    if (call.data === '' || call.data === '0x') return safeAddress(call.to) === WETH ? GAS.call : GAS.transfer;
    this.call(call);
    const selector = call.data.slice(0, 10).toLowerCase();
    if (selector === '0x52054834') return GAS.sendToken;
    if (selector === '0x095ea7b3') return GAS.approve;
    return GAS.call;
  }
}

/** The tokens the sandbox's Gateway has registered: ETH and WETH. */
const registered = (token: string): boolean => [zeroAddress, WETH].includes(getAddress(token));

function safeAddress(value: unknown): string {
  try {
    return getAddress(String(value));
  } catch {
    return '';
  }
}
