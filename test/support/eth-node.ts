// A fake Ethereum node for tests: JSON-RPC 2.0 over HTTP on 127.0.0.1. It answers
// `eth_chainId`, and `eth_call` for the two reads a Snowbridge transfer makes: the gateway's
// `quoteSendTokenFee` and an ERC-20's `allowance`, with values a test sets, ABI-encoded with the
// contracts' own signatures (declared here, independently of the code under test). A call it
// has no answer for reverts, as a contract without that function would.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeFunctionData, encodeFunctionResult, parseAbi, type Address, type Hex } from 'viem';

export const GATEWAY_V1_ABI = parseAbi([
  'function quoteSendTokenFee(address token, uint32 destinationChain, uint128 destinationFee) view returns (uint256)',
  'function sendToken(address token, uint32 destinationChain, (uint8 kind, bytes data) destinationAddress, uint128 destinationFee, uint128 amount) payable',
]);
export const ERC20_ALLOWANCE_ABI = parseAbi(['function allowance(address owner, address spender) view returns (uint256)']);

/** What the node was asked, decoded. */
export type EthNodeCall =
  | { method: 'eth_chainId' }
  | { method: 'quoteSendTokenFee'; to: Address; token: Address; destinationChain: number; destinationFee: bigint }
  | { method: 'allowance'; to: Address; owner: Address; spender: Address }
  | { method: string };

export interface EthNode {
  readonly url: string;
  readonly calls: EthNodeCall[];
  /** The chain id `eth_chainId` answers (1 unless set). */
  chainId: number;
  /** The fee `quoteSendTokenFee` answers; `'revert'` makes it revert, `'empty'` answers `0x` (no contract). */
  quote: bigint | 'revert' | 'empty';
  /** An ERC-20's allowance (any owner and spender); tokens without one revert. */
  setAllowance(token: Address, value: bigint): void;
  /** Answers every request with this HTTP status (undefined: answer normally). */
  failWithStatus: number | undefined;
  close(): Promise<void>;
}

interface RpcRequest {
  id: unknown;
  method: string;
  params?: unknown[];
}

const revert = { code: 3, message: 'execution reverted' };

export async function startEthNode(): Promise<EthNode> {
  const allowances = new Map<string, bigint>();
  const calls: EthNodeCall[] = [];
  const node = {
    url: '',
    calls,
    chainId: 1,
    quote: 0n as bigint | 'revert' | 'empty',
    failWithStatus: undefined as number | undefined,
    setAllowance: (token: Address, value: bigint) => void allowances.set(token.toLowerCase(), value),
    close: async () => undefined as void,
  };

  function answer(req: RpcRequest): { result: unknown } | { error: { code: number; message: string } } {
    if (req.method === 'eth_chainId') {
      calls.push({ method: 'eth_chainId' });
      return { result: `0x${node.chainId.toString(16)}` };
    }
    if (req.method !== 'eth_call') {
      calls.push({ method: req.method });
      return { error: { code: -32601, message: `the method ${req.method} does not exist` } };
    }
    const [{ to, data }] = req.params as [{ to: Address; data: Hex }];
    try {
      const call = decodeFunctionData({ abi: GATEWAY_V1_ABI, data });
      if (call.functionName === 'quoteSendTokenFee') {
        const [token, destinationChain, destinationFee] = call.args;
        calls.push({ method: 'quoteSendTokenFee', to, token, destinationChain, destinationFee });
        if (node.quote === 'revert') return { error: revert };
        if (node.quote === 'empty') return { result: '0x' };
        return { result: encodeFunctionResult({ abi: GATEWAY_V1_ABI, functionName: 'quoteSendTokenFee', result: node.quote }) };
      }
    } catch {
      // not a gateway call
    }
    try {
      const { args } = decodeFunctionData({ abi: ERC20_ALLOWANCE_ABI, data });
      calls.push({ method: 'allowance', to, owner: args[0], spender: args[1] });
      const value = allowances.get(to.toLowerCase());
      if (value === undefined) return { error: revert };
      return { result: encodeFunctionResult({ abi: ERC20_ALLOWANCE_ABI, functionName: 'allowance', result: value }) };
    } catch {
      calls.push({ method: `eth_call ${data.slice(0, 10)}` });
      return { error: revert };
    }
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (node.failWithStatus !== undefined) {
        res.writeHead(node.failWithStatus).end('unavailable');
        return;
      }
      const rpc = JSON.parse(body) as RpcRequest;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, ...answer(rpc) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  node.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return node;
}
