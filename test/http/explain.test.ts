import fc from 'fast-check';
import request from 'supertest';
import { concat, decodeFunctionData, encodeFunctionData, formatUnits, getAddress, hexToBytes, parseAbi, parseTransaction, serializeTransaction, stringToBytes, toHex, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polkadotApi, sdk, utilCrypto, type ApiPromise } from '../../src/sdk';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { refusedUrl, startTestChain, type TestChain, type TestChainName } from '../support/test-chain';

// A second, independent reading of what the service builds: every answer is explained and the
// explanation must say what the request asked for.
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Kusama', 'AssetHubKusama', 'Moonbeam', 'BridgeHubPolkadot'];
const chains = {} as Record<TestChainName, TestChain>;
const overrides: Record<string, string> = {};
const apis: ApiPromise[] = [];
const { app, services } = testApp();

beforeAll(async () => {
  for (const name of NAMES) {
    chains[name] = await startTestChain(name, { partialFee: 1_000_000n });
    overrides[name] = chains[name].url;
  }
});
afterAll(async () => {
  await Promise.all(apis.map((a) => a.disconnect()));
  await services.close();
  await Promise.all(NAMES.map((n) => chains[n]?.close()));
});

const options = { development: true, apiOverrides: overrides };

interface Explanation {
  chain: string;
  call?: { pallet: string; method: string; args: Record<string, unknown>; calls?: { pallet: string; method: string }[] };
  evm?: { chainId: number; to: string; contract: string | null; function: string | null; args: Record<string, unknown> | null; value: string; customXcmOnDest?: { v4: unknown[] } };
  transfers: {
    kind: string;
    origin: string;
    destination: string;
    beneficiary: string | { location: unknown };
    assets: { symbol: string | null; amount: string; amountWhole: string | null }[];
    feeAsset?: { symbol: string | null };
    feeLimit?: unknown;
    keepAlive?: boolean;
  }[];
  xcm: { chain: string; instruction: string; text: string; transact?: { originKind: string; call?: { pallet?: string; method?: string } } }[];
  warnings: { code: string; severity: string; message: string }[];
  route: { chain: string; ok: boolean; problems: { at: string; message: string }[]; warnings: { at: string; message: string }[] }[];
}

