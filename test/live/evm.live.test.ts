// Live Snowbridge quote: POST /evm-x-transfer from Ethereum against a real Ethereum JSON-RPC
// endpoint (ETHEREUM_RPC_URL, else the registry's public one). Skipped with one line when no
// endpoint answers eth_chainId within PROBE_MS. The fee depends on chain state, so only its
// presence and the call's shape are checked.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFunctionData, parseAbi, parseTransaction, type Hex } from 'viem';
import { DEFAULT_ETHEREUM_RPC } from '../../src/service/evm/snowbridge';
import { testApp } from '../helpers/app';
import { PROBE_MS } from './support';

const ENDPOINT = process.env.ETHEREUM_RPC_URL ?? DEFAULT_ETHEREUM_RPC;
const GATEWAY_ABI = parseAbi([
  'function sendToken(address token, uint32 destinationChain, (uint8 kind, bytes data) destinationAddress, uint128 destinationFee, uint128 amount) payable',
]);
// A fresh account: it has approved nothing.
const SENDER = '0x000000000000000000000000000000000000dEaD';
const RECIPIENT = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

let reachable = false;
beforeAll(async () => {
  try {
    const res = await fetch(ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(PROBE_MS),
    });
    reachable = res.ok && ((await res.json()) as { result?: string }).result === '0x1';
  } catch {
    reachable = false;
  }
  if (!reachable) console.log(`live EVM suite skipped: no Ethereum mainnet endpoint answered within ${PROBE_MS} ms (set ETHEREUM_RPC_URL)`);
}, 2 * PROBE_MS);

const { app, services } = testApp({ ETHEREUM_RPC_URL: ENDPOINT, CONNECT_TIMEOUT_MS: '20000' });
afterAll(() => services.close());

describe('/v2/evm-x-transfer from Ethereum (live gateway quote)', () => {
  it('ETH to the asset hub: value is the amount plus a positive quoted fee', async ({ skip }) => {
    if (!reachable) skip();
    const res = await request(app)
      .post('/v2/evm-x-transfer')
      .send({ from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'ETH', amount: '0.01' }, sender: SENDER, recipient: RECIPIENT });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tx = parseTransaction(res.body as Hex);
    expect(tx.chainId).toBe(1);
    const { args } = decodeFunctionData({ abi: GATEWAY_ABI, data: tx.data! });
    expect(args[4]).toBe(10n ** 16n);
    expect(tx.value! > 10n ** 16n).toBe(true);
  });

  it('WETH from an account that approved nothing: 400 naming the approval', async ({ skip }) => {
    if (!reachable) skip();
    const res = await request(app)
      .post('/v2/evm-x-transfer')
      .send({ from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'WETH', amount: '0.01' }, sender: SENDER, recipient: RECIPIENT });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.kind).toBe('AllowanceRequiredError');
    expect(res.body.message).toContain('approve(');
  });
});
