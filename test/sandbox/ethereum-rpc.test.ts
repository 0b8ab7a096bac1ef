import { describe, expect, it } from 'vitest';
import { answerEthereumRpc, EthereumRpcError } from '../../src/sandbox/ethereum-rpc';

describe("the sandbox Moonbeam node's Ethereum JSON-RPC", () => {
  it("answers Moonbeam's chain id and the head block", () => {
    expect(answerEthereumRpc('eth_chainId', [], 100)).toBe('0x504');
    expect(answerEthereumRpc('net_version', [], 100)).toBe('1284');
    expect(answerEthereumRpc('eth_blockNumber', [], 100)).toBe('0x64');
  });

  it("an XC-20's balanceOf reads 0 (no EVM state); any other call reverts", () => {
    const balanceOf = `0x70a08231${'00'.repeat(12)}f24ff3a9cf04c71dbc94d0b566f7a27b94566cac`;
    expect(answerEthereumRpc('eth_call', [{ to: '0xffffffff1fcacbd218edc0eba20fc2308c778080', data: balanceOf }], 1)).toBe(`0x${'0'.repeat(64)}`);
    expect(() => answerEthereumRpc('eth_call', [{ to: '0x0000000000000000000000000000000000000804', data: balanceOf }], 1)).toThrow(EthereumRpcError);
    expect(() => answerEthereumRpc('eth_call', [{ to: '0xffffffff1fcacbd218edc0eba20fc2308c778080', data: '0x313ce567' }], 1)).toThrow('execution reverted');
  });
});