async function explain(chain: string, hex: string, extra: Record<string, unknown> = {}, family: 'v5' | 'v2' = 'v5'): Promise<Explanation> {
  const res = await request(app).post(`/${family}/explain`).send({ chain, hex, options, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Explanation;
}

async function build(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await request(app).post(`/v5${path}`).send({ ...body, options: { ...options, ...(body.options as object) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as string;
}

async function api(chain: TestChainName): Promise<ApiPromise> {
  const a = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[chain].url), noInitWarn: true });
  apis.push(a);
  return a;
}

const codes = (e: Explanation) => e.warnings.map((w) => w.code);
const decode = (address: string): Uint8Array => utilCrypto.decodeAddress(address);

describe('POST /explain reads back every transfer the service builds', () => {
  const CASES: {
    name: string;
    body: Record<string, unknown>;
    expect: { kind: string; destination: string; symbol: string; amount: string; whole: string; call: string };
  }[] = [
    {
      name: 'relay -> asset hub teleport of DOT',
      body: { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '15000000000' }, address: ALICE },
      expect: { kind: 'teleport', destination: 'AssetHubPolkadot', symbol: 'DOT', amount: '15000000000', whole: '1.5', call: 'xcmPallet.limitedTeleportAssets' },
    },
    {
      name: 'asset hub -> relay teleport of DOT',
      body: { from: 'AssetHubPolkadot', to: 'Polkadot', currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '20000000000' }, address: ALICE, senderAddress: ALICE },
      expect: { kind: 'teleport', destination: 'Polkadot', symbol: 'DOT', amount: '20000000000', whole: '2', call: 'polkadotXcm.limitedTeleportAssets' },
    },
    {
      name: 'asset hub -> Hydration reserve transfer of USDT',
      body: { from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' }, address: ALICE },
      expect: { kind: 'reserveTransfer', destination: 'Hydration', symbol: 'USDt', amount: '2500000', whole: '2.5', call: 'polkadotXcm.limitedReserveTransferAssets' },
    },
    {
      name: 'Kusama -> its asset hub teleport of KSM',
      body: { from: 'Kusama', to: 'AssetHubKusama', currency: { symbol: 'KSM', amount: '1000000000000' }, address: ALICE },
      expect: { kind: 'teleport', destination: 'AssetHubKusama', symbol: 'KSM', amount: '1000000000000', whole: '1', call: 'xcmPallet.limitedTeleportAssets' },
    },
    {
      name: 'asset hub Polkadot -> asset hub Kusama over the bridge',
      body: { from: 'AssetHubPolkadot', to: 'AssetHubKusama', currency: { symbol: 'KSM', amount: '1000000000000' }, address: ALICE, senderAddress: ALICE },
      expect: { kind: 'bridge', destination: 'AssetHubKusama', symbol: 'KSM', amount: '1000000000000', whole: '1', call: 'polkadotXcm.transferAssetsUsingTypeAndThen' },
    },
  ];

  for (const c of CASES) {
    it(`${c.name}: call, kind, chains, beneficiary, asset and amount`, async () => {
      const hex = await build('/x-transfer', c.body);
      const e = await explain(c.body.from as string, hex);
      expect(`${e.call?.pallet}.${e.call?.method}`).toBe(c.expect.call);
      expect(e.transfers).toHaveLength(1);
      const [t] = e.transfers;
      expect(t).toMatchObject({ kind: c.expect.kind, origin: c.body.from, destination: c.expect.destination });
      expect(t!.assets[0]).toMatchObject({ symbol: c.expect.symbol, amount: c.expect.amount, amountWhole: c.expect.whole });
      // The beneficiary in the destination's own format names the same account as the request.
      expect(typeof t!.beneficiary).toBe('string');
      expect(Buffer.from(decode(t!.beneficiary as string)).toString('hex')).toBe(ALICE_ID.slice(2));
      expect(e.xcm.at(-1)).toMatchObject({ chain: c.expect.destination, instruction: 'DepositAsset' });
      expect(codes(e)).not.toContain('UnknownAsset');
      expect(codes(e)).not.toContain('UnknownDestination');
    });
  }

  it('a local transfer names the asset, the beneficiary and whether the sender stays alive', async () => {
    for (const keepAlive of [true, false]) {
      const hex = await build('/x-transfer', { from: 'Polkadot', to: 'Polkadot', currency: { symbol: 'DOT', amount: '30000000000' }, address: BOB, keepAlive });
      const e = await explain('Polkadot', hex, { senderAddress: ALICE });
      expect(e.call?.method).toBe(keepAlive ? 'transferKeepAlive' : 'transferAllowDeath');
      expect(e.transfers[0]).toMatchObject({ kind: 'local', origin: 'Polkadot', destination: 'Polkadot', beneficiary: BOB, keepAlive });
      expect(e.transfers[0]!.assets[0]).toMatchObject({ symbol: 'DOT', amount: '30000000000', amountWhole: '3' });
      expect(codes(e)).toContain('BeneficiaryDiffersFromSender');
      // The sender holds nothing on the test chain: sending without keepAlive would reap it.
      expect(codes(e).includes('AccountMayBeReaped')).toBe(!keepAlive);
    }
  });

  it('a batch is explained call by call, with one transfer each', async () => {
    const hex = await build('/x-transfer-batch', {
      transfers: [
        { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE },
        { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '20000000000' }, address: BOB },
      ],
    });
    const e = await explain('Polkadot', hex);
    expect(`${e.call?.pallet}.${e.call?.method}`).toBe('utility.batchAll');
    expect(e.call?.calls?.map((c) => `${c.pallet}.${c.method}`)).toEqual(['xcmPallet.limitedTeleportAssets', 'xcmPallet.limitedTeleportAssets']);
    expect(e.transfers.map((t) => [t.destination, t.assets[0]!.amountWhole, t.beneficiary])).toEqual([
      ['AssetHubPolkadot', '1', ALICE],
      ['AssetHubPolkadot', '2', BOB],
    ]);
  });

  it('a V3 transact built by the service: the Transact runs on the destination with its origin kind, weight and decoded call', async () => {
    const ah = await api('AssetHubPolkadot');
    const inner = ah.tx.system.remarkWithEvent('0x7472616e73616374').method.toHex();
    const hex = await build('/x-transfer', {
      from: 'Polkadot',
      to: 'AssetHubPolkadot',
      currency: { symbol: 'DOT', amount: '20000000000' },
      xcmVersion: 'V3',
      address: BOB,
      senderAddress: ALICE,
      transact: { hex: inner, originKind: 'SovereignAccount', maxWeight: { refTime: '5000000', proofSize: '4096' } },
    });
    const e = await explain('Polkadot', hex);
    expect(`${e.call?.pallet}.${e.call?.method}`).toBe('xcmPallet.send');
    expect(e.xcm.map((x) => [x.chain, x.instruction])).toEqual([
      ['AssetHubPolkadot', 'WithdrawAsset'],
      ['AssetHubPolkadot', 'BuyExecution'],
      ['AssetHubPolkadot', 'Transact'],
      ['AssetHubPolkadot', 'ExpectTransactStatus'],
      ['AssetHubPolkadot', 'RefundSurplus'],
      ['AssetHubPolkadot', 'DepositAsset'],
    ]);
    expect(e.xcm[0]!.text).toBe("Withdraw 2 DOT from the origin's account into the holding");
    expect(e.xcm[2]!.transact).toEqual({
      originKind: 'SovereignAccount',
      weight: { refTime: '5000000', proofSize: '4096' },
      callHex: inner,
      call: { pallet: 'system', method: 'remarkWithEvent', args: { remark: '0x7472616e73616374' } },
    });
    expect(e.xcm[5]!.text).toContain('on AssetHubPolkadot');
    expect(codes(e)).not.toContain('TransactAsSuperUser');
  });

  it('EVM transactions built by /evm-x-transfer: destination, beneficiary, asset and amount read back from the ABI', async () => {
    for (const [from, to, currency, whole, symbol] of [
      ['Moonbeam', 'Hydration', { symbol: 'GLMR', amount: '1500000000000000000' }, '1.5', 'GLMR'],
      ['Moonriver', 'Kusama', { symbol: 'KSM', amount: '2000000000000' }, '2', 'xcKSM'],
    ] as const) {
      const res = await request(app).post('/v5/evm-x-transfer').send({ from, to, currency, senderAddress: '0x1a5d1dE61a2d4F5e1DAb7e2A9f1F5b7C2F9a9a9A'.toLowerCase(), address: ALICE, options: { abstractDecimals: false } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const e = await explain(from, res.body as string);
      expect(e.evm).toMatchObject({ chainId: from === 'Moonbeam' ? 1284 : 1285, contract: 'XTokens precompile', function: 'transfer', value: '0' });
      expect(e.transfers).toHaveLength(1);
      expect(e.transfers[0]).toMatchObject({ origin: from, destination: to, feeLimit: 'unlimited' });
      expect(Buffer.from(decode(e.transfers[0]!.beneficiary as string)).toString('hex')).toBe(ALICE_ID.slice(2));
      expect(e.transfers[0]!.assets[0]).toMatchObject({ symbol, amount: currency.amount, amountWhole: whole });
      expect(e.warnings).toEqual([]);
    }
  });

  it('/v5 and /v2 explain the same call data the same way', async () => {
    const hex = await build('/x-transfer', CASES[2]!.body);
    const [v5, v2] = await Promise.all(FAMILIES.map((f) => explain('AssetHubPolkadot', hex, {}, f)));
    expect(v2).toEqual(v5);
  });
});

describe('hand-made calls that differ from what the service builds produce warnings', () => {
  const assets = (amount: bigint) => ({ V4: [{ id: { parents: 1, interior: 'Here' }, fun: { Fungible: amount } }] });
  const account = (id: string) => ({ V4: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id } }] } } });

  it('a beneficiary that is a sibling chain\'s sovereign account', async () => {
    const ah = await api('AssetHubPolkadot');
    // 'sibl' + para id 2034 (little endian) + zeros: Hydration's sovereign account on its siblings.
    const sovereign = `0x7369626c${Buffer.from([0xf2, 0x07, 0, 0]).toString('hex')}${'00'.repeat(24)}`;
    const tx = ah.tx.polkadotXcm.limitedTeleportAssets({ V4: { parents: 1, interior: 'Here' } }, account(sovereign), assets(50_000_000_000n), 0, 'Unlimited');
    const e = await explain('AssetHubPolkadot', tx.method.toHex());
    expect(e.transfers[0]).toMatchObject({ kind: 'teleport', destination: 'Polkadot' });
    const w = e.warnings.find((x) => x.code === 'SovereignAccountBeneficiary');
    expect(w?.message).toContain('Hydration (sibling sovereign account)');
  });

  it('a para id no registry chain has', async () => {
    const polkadot = await api('Polkadot');
    const tx = polkadot.tx.xcmPallet.limitedReserveTransferAssets(
      { V4: { parents: 0, interior: { X1: [{ Parachain: 4242 }] } } },
      account(ALICE_ID),
      { V4: [{ id: { parents: 0, interior: 'Here' }, fun: { Fungible: 10_000_000_000n } }] },
      0,
      'Unlimited',
    );
    const e = await explain('Polkadot', tx.method.toHex());
    expect(e.transfers[0]).toMatchObject({ destination: 'unknown' });
    expect(codes(e)).toContain('UnknownDestination');
  });

  it('an asset the registry does not know (an asset trap in waiting)', async () => {
    const ah = await api('AssetHubPolkadot');
    const unknown = { V4: [{ id: { parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 987654321 }] } }, fun: { Fungible: 1_000n } }] };
    const tx = ah.tx.polkadotXcm.limitedReserveTransferAssets({ V4: { parents: 1, interior: { X1: [{ Parachain: 2034 }] } } }, account(ALICE_ID), unknown, 0, 'Unlimited');
    const e = await explain('AssetHubPolkadot', tx.method.toHex());
    expect(e.transfers[0]!.assets[0]).toMatchObject({ symbol: null, amount: '1000', amountWhole: null });
    expect(codes(e)).toContain('UnknownAsset');
  });

  it('an amount below the destination\'s existential deposit: /x-transfer does not answer it (400), /explain warns and its route says where it fails', async () => {
    const refused = await request(app).post('/v5/x-transfer').send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1000' }, address: ALICE, options });
    expectErrorBody(refused.body, 400, 'AmountTooLowError');
    expect(refused.body.message).toContain('does not cover the fees on the way');
    const polkadot = await api('Polkadot');
    const tx = polkadot.tx.xcmPallet.limitedTeleportAssets({ V4: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } } }, account(ALICE_ID), { V4: [{ id: { parents: 0, interior: 'Here' }, fun: { Fungible: 1000n } }] }, 0, 'Unlimited');
    const e = await explain('Polkadot', tx.method.toHex());
    expect(e.warnings.find((w) => w.code === 'BelowExistentialDeposit')?.message).toContain('1000 base units of DOT');
    expect(e.route[0]).toMatchObject({ chain: 'Polkadot', ok: false, problems: [{ at: 'limitedTeleportAssets.assets', message: expect.stringContaining('CannotCheckOutTeleport') }] });
    expect(e.route[1]).toMatchObject({ chain: 'AssetHubPolkadot', ok: false, problems: [{ at: 'BuyExecution.fees', message: expect.stringContaining('TooExpensive') }] });
  });

  it('a Transact with SuperUser origin, its inner call decoded with the destination\'s metadata', async () => {
    const polkadot = await api('Polkadot');
    const ah = await api('AssetHubPolkadot');
    const inner = ah.tx.system.remark('0x1234').method.toHex();
    const tx = polkadot.tx.xcmPallet.send({ V4: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } } }, {
      V4: [
        { UnpaidExecution: { weightLimit: 'Unlimited', checkOrigin: null } },
        { Transact: { originKind: 'Superuser', requireWeightAtMost: { refTime: 1_000_000, proofSize: 10_000 }, call: { encoded: inner } } },
      ],
    });
    const e = await explain('Polkadot', tx.method.toHex());
    const transact = e.xcm.find((s) => s.instruction === 'Transact');
    expect(transact).toMatchObject({ chain: 'AssetHubPolkadot', transact: { originKind: 'Superuser', call: { pallet: 'system', method: 'remark' } } });
    expect(codes(e)).toContain('TransactAsSuperUser');
  });

  it('an execute program: the assets it withdraws, where it sends them and to whom', async () => {
    const ah = await api('AssetHubPolkadot');
    const dot = { id: { parents: 1, interior: 'Here' }, fun: { Fungible: 30_000_000_000n } };
    const tx = ah.tx.polkadotXcm.execute(
      {
        V4: [
          { WithdrawAsset: [dot] },
          {
            DepositReserveAsset: {
              assets: { Wild: { AllCounted: 1 } },
              dest: { parents: 1, interior: { X1: [{ Parachain: 2034 }] } },
              xcm: [
                { BuyExecution: { fees: { id: { parents: 1, interior: 'Here' }, fun: { Fungible: 1_000_000_000n } }, weightLimit: 'Unlimited' } },
                { DepositAsset: { assets: { Wild: { AllCounted: 1 } }, beneficiary: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: ALICE_ID } }] } } } },
              ],
            },
          },
        ],
      },
      { refTime: 1_000_000_000, proofSize: 100_000 },
    );
    const e = await explain('AssetHubPolkadot', tx.method.toHex());
    expect(e.transfers).toEqual([
      expect.objectContaining({ kind: 'reserveTransfer', origin: 'AssetHubPolkadot', destination: 'Hydration', beneficiary: ALICE }),
    ]);
    expect(e.transfers[0]!.assets[0]).toMatchObject({ symbol: 'DOT', amountWhole: '3' });
    expect(e.xcm.map((s) => [s.chain, s.instruction])).toEqual([
      ['AssetHubPolkadot', 'WithdrawAsset'],
      ['AssetHubPolkadot', 'DepositReserveAsset'],
      ['Hydration', 'BuyExecution'],
      ['Hydration', 'DepositAsset'],
    ]);
    expect(e.xcm[0]!.text).toBe("Withdraw 3 DOT from the origin's account into the holding");
    expect(e.xcm[3]!.text).toBe(`Deposit everything left (at most 1 asset kind(s)) to 15mYsj…aTEZ on Hydration`);
  });

  it('a call the explanation does not read: the generic view and a warning', async () => {
    const polkadot = await api('Polkadot');
    const e = await explain('Polkadot', polkadot.tx.system.remark('0xdeadbeef').method.toHex());
    expect(e.call).toEqual({ pallet: 'system', method: 'remark', args: { remark: '0xdeadbeef' } });
    expect(e.transfers).toEqual([]);
    expect(codes(e)).toEqual(['UnknownCall']);
  });
});

