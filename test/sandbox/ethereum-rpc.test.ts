import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, encodeFunctionData, erc20Abi, getAddress, http, parseAbi, parseTransaction, type Address, type PublicClient } from 'viem';
import { sdk, snowbridgeMainnet } from '../../src/sdk';
import { balanceSlot } from '../../src/sandbox/assets';
import { GATEWAY, quoteSendTokenFee, WETH } from '../../src/sandbox/ethereum-mainnet';
import { startEthereumNode, type EthereumNode } from '../../src/sandbox/ethereum-node';
import { MOONBEAM_DEV_ACCOUNTS } from '../../src/sandbox/network';
import { testApp } from '../helpers/app';
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

describe("the sandbox's Ethereum node, as a wallet reads it for a Snowbridge transfer", () => {
  let node: EthereumNode;
  let client: PublicClient;
  beforeAll(async () => {
    node = await startEthereumNode(MOONBEAM_DEV_ACCOUNTS);
    client = createPublicClient({ transport: http(node.url, { retryCount: 0 }) });
  });
  let service: ReturnType<typeof testApp>;
  afterAll(async () => {
    await service?.services.close();
    await node?.close();
  });

  const gatewayAbi = parseAbi([
    'function quoteSendTokenFee(address token, uint32 destinationChain, uint128 destinationFee) view returns (uint256)',
    'function sendToken(address token, uint32 destinationChain, (uint8 kind, bytes data) destinationAddress, uint128 destinationFee, uint128 amount) payable',
  ]);
  const alith = MOONBEAM_DEV_ACCOUNTS[0] as Address;
  const stranger: Address = '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326';
  const half = 5n * 10n ** 17n;
  const sendToken = (fee: bigint) => ({
    to: GATEWAY,
    data: encodeFunctionData({ abi: gatewayAbi, functionName: 'sendToken', args: [WETH, 1000, { kind: 1, data: `0x${'11'.repeat(32)}` }, 0n, half] }),
    value: fee,
  });

  it("serves chain id 1 with the Gateway and WETH at the addresses the SDK's Snowbridge environment and registry name", async () => {
    expect(await client.getChainId()).toBe(1);
    expect(GATEWAY).toBe(getAddress(snowbridgeMainnet.config.GATEWAY_CONTRACT));
    expect(GATEWAY.toLowerCase()).toBe('0x27ca963c279c93801941e1eb8799c23f407d68e7');
    const weth = sdk.findAssetInfoOrThrow('Ethereum', { symbol: 'WETH' }, null);
    expect('assetId' in weth && getAddress(String(weth.assetId))).toBe(WETH);
  });

  it("a development account holds 10,000 ETH and 1,000 WETH and has approved the Gateway for them; another holds nothing", async () => {
    const read = (functionName: 'balanceOf' | 'allowance', args: readonly [Address] | readonly [Address, Address]) =>
      client.readContract({ address: WETH, abi: erc20Abi, functionName, args } as Parameters<typeof client.readContract>[0]);
    expect(await client.getBalance({ address: alith })).toBe(10_000n * 10n ** 18n);
    expect(await read('balanceOf', [alith])).toBe(1_000n * 10n ** 18n);
    expect(await read('allowance', [alith, GATEWAY])).toBe(1_000n * 10n ** 18n);
    expect(await client.readContract({ address: WETH, abi: erc20Abi, functionName: 'decimals' })).toBe(18);
    expect(await client.readContract({ address: WETH, abi: erc20Abi, functionName: 'symbol' })).toBe('WETH');
    expect(await read('balanceOf', [stranger])).toBe(0n);
    expect(await read('allowance', [stranger, GATEWAY])).toBe(0n);
  });

  it('the Gateway quotes a fee in wei, more for a destination past the asset hub (its delivery fee in DOT); an unregistered token reverts', async () => {
    const quote = (paraId: number, destinationFee: bigint, token: Address = WETH) =>
      client.readContract({ address: GATEWAY, abi: gatewayAbi, functionName: 'quoteSendTokenFee', args: [token, paraId, destinationFee] });
    const toAssetHub = await quote(1000, 0n);
    expect(toAssetHub).toBe(quoteSendTokenFee(1000, 0n));
    expect(toAssetHub).toBeGreaterThan(10n ** 14n);
    expect(toAssetHub).toBeLessThan(10n ** 16n);
    expect(await quote(2030, 100_000_000n)).toBeGreaterThan(toAssetHub);
    await expect(quote(1000, 0n, '0x6B175474E89094C44Da98b954EedeAC495271d0F')).rejects.toThrow(/TokenNotRegistered/);
  });

  it('a wallet prepares the sendToken transaction (nonce, gas, EIP-1559 fees); one that pays less than the quote, or from an account without ETH, fails its estimate', async () => {
    const fee = await client.readContract({ address: GATEWAY, abi: gatewayAbi, functionName: 'quoteSendTokenFee', args: [WETH, 1000, 0n] });
    const prepared = await client.prepareTransactionRequest({ account: alith, chain: null, ...sendToken(fee) });
    expect(prepared).toMatchObject({ nonce: 0, gas: 120_000n, type: 'eip1559' });
    expect(prepared.maxFeePerGas).toBeGreaterThan(prepared.maxPriorityFeePerGas!);
    await expect(client.estimateGas({ account: alith, ...sendToken(fee - 1n) })).rejects.toThrow(/FeePaymentToLow/);
    await expect(client.estimateGas({ account: stranger, ...sendToken(fee) })).rejects.toThrow(/insufficient funds/);
  });

  it("the service's Snowbridge transfer (openapi.yaml's example) is what the wallet then prepares from Alith; from an account with no allowance it is a 400 naming the approval", async () => {
    service = testApp({ ETHEREUM_RPC_URL: node.url });
    const transfer = (sender: string) => request(service.app).post('/v2/evm-x-transfer').send({ from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'WETH', amount: '0.5' }, sender, recipient: '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ' });
    const res = await transfer(alith);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tx = parseTransaction(res.body as `0x${string}`);
    expect(tx).toMatchObject({ chainId: 1, to: GATEWAY.toLowerCase(), value: quoteSendTokenFee(1000, 0n) });
    const prepared = await client.prepareTransactionRequest({ account: alith, chain: null, to: tx.to!, data: tx.data!, value: tx.value! });
    expect(prepared).toMatchObject({ nonce: 0, gas: 120_000n });

    const refused = await transfer(stranger);
    expect(refused.status).toBe(400);
    expect(refused.body.kind).toBe('AllowanceRequiredError');
  });
});
