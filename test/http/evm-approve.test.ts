// POST /evm-approve, both families: every answer is parsed as a wallet would (viem's
// parseTransaction) and its data decoded with the ERC-20 ABI viem publishes, independently of the
// code under test. The amount is the one /evm-x-transfer then sends (its fake Ethereum node is the
// only one here; the approval itself dials nothing).
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { decodeFunctionData, encodeFunctionData, erc20Abi, getAddress, maxUint256, parseAbi, parseTransaction, serializeTransaction, type Hex } from 'viem';
import { expectErrorBody, FAMILIES } from '../helpers/app';
import { ethereumApp } from '../support/ethereum-app';

const GATEWAY = getAddress('0x27ca963c279c93801941e1eb8799c23f407d68e7');
const GATEWAY_ABI = parseAbi(['function sendToken(address token, uint32 destinationChain, (uint8 kind, bytes data) destinationAddress, uint128 destinationFee, uint128 amount) payable']);
const SENDER = '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326';
const SS58 = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const WETH = getAddress('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2');
const USDC = getAddress('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
const WETH_LOCATION = { parents: 2, interior: { X2: [{ GlobalConsensus: { Ethereum: { chainId: 1 } } }, { AccountKey20: { network: null, key: WETH.toLowerCase() } }] } };

const ethereum = ethereumApp();

const senderField = (family: string) => (family === 'v5' ? 'senderAddress' : 'sender');

/** The wallet's view: an unsigned EIP-1559 transaction on chain 1 to the token, value 0, calling approve. */
function decodeApprove(hex: unknown) {
  expect(hex).toMatch(/^0x02[0-9a-f]+$/);
  const tx = parseTransaction(hex as Hex);
  expect(tx.type).toBe('eip1559');
  expect(tx.chainId).toBe(1);
  expect(tx.value ?? 0n).toBe(0n);
  expect(tx.nonce ?? 0).toBe(0);
  expect(tx).not.toHaveProperty('gas');
  const call = decodeFunctionData({ abi: erc20Abi, data: tx.data! });
  if (call.functionName !== 'approve') throw new Error(`not an approve call: ${call.functionName}`);
  return { to: getAddress(tx.to!), args: call.args };
}

describe.each(FAMILIES)('/%s/evm-approve', (family) => {
  const v = `/${family}`;
  const whole = family === 'v2';
  const units = (wholeUnits: string, base: string) => (whole ? wholeUnits : base);
  const approve = (currency: object, extra: object = {}) => request(ethereum.app).post(`${v}/evm-approve`).send({ from: 'Ethereum', currency, [senderField(family)]: SENDER, ...extra });
  const transfer = (currency: object) =>
    request(ethereum.app)
      .post(`${v}/evm-x-transfer`)
      .send({ from: 'Ethereum', to: 'AssetHubPolkadot', currency, [senderField(family)]: SENDER, [family === 'v5' ? 'address' : 'recipient']: SS58 });

  it('approve(gateway, amount) on the token, by symbol, id or location; nothing is dialled', async () => {
    const before = ethereum.node.calls.length;
    const bySymbol = decodeApprove((await approve({ symbol: 'WETH', amount: units('0.5', '500000000000000000') }).expect(200)).body);
    expect(bySymbol).toEqual({ to: WETH, args: [GATEWAY, 500_000_000_000_000_000n] });
    const byId = decodeApprove((await approve({ id: USDC.toLowerCase(), amount: units('12.5', '12500000') }).expect(200)).body);
    expect(byId).toEqual({ to: USDC, args: [GATEWAY, 12_500_000n] });
    const byLocation = decodeApprove((await approve({ location: WETH_LOCATION, amount: units('2', '2000000000000000000') }).expect(200)).body);
    expect(byLocation).toEqual({ to: WETH, args: [GATEWAY, 2n * 10n ** 18n] });
    expect(ethereum.node.calls.length).toBe(before);
  });

  it('is the way forward /evm-x-transfer names: the amount it asks approved, the transfer then goes through', async () => {
    const currency = { symbol: 'USDC', amount: units('3.25', '3250000') };
    ethereum.node.setAllowance(USDC, 0n);
    const refused = await transfer(currency).expect(400);
    expectErrorBody(refused.body, 400, 'AllowanceRequiredError');
    expect(refused.body.message).toContain(`POST /${family}/evm-approve`);
    const { to, args } = decodeApprove((await approve(currency).expect(200)).body);
    expect(to).toBe(USDC);
    expect(refused.body.message).toContain(`approve(${GATEWAY}, ${args[1]})`);
    // The approval is mined: the node now reports it, and the same request builds the transfer of that amount.
    ethereum.node.setAllowance(USDC, args[1]);
    const sent = parseTransaction((await transfer(currency).expect(200)).body as Hex);
    expect(decodeFunctionData({ abi: GATEWAY_ABI, data: sent.data! }).args[4]).toBe(args[1]);
  });

  it('/explain reads the approval it builds: the token, the gateway as spender, the amount; an unknown spender or no limit is flagged', async () => {
    const explain = (hex: string) => request(ethereum.app).post(`${v}/explain`).send({ chain: 'Ethereum', hex });
    const hex = (await approve({ symbol: 'USDC', amount: units('12.5', '12500000') }).expect(200)).body as string;
    const ours = (await explain(hex).expect(200)).body;
    expect(ours.evm).toMatchObject({ chainId: 1, to: USDC, contract: 'USDC token (ERC-20)', function: 'approve', args: { spender: GATEWAY, amount: '12500000' }, value: '0' });
    expect(ours.transfers).toEqual([]);
    expect(ours.warnings).toEqual([
      { code: 'TokenApproval', severity: 'info', message: 'Lets the Snowbridge gateway take up to 12.5 USDC from the signer: the approval a transfer from Ethereum (POST /evm-x-transfer) needs first' },
    ]);

    // The same token, approved to someone else for everything: what a phishing page asks for.
    const stranger = getAddress('0x000000000000000000000000000000000000dead');
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [stranger, maxUint256] });
    const theirs = (await explain(serializeTransaction({ type: 'eip1559', chainId: 1, to: USDC, data })).expect(200)).body;
    expect(theirs.warnings.map((w: { code: string; severity: string }) => [w.code, w.severity])).toEqual([
      ['UnknownSpender', 'danger'],
      ['UnlimitedApproval', 'caution'],
    ]);
    expect(theirs.warnings[0].message).toContain(`Lets ${stranger}`);
  });

  it('options.abstractDecimals scales as /evm-x-transfer does, whatever the family default', async () => {
    const scaled = decodeApprove((await approve({ symbol: 'WETH', amount: '1.5' }, { options: { abstractDecimals: true } }).expect(200)).body);
    expect(scaled.args[1]).toBe(1_500_000_000_000_000_000n);
    const raw = decodeApprove((await approve({ symbol: 'WETH', amount: '15' }, { options: { abstractDecimals: false } }).expect(200)).body);
    expect(raw.args[1]).toBe(15n);
  });

  it('bad input is a 400 naming the field', async () => {
    const cases: [body: Record<string, unknown>, kind: string, path: string][] = [
      [{ from: 'Moonbeam', currency: { symbol: 'WETH', amount: '1' }, [senderField(family)]: SENDER }, 'UnsupportedOperationError', 'body.from'],
      [{ from: 'Etherium', currency: { symbol: 'WETH', amount: '1' }, [senderField(family)]: SENDER }, 'UnknownChainError', 'body.from'],
      [{ from: 'Ethereum', currency: { symbol: 'WETH', amount: '1' } }, 'MissingParameterError', `body.${senderField(family)}`],
      [{ from: 'Ethereum', currency: { symbol: 'WETH', amount: '1' }, [senderField(family)]: SENDER.replace('aE28', 'ae28') }, 'InvalidAddressError', `body.${senderField(family)}`],
      [{ from: 'Ethereum', currency: { symbol: 'WETH', amount: '0' }, [senderField(family)]: SENDER }, 'NumberFormatError', 'body.currency.amount'],
      [{ from: 'Ethereum', currency: { symbol: 'WETH', amount: 'ALL' }, [senderField(family)]: SENDER }, 'NumberFormatError', 'body.currency.amount'],
      [{ from: 'Ethereum', currency: { symbol: 'WETH', amount: '1.5' }, [senderField(family)]: SENDER, options: { abstractDecimals: false } }, 'NumberFormatError', 'body.currency.amount'],
      [{ from: 'Ethereum', currency: { symbol: 'WETH', id: 1, amount: '1' }, [senderField(family)]: SENDER }, 'InvalidCurrencyError', 'body.currency'],
      [{ from: 'Ethereum', currency: { symbol: 'WETH', amount: '1' }, [senderField(family)]: SENDER, options: { development: true } }, 'ValidationError', 'body.options'],
      [{ from: 'Ethereum', currency: { symbol: 'WETH', amount: '1' }, [senderField(family)]: SENDER, to: 'AssetHubPolkadot' }, 'ValidationError', 'body'],
    ];
    for (const [body, kind, path] of cases) {
      const res = await request(ethereum.app).post(`${v}/evm-approve`).send(body).expect(400);
      expectErrorBody(res.body, 400, kind);
      expect(res.body.details?.[0]?.path, JSON.stringify(res.body)).toBe(path);
    }
  });

  it('assets that need no approval or are not Ethereum\'s are a 400 that says so', async () => {
    const eth = await approve({ symbol: 'ETH', amount: '1' }).expect(400);
    expectErrorBody(eth.body, 400, 'UnsupportedOperationError');
    expect(eth.body.message).toContain('no approval');
    const unknown = await approve({ symbol: 'HDX', amount: '1' }).expect(400);
    expectErrorBody(unknown.body, 400, 'InvalidCurrencyError');
    const tooPrecise = await approve({ symbol: 'USDC', amount: '1.1234567' }, { options: { abstractDecimals: true } }).expect(400);
    expectErrorBody(tooPrecise.body, 400, 'NumberFormatError');
    expect(tooPrecise.body.message).toContain('6');
    const tooLarge = await approve({ symbol: 'WETH', amount: (2n ** 128n).toString() }, { options: { abstractDecimals: false } }).expect(400);
    expectErrorBody(tooLarge.body, 400, 'NumberFormatError');
  });
});
