import { describe, expect, it } from 'vitest';
import { balanceSlot } from '../../src/sandbox/assets';
import { answerEthereumRpc, EthereumRpcError, type EvmStorage } from '../../src/sandbox/ethereum-rpc';

const empty: EvmStorage = () => null;

describe("the sandbox Moonbeam node's Ethereum JSON-RPC", () => {
  it("answers Moonbeam's chain id and the head block", () => {
    expect(answerEthereumRpc('eth_chainId', [], 100, empty)).toBe('0x504');
    expect(answerEthereumRpc('net_version', [], 100, empty)).toBe('1284');
    expect(answerEthereumRpc('eth_blockNumber', [], 100, empty)).toBe('0x64');
  });

  it("an XC-20's balanceOf reads the holder's slot of the contract's storage (0 when unwritten); any other call reverts", () => {
    const xcDot = '0xffffffff1fcacbd218edc0eba20fc2308c778080';
    const alith = '0xf24ff3a9cf04c71dbc94d0b566f7a27b94566cac';
    const balanceOf = (holder: string) => `0x70a08231${'00'.repeat(12)}${holder.slice(2)}`;
    const word = `0x${(5n * 10n ** 10n).toString(16).padStart(64, '0')}`;
    const storage: EvmStorage = (contract, slot) => (contract === xcDot && slot === balanceSlot(alith) ? word : null);
    expect(answerEthereumRpc('eth_call', [{ to: xcDot, data: balanceOf(alith) }], 1, storage)).toBe(word);
    expect(answerEthereumRpc('eth_call', [{ to: xcDot, data: balanceOf(`0x${'11'.repeat(20)}`) }], 1, storage)).toBe(`0x${'0'.repeat(64)}`);
    expect(() => answerEthereumRpc('eth_call', [{ to: '0x0000000000000000000000000000000000000804', data: balanceOf(alith) }], 1, storage)).toThrow(EthereumRpcError);
    expect(() => answerEthereumRpc('eth_call', [{ to: xcDot, data: '0x313ce567' }], 1, storage)).toThrow('execution reverted');
  });
});