describe('an EVM transaction is explained from its ABI', () => {
  const XTOKENS = parseAbi(['function transfer(address currencyAddress, uint256 amount, (uint8 parents, bytes[] interior) destination, uint64 weight)']);

  it('Moonbeam XTokens precompile: GLMR to Hydration for an SS58 account', async () => {
    const data = encodeFunctionData({
      abi: XTOKENS,
      functionName: 'transfer',
      args: ['0x0000000000000000000000000000000000000802', 5_000_000_000_000_000_000n, { parents: 1, interior: ['0x00000007f2', `0x01${ALICE_ID.slice(2)}00`] }, 2n ** 64n - 1n],
    });
    const hex = serializeTransaction({ type: 'eip1559', chainId: 1284, to: '0x0000000000000000000000000000000000000804', data, value: 0n });
    const e = await explain('Moonbeam', hex);
    expect(e.evm).toMatchObject({ chainId: 1284, contract: 'XTokens precompile', function: 'transfer', value: '0' });
    expect(e.transfers[0]).toMatchObject({ origin: 'Moonbeam', destination: 'Hydration', feeLimit: 'unlimited' });
    expect(Buffer.from(decode(e.transfers[0]!.beneficiary as string)).toString('hex')).toBe(ALICE_ID.slice(2));
    expect(e.transfers[0]!.assets[0]).toMatchObject({ symbol: 'GLMR', amount: '5000000000000000000', amountWhole: '5' });
  });

  it('a transaction for another chain id is flagged', async () => {
    const hex = serializeTransaction({ type: 'eip1559', chainId: 1285, to: '0x0000000000000000000000000000000000000804', data: '0x', value: 0n });
    const e = await explain('Moonbeam', hex);
    expect(codes(e)).toContain('ChainIdMismatch');
  });
});

