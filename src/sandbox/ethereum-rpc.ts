// The Ethereum JSON-RPC a Moonbeam node serves next to its Substrate RPC (Frontier), as much of it
// as the ParaSpell SDK and the service ask for: the chain id, the block number, and `eth_call` of
// an XC-20's `balanceOf` (how the SDK reads xcDOT while it builds Moonbeam -> Polkadot, Hydration
// and AssetHubPolkadot transfers, and wallets read any XC-20). No EVM runs: `balanceOf(who)` reads
// the word the contract keeps at who's slot of its balances mapping (EVM.AccountStorages, where
// ledger.ts writes XC-20 balances); any other contract call reverts, as a call to a contract that
// lacks the function does.

import { balanceSlot } from './assets';

/** The methods a Moonbeam node lists in `rpc_methods` on top of the Substrate ones. */
export const ETHEREUM_RPC_METHODS: readonly string[] = ['eth_chainId', 'net_version', 'eth_blockNumber', 'eth_call', 'eth_getBalance'];

/** Moonbeam's EVM chain id. */
const CHAIN_ID = 1284;
/** `balanceOf(address)`. */
const BALANCE_OF = '0x70a08231';
/** An XC-20: 0xffffffff followed by the asset id. */
const XC20 = /^0xffffffff[0-9a-f]{32}$/i;

/** A JSON-RPC failure the node answers (code and message). */
export class EthereumRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const zeroWord = `0x${'0'.repeat(64)}`;

/** An `eth_call`'s (or `eth_estimateGas`'s) transaction object: its target, calldata, sender and value. */
export interface EthCall {
  to: string;
  data: string;
  from: string;
  value: bigint;
}

/** The call object of `params[0]` (`input` is the newer spelling of `data`); absent fields are empty. */
export function ethCallOf(params: unknown[]): EthCall {
  const call = params[0] as { to?: unknown; data?: unknown; input?: unknown; from?: unknown; value?: unknown } | undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const value = text(call?.value);
  return { to: text(call?.to), data: text(call?.data) || text(call?.input), from: text(call?.from), value: /^0x[0-9a-f]+$/i.test(value) ? BigInt(value) : 0n };
}

/** Reads one word of a contract's storage at the head (null: never written). */
export type EvmStorage = (contract: string, slot: string) => string | null;

/** The answer of `method` (one of ETHEREUM_RPC_METHODS) at block `head`; throws EthereumRpcError. */
export function answerEthereumRpc(method: string, params: unknown[], head: number, storage: EvmStorage): unknown {
  switch (method) {
    case 'eth_chainId':
      return `0x${CHAIN_ID.toString(16)}`;
    case 'net_version':
      return String(CHAIN_ID);
    case 'eth_blockNumber':
      return `0x${head.toString(16)}`;
    case 'eth_getBalance':
      return '0x0';
    case 'eth_call': {
      const { to, data } = ethCallOf(params);
      if (XC20.test(to) && data.toLowerCase().startsWith(BALANCE_OF) && data.length === BALANCE_OF.length + 64) {
        const holder = `0x${data.slice(-40)}`;
        return storage(to.toLowerCase(), balanceSlot(holder)) ?? zeroWord;
      }
      throw new EthereumRpcError(3, 'execution reverted');
    }
    default:
      throw new EthereumRpcError(-32601, 'Method not found');
  }
}