describe('undecodable input is a 400 that names the byte', () => {
  it.each(FAMILIES)('/%s: unknown pallet, unknown call, a truncated argument, bytes left over', async (family) => {
    const polkadot = await api('Polkadot');
    const good = polkadot.tx.system.remark('0xdeadbeef').method.toHex();
    const used = new Set(polkadot.runtimeMetadata.asLatest.pallets.map((p) => p.index.toNumber()));
    const free = [...Array(256).keys()].reverse().find((i) => !used.has(i))!;
    const cases: [string, RegExp][] = [
      [`0x${free.toString(16).padStart(2, '0')}00`, new RegExp(`at byte 0: no pallet with calls has index ${free}`)],
      [`${good.slice(0, 4)}ff`, /at byte 1: pallet System has no call with index 255/],
      [good.slice(0, -2), /at byte 2: argument remark of system\.remark/],
      [`${good}00`, /at byte 7: 1 byte\(s\) left over after system\.remark/],
    ];
    for (const [hex, message] of cases) {
      const res = await request(app).post(`/${family}/explain`).send({ chain: 'Polkadot', hex, options });
      expectErrorBody(res.body, 400, 'UndecodableCallError');
      expect(res.body.message).toMatch(message);
      expect(res.body.details[0].path).toBe('body.hex');
    }
  });

  it('a missing or malformed hex, an unknown chain and a bad sender are 400s naming the field', async () => {
    const bad: [Record<string, unknown>, string, string][] = [
      [{ chain: 'Polkadot' }, 'MissingParameterError', 'body.hex'],
      [{ chain: 'Polkadot', hex: '0x123' }, 'ValidationError', 'body.hex'],
      [{ chain: 'Polkadott', hex: '0x00' }, 'UnknownChainError', 'body.chain'],
      [{ chain: 'Polkadot', hex: '0x0000', senderAddress: 'nope' }, 'InvalidAddressError', 'body.senderAddress'],
      [{ chain: 'Ethereum', hex: '0x0000' }, 'UndecodableCallError', 'body.hex'],
    ];
    for (const [body, kind, path] of bad) {
      const res = await request(app).post('/v5/explain').send({ ...body, options });
      expectErrorBody(res.body, 400, kind);
      expect(res.body.details[0].path).toBe(path);
    }
  });

  it('random and truncated call data never answers a 500', async () => {
    const polkadot = await api('Polkadot');
    const real = polkadot.tx.xcmPallet.limitedTeleportAssets({ V4: { parents: 0, interior: { X1: [{ Parachain: 1000 }] } } }, { V4: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: ALICE_ID } }] } } }, { V4: [{ id: { parents: 0, interior: 'Here' }, fun: { Fungible: 1n } }] }, 0, 'Unlimited').method.toHex();
    const seed = process.env.CI ? 20261123 : Date.now() % 2 ** 31;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
          fc.nat({ max: (real.length - 2) / 2 - 1 }).map((n) => real.slice(0, 2 + 2 * n) || '0x00'),
          fc.tuple(fc.nat({ max: (real.length - 2) / 2 - 1 }), fc.integer({ min: 0, max: 255 })).map(([i, b]) => `${real.slice(0, 2 + 2 * i)}${b.toString(16).padStart(2, '0')}${real.slice(4 + 2 * i)}`),
        ),
        async (hex) => {
          const res = await request(app).post('/v2/explain').send({ chain: 'Polkadot', hex, options });
          expect([200, 400]).toContain(res.status);
        },
      ),
      { numRuns: 150, seed },
    );
  });
});

// ---- Moonbeam -> Ethereum: the XCM-interface precompile, read with Moonbeam's metadata --------

describe.each(FAMILIES)('/%s/explain reads Moonbeam -> Ethereum transactions (XCM-interface precompile)', (family) => {
  const XCM_INTERFACE = parseAbi([
    'function transferAssetsUsingTypeAndThenAddress((uint8 parents, bytes[] interior) dest, (address asset, uint256 amount)[] assets, uint8 assetsTransferType, uint8 remoteFeesIdIndex, uint8 feesTransferType, bytes customXcmOnDest)',
  ]);
  const SENDER = '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326';
  const RECIPIENT = '0x24d18dbfbced732eadf98ee520853e13909fe258';
  const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
  /** The asset hub's BridgeHubEthereumBaseFee, and the builder's fee from it (both fees padded by 10%). */
  const BRIDGE_FEE_KEY = '0x5fbc5c7ba58845ad1f1a9a7c5bc12fad';
  const BRIDGE_FEE = 1_234_567_890_123n;
  const FEE = (BRIDGE_FEE * 110n) / 100n + (2_200_000_000n * 110n) / 100n;
  const u128le = (n: bigint) => toHex(Uint8Array.from({ length: 16 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn)));
  const xc20 = (id: string) => getAddress(`0xffffffff${BigInt(id).toString(16).padStart(32, '0')}`);
  const wethE = sdk.findAssetInfoOrThrow('Moonbeam', { symbol: 'WETH.e' }, null) as { assetId: string; location: unknown };
  const xcDot = sdk.findAssetInfoOrThrow('Moonbeam', { location: { parents: 1, interior: { Here: null } } }, null) as { assetId: string; location: unknown };
  /** The id sdk-pjs 11.14.8 puts in SetTopic: blake2-256 over Moonbeam's para id, sender, nonce, token, recipient and amount. */
  const topicFor = (nonceHex: string, token: string, amount: bigint) =>
    utilCrypto.blake2AsHex(concat([stringToBytes('2004'), hexToBytes(SENDER), stringToBytes(nonceHex), hexToBytes(token as Hex), stringToBytes(RECIPIENT), stringToBytes(amount.toString())]), 256);

  /** A transfer to RECIPIENT on Ethereum as /explain reads it: through the asset hub, no fee limit, leftovers to ALICE there. */
  const toEthereumTransfer = (assets: object[], feeAsset: object, topic: string) => ({
    kind: 'toEthereum',
    origin: 'Moonbeam',
    destination: 'Ethereum',
    beneficiary: getAddress(RECIPIENT),
    assets,
    feeAsset,
    feeLimit: 'unlimited',
    via: 'AssetHubPolkadot',
    leftoversTo: ALICE,
    topic,
  });

  beforeAll(() => {
    chains.AssetHubPolkadot.setStorage(BRIDGE_FEE_KEY, u128le(BRIDGE_FEE));
    chains.Moonbeam.setAccountNextIndex(SENDER, 7);
  });
  afterAll(() => {
    chains.AssetHubPolkadot.setStorage(BRIDGE_FEE_KEY, null);
    chains.Moonbeam.setAccountNextIndex(SENDER, undefined);
  });

  /** A real answer of POST /v2/evm-x-transfer. */
  async function toEthereum(currency: object): Promise<Hex> {
    const res = await request(app).post('/v2/evm-x-transfer').send({ from: 'Moonbeam', to: 'Ethereum', currency, sender: SENDER, recipient: RECIPIENT, ahAddress: ALICE, options });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Hex;
  }

  /** The same transaction with its arguments changed by hand. */
  function altered(hex: Hex, change: (args: Mutable) => void): Hex {
    const tx = parseTransaction(hex);
    const { args } = decodeFunctionData({ abi: XCM_INTERFACE, data: tx.data! });
    const copy = [args[0], args[1].map((a) => ({ ...a })), args[2], args[3], args[4], args[5]] as Mutable;
    change(copy);
    return serializeTransaction({ type: 'eip1559', chainId: 1284, to: tx.to!, value: 0n, data: encodeFunctionData({ abi: XCM_INTERFACE, functionName: 'transferAssetsUsingTypeAndThenAddress', args: copy }) });
  }
  type Mutable = [{ parents: number; interior: readonly Hex[] }, { asset: Hex; amount: bigint }[], number, number, number, Hex];

  /** customXcmOnDest as Moonbeam's own codec reads it, changed and encoded again. */
  function withProgram(hex: Hex, change: (v4: Record<string, unknown>[]) => Record<string, unknown>[]): Hex {
    return altered(hex, (args) => {
      const program = chains.Moonbeam.registry.createType('XcmVersionedXcm', args[5]).toJSON() as { v4: Record<string, unknown>[] };
      args[5] = chains.Moonbeam.registry.createType('XcmVersionedXcm', { V4: change(program.v4) }).toHex();
    });
  }

  it('WETH: function, assets by XC-20, amounts, the asset hub, DestinationReserve, recipient on Ethereum, ahAddress and topic', async () => {
    const hex = await toEthereum({ symbol: 'WETH', amount: '0.25' });
    const e = await explain('Moonbeam', hex, {}, family);
    const topic = topicFor('0x00000007', WETH, 250_000_000_000_000_000n);
    expect(e.evm).toMatchObject({
      chainId: 1284,
      to: '0x000000000000000000000000000000000000081A',
      contract: 'XCM interface precompile',
      function: 'transferAssetsUsingTypeAndThenAddress',
      value: '0',
      args: {
        dest: { parents: 1, interior: ['0x00000003e8'] },
        assets: [
          { asset: xc20(xcDot.assetId), amount: FEE.toString() },
          { asset: xc20(wethE.assetId), amount: '250000000000000000' },
        ],
        assetsTransferType: 2,
        remoteFeesIdIndex: 0,
        feesTransferType: 2,
      },
    });
    expect(e.evm!.customXcmOnDest!.v4.map((i) => Object.keys(i as object)[0])).toEqual(['setAppendix', 'initiateReserveWithdraw', 'setTopic']);
    expect(e.transfers).toEqual([
      toEthereumTransfer(
        [{ symbol: 'WETH.e', amount: '250000000000000000', amountWhole: '0.25', decimals: 18, location: wethE.location }],
        { symbol: 'xcDOT', amount: FEE.toString(), amountWhole: formatUnits(FEE, 10), decimals: 10, location: xcDot.location },
        topic,
      ),
    ]);
    expect(e.xcm.map((s) => `${s.chain} ${s.instruction}`)).toEqual([
      'Moonbeam WithdrawAsset',
      'AssetHubPolkadot BuyExecution',
      'AssetHubPolkadot SetAppendix',
      'AssetHubPolkadot DepositAsset',
      'AssetHubPolkadot InitiateReserveWithdraw',
      'Ethereum BuyExecution',
      'Ethereum DepositAsset',
      'Ethereum SetTopic',
      'AssetHubPolkadot SetTopic',
    ]);
    expect(e.xcm[0]!.text).toBe(`Take ${formatUnits(FEE, 10)} xcDOT, 0.25 WETH.e from the signer's account on Moonbeam and send them to AssetHubPolkadot (DestinationReserve: AssetHubPolkadot holds their reserve, so they are burnt on Moonbeam and withdrawn from Moonbeam's account there)`);
    expect(e.xcm[3]!.text).toBe('Deposit everything left to 15mYsj…aTEZ on AssetHubPolkadot');
    expect(e.xcm[4]!.text).toBe('Send back to its reserve all the WETH in the holding — Ethereum — and run the program below there');
    expect(e.xcm[6]!.text).toBe('Deposit everything left (at most 1 asset kind(s)) to 0x24D1…E258 on Ethereum');
    expect(e.xcm[8]!.text).toBe(`Set the message topic (its id for tracking) to ${topic}`);
    expect(e.warnings).toEqual([]);
  });

  it('DOT: one merged xcDOT entry pays and travels; DepositReserveAsset to Ethereum for the recipient', async () => {
    const hex = await toEthereum({ location: { parents: 1, interior: { Here: null } }, amount: '12.5' });
    const e = await explain('Moonbeam', hex, {}, family);
    const dotOnEthereum = sdk.findAssetInfoOrThrow('Ethereum', { symbol: 'DOT' }, null) as { assetId: string };
    const both = FEE + 125_000_000_000n;
    expect(e.transfers).toEqual([
      toEthereumTransfer(
        [{ symbol: 'xcDOT', amount: '125000000000', amountWhole: '12.5', decimals: 10, location: xcDot.location }],
        { symbol: 'xcDOT', amount: both.toString(), amountWhole: formatUnits(both, 10), decimals: 10, location: xcDot.location },
        topicFor('0x00000007', dotOnEthereum.assetId, 125_000_000_000n),
      ),
    ]);
    expect(e.xcm.map((s) => s.instruction)).toContain('DepositReserveAsset');
    expect(e.warnings).toEqual([]);
  });

  it('hand-altered: WETH\'s Ethereum address instead of its XC-20, a fee index at WETH.e or past the end', async () => {
    const hex = await toEthereum({ symbol: 'WETH', amount: '0.25' });
    const ethereumAddress = await explain('Moonbeam', altered(hex, (a) => void (a[1][1]!.asset = WETH)), {}, family);
    expect(codes(ethereumAddress)).toEqual(['UnknownAsset']);
    expect(ethereumAddress.warnings[0]).toMatchObject({ severity: 'danger' });
    expect(ethereumAddress.warnings[0]!.message).toContain(`is WETH's address on Ethereum, not an XC-20 of Moonbeam (WETH.e's XC-20 is ${xc20(wethE.assetId)})`);

    const nobody = await explain('Moonbeam', altered(hex, (a) => void (a[1][1]!.asset = '0x000000000000000000000000000000000000dead')), {}, family);
    expect(codes(nobody)).toEqual(['UnknownAsset']);
    expect(nobody.warnings[0]!.message).toContain('0x000000000000000000000000000000000000dEaD is not an asset of Moonbeam the registry knows');

    // The index counts the assets as pallet-xcm sorts them (DOT, at (1, Here), first), not as written.
    const swapped = await explain('Moonbeam', altered(hex, (a) => void a[1].reverse()), {}, family);
    expect(swapped.warnings).toEqual([]);
    expect(swapped.transfers[0]).toMatchObject({ feeAsset: { symbol: 'xcDOT', amount: FEE.toString() }, assets: [{ symbol: 'WETH.e', amount: '250000000000000000' }] });

    const wethPays = await explain('Moonbeam', altered(hex, (a) => void (a[3] = 1)), {}, family);
    expect(codes(wethPays)).toEqual(['FeeAssetNotDot']);
    expect(wethPays.transfers[0]!.feeAsset).toMatchObject({ symbol: 'WETH.e', amount: '250000000000000000' });
    // The token still travels: the program sends all the WETH on.
    expect(wethPays.transfers[0]!.assets).toMatchObject([{ symbol: 'WETH.e' }]);

    const swappedWethPays = await explain('Moonbeam', altered(hex, (a) => void (a[1].reverse(), (a[3] = 1))), {}, family);
    expect(codes(swappedWethPays)).toEqual(['FeeAssetNotDot']);

    const elsewhere = await explain('Moonbeam', altered(hex, (a) => void (a[0] = { parents: 1, interior: ['0x00000f4240'] })), {}, family);
    expect(codes(elsewhere)).toContain('UnknownDestination');

    const pastTheEnd = await explain('Moonbeam', altered(hex, (a) => void (a[3] = 2)), {}, family);
    expect(codes(pastTheEnd)).toEqual(['FeeIndexOutOfRange']);
    expect(pastTheEnd.warnings[0]!.message).toContain('remote_fees_id not found');
    expect(pastTheEnd.transfers[0]).not.toHaveProperty('feeAsset');
  });

  it('hand-altered program: no appendix, a second topic, an AccountId32 on Ethereum, bytes that do not decode', async () => {
    const hex = await toEthereum({ symbol: 'WETH', amount: '0.25' });
    const noAppendix = await explain('Moonbeam', withProgram(hex, (v4) => v4.slice(1)), {}, family);
    expect(codes(noAppendix)).toEqual(['LeftoversTrapped']);
    expect(noAppendix.transfers[0]).not.toHaveProperty('leftoversTo');

    const otherTopic = await explain('Moonbeam', withProgram(hex, (v4) => [...v4.slice(0, 2), { setTopic: `0x${'11'.repeat(32)}` }]), {}, family);
    expect(codes(otherTopic)).toEqual(['TopicMismatch']);

    const substrateRecipient = await explain(
      'Moonbeam',
      withProgram(hex, (v4) => {
        const irw = v4[1]!.initiateReserveWithdraw as { xcm: Record<string, unknown>[] };
        irw.xcm[1] = { depositAsset: { assets: { wild: { allCounted: 1 } }, beneficiary: { parents: 0, interior: { x1: [{ accountId32: { network: null, id: ALICE_ID } }] } } } };
        return v4;
      }),
      {},
      family,
    );
    expect(substrateRecipient.transfers[0]!.beneficiary).toBe(ALICE_ID);
    expect(codes(substrateRecipient)).toEqual(['BeneficiaryNotAnAccount']);

    // Past XCM's bounds (here 100 instructions), the program is neither read nor walked (issue 42).
    const tooLong = await explain('Moonbeam', withProgram(hex, (v4) => [...v4, ...Array.from({ length: 100 }, () => ({ clearOrigin: null }))]), {}, family);
    expect(codes(tooLong)).toEqual(['UndecodableCustomXcm']);
    expect(tooLong.warnings[0]!.message).toMatch(/customXcmOnDest: more than 100 instructions in one message/);

    const truncated = await explain('Moonbeam', altered(hex, (a) => void (a[5] = a[5].slice(0, -8) as Hex)), {}, family);
    expect(codes(truncated)).toEqual(['UndecodableCustomXcm']);
    expect(truncated.transfers[0]).toMatchObject({ kind: 'reserveTransfer', destination: 'AssetHubPolkadot', beneficiary: { location: null } });
    expect(truncated.xcm).toHaveLength(2);
  });

  it('Moonbeam unreachable: an XCM-interface call is a 503 (its program needs the metadata); an XTokens call is still read offline', async () => {
    const hex = await toEthereum({ symbol: 'WETH', amount: '0.25' });
    const down = { ...options, apiOverrides: { ...overrides, Moonbeam: await refusedUrl() } };
    const res = await request(app).post(`/${family}/explain`).send({ chain: 'Moonbeam', hex, options: down });
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('Chain Moonbeam is unreachable');
    const xtokens = serializeTransaction({ type: 'eip1559', chainId: 1284, to: '0x0000000000000000000000000000000000000804', data: encodeFunctionData({ abi: parseAbi(['function transfer(address currencyAddress, uint256 amount, (uint8 parents, bytes[] interior) destination, uint64 weight)']), functionName: 'transfer', args: ['0x0000000000000000000000000000000000000802', 1n, { parents: 1, interior: ['0x00000007f2', `0x01${ALICE_ID.slice(2)}00`] }, 1n] }), value: 0n });
    const offline = await request(app).post(`/${family}/explain`).send({ chain: 'Moonbeam', hex: xtokens, options: down });
    expect(offline.status, JSON.stringify(offline.body)).toBe(200);
    expect(offline.body.evm).toMatchObject({ contract: 'XTokens precompile', function: 'transfer' });
    // Another function of the precompile carries no program of ours: read offline, said to be unread.
    const other = serializeTransaction({ type: 'eip1559', chainId: 1284, to: '0x000000000000000000000000000000000000081A', data: '0x12345678', value: 0n });
    const unread = await request(app).post(`/${family}/explain`).send({ chain: 'Moonbeam', hex: other, options: down });
    expect(unread.status, JSON.stringify(unread.body)).toBe(200);
    expect(unread.body.warnings.map((w: { code: string }) => w.code)).toEqual(['UndecodableContractCall']);
  });
});
