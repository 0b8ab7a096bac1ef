import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { sdk } from '../../src/sdk';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';

// Hostile input (issue 9, parts 3 and 5): whatever a client sends is answered by a small 400
// naming the field, never a 500, never an answer that grows with the number of mistakes.

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ERROR_ANSWER_LIMIT = 16 * 1024;
const { app, services } = testApp();

const recipientField = (family: string) => (family === 'v5' ? 'address' : 'recipient');
/** JSON text sent as is: some inputs (1e309, 10,000 nested arrays) cannot be made with JSON.stringify. */
const postText = (path: string, text: string) => request(app).post(path).set('Content-Type', 'application/json').send(text);

async function expect400(res: request.Response, kind: string, path: string): Promise<void> {
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expectErrorBody(res.body, 400, kind);
  expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
}

const { overrides } = chainsForFile(['Polkadot', 'AssetHubPolkadot'], services, {});

describe.each(FAMILIES)('/%s: work and answers bounded by the input', (family) => {
  const address = recipientField(family);

  it('a batch of 100 empty transfers with 2,000 unknown apiOverrides keys is one small 400', async () => {
    const apiOverrides = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`Chain${i}`, 'ws://127.0.0.1:1']));
    const res = await request(app).post(`/${family}/x-transfer-batch`).send({ transfers: Array.from({ length: 100 }, () => ({})), options: { apiOverrides } });
    await expect400(res, 'ValidationError', 'body.options.apiOverrides');
    expect(res.text.length).toBeLessThan(ERROR_ANSWER_LIMIT);
  });

  it('apiOverrides naming 33 chains is a 400; 32 known chains are checked one by one', async () => {
    const names = sdk.CHAINS.filter((c) => c !== 'Ethereum');
    const many = Object.fromEntries(names.slice(0, 33).map((c) => [c, 'ws://127.0.0.1:1']));
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, [address]: ALICE, options: { development: true, apiOverrides: many } };
    const res = await request(app).post(`/${family}/x-transfer`).send(body);
    await expect400(res, 'ValidationError', 'body.options.apiOverrides');
    expect(res.body.message).toContain('32');
  });

  it('a batch holds at most 100 transfers', async () => {
    const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, [address]: ALICE };
    const res = await request(app).post(`/${family}/x-transfer-batch`).send({ transfers: Array.from({ length: 101 }, () => transfer), options: { development: true } });
    await expect400(res, 'BatchValidationError', 'body.transfers');
  });

  it('a multi-asset transfer of 9 assets, or a router whitelist of 33 exchanges, is a 400', async () => {
    const assets = Array.from({ length: 9 }, () => ({ symbol: 'DOT', amount: '1' }));
    const res = await request(app).post(`/${family}/x-transfer`).send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: assets, feeAsset: { symbol: 'DOT' }, [address]: ALICE, options: { development: true } });
    await expect400(res, 'ValidationError', 'body.currency');
    expect(res.body.message).toContain('at most 8 assets');
    const router = { from: 'Polkadot', to: 'Astar', exchange: Array.from({ length: 33 }, () => 'HydrationDex'), currencyFrom: { symbol: 'DOT' }, currencyTo: { symbol: 'ASTR' }, amount: '1', slippagePct: '1', recipientAddress: ALICE, senderAddress: ALICE, options: { development: true } };
    await expect400(await request(app).post(`/${family}/router`).send(router), 'ValidationError', 'body.exchange');
  });

  it('100 faulty transfers: the answer names 20 issues and counts the rest', async () => {
    const transfers = Array.from({ length: 100 }, () => ({ from: 'Polkadat', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, [address]: ALICE }));
    const res = await request(app).post(`/${family}/x-transfer-batch`).send({ transfers, options: { development: true } });
    await expect400(res, 'UnknownChainError', 'body.transfers.0.from');
    expect(res.body.details).toHaveLength(20);
    expect(res.body.message).toMatch(/and 80 more issue\(s\)$/);
  });

  it('an unknown chain name of 90 kB is quoted by its first characters only', async () => {
    const huge = 'Polkadat'.repeat(11_250);
    const res = await request(app).post(`/${family}/x-transfer`).send({ from: huge, to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, [address]: ALICE });
    await expect400(res, 'UnknownChainError', 'body.from');
    expect(res.text.length).toBeLessThan(2048);
    expect(res.body.message).toContain('(90000 characters); did you mean');
  });

  it('an unknown field with a 90 kB name is quoted by its first characters only', async () => {
    const res = await request(app).post(`/${family}/x-transfer`).send({ ['x'.repeat(90_000)]: 1, from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, [address]: ALICE });
    await expect400(res, 'ValidationError', 'body');
    expect(res.text.length).toBeLessThan(2048);
  });

  it.each([
    ['a symbol', { currency: { symbol: 'D'.repeat(65), amount: '1' } }, 'body.currency.symbol'],
    ['a symbol specifier value', { currency: { symbol: { type: 'Foreign', value: 'D'.repeat(65) }, amount: '1' } }, 'body.currency.symbol.value'],
    ['an asset id', { currency: { id: '1'.repeat(129), amount: '1' } }, 'body.currency.id'],
    ['a pallet name', { pallet: `P${'a'.repeat(64)}`, method: 'transfer' }, 'body.pallet'],
    ['a method name', { pallet: 'XcmPallet', method: `m${'a'.repeat(64)}` }, 'body.method'],
    ['an address', { address: `5${'G'.repeat(128)}` }, 'body.address'],
  ])('%s over its maximum length is a 400 naming it', async (_name, extra, path) => {
    const fields = { ...extra } as Record<string, unknown>;
    if ('address' in fields) {
      fields[address] = fields.address;
      if (address !== 'address') delete fields.address;
    }
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, [address]: ALICE, ...fields, options: { development: true } };
    const res = await request(app).post(`/${family}/x-transfer`).send(body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path.replace('body.address', `body.${address}`));
  });

  it('a long address is refused by its length, not decoded (base58 takes quadratic time)', async () => {
    const long = `5${'G'.repeat(12_000)}`;
    const router = { from: 'Polkadot', to: 'Astar', exchange: 'HydrationDex', currencyFrom: { symbol: 'DOT' }, currencyTo: { symbol: 'ASTR' }, amount: '1', slippagePct: '1', recipientAddress: long, senderAddress: ALICE, options: { development: true } };
    const routed = await request(app).post(`/${family}/router`).send(router);
    await expect400(routed, 'ValidationError', 'body.recipientAddress');
    expect(routed.body.message).toContain('at most 128 characters');
    const balance = await request(app).post(`/${family}/balance/Polkadot`).send({ [family === 'v5' ? 'address' : 'recipient']: long, currency: { symbol: 'DOT' }, options: { development: true } });
    await expect400(balance, 'ValidationError', `body.${family === 'v5' ? 'address' : 'recipient'}`);
    const converted = await request(app).get(`/${family}/convert-ss58?chain=Polkadot&address=${long.slice(0, 8_000)}`);
    await expect400(converted, 'ValidationError', 'query.address');
  });

  it('a symbol or id over its maximum length is a 400 in lookups too', async () => {
    await expect400(await request(app).post(`/${family}/assets/Hydration/asset-info`).send({ currency: { symbol: 'D'.repeat(90_000) } }), 'ValidationError', 'body.currency.symbol');
    await expect400(await request(app).post(`/${family}/assets/Hydration/asset-info`).send({ currency: { id: '9'.repeat(129) } }), 'ValidationError', 'body.currency.id');
  });
});

describe.each(FAMILIES)('/%s: amounts the engine would read differently are refused', (family) => {
  const address = recipientField(family);
  const transferText = (amount: string, abstractDecimals = family === 'v2') =>
    `{"from":"Polkadot","to":"AssetHubPolkadot","currency":{"symbol":"DOT","amount":${amount}},"${address}":"${ALICE}",` +
    `"options":{"development":true,"abstractDecimals":${abstractDecimals},"apiOverrides":{"Polkadot":"${overrides.Polkadot}","AssetHubPolkadot":"${overrides.AssetHubPolkadot}"}}}`;

  it.each([
    ['1e309 (Infinity)', '1e309'],
    ['1e-7', '1e-7'],
    ['1.5e-10', '1.5e-10'],
    ['a number beyond 2^53', '18014398509481985'],
    ['an exponent in a string', '"1e3"'],
    ['a no-break space', '"100\\u00a0"'],
    ['Arabic-Indic digits', '"\\u0661\\u0660\\u0660"'],
    ['a plus sign', '"+100"'],
    ['two points', '"1.2.3"'],
    ['a bare point', '"1."'],
    ['0', '0'],
    ['"0"', '"0"'],
    ['"0.000"', '"0.000"'],
    ['2^128 (beyond u128)', `"${2n ** 128n}"`],
    ['a 101-digit string', `"${'1'.repeat(101)}"`],
  ])('%s is a 400 NumberFormatError', async (_name, amount) => {
    await expect400(await postText(`/${family}/x-transfer`, transferText(amount)), 'NumberFormatError', 'body.currency.amount');
  });

  it('2^128 is refused in whole units too, whatever the decimals', async () => {
    await expect400(await postText(`/${family}/x-transfer`, transferText(`"${2n ** 128n}"`, true)), 'NumberFormatError', 'body.currency.amount');
  });

  it('in whole units, an amount beyond 2^128-1 base units once scaled by the decimals is a 400; the largest one builds', async () => {
    // DOT has 10 decimals: 2^128-1 base units are 34028236692093846346337460743.1768211455 DOT.
    await expect400(await postText(`/${family}/x-transfer`, transferText('"34028236692093846346337460743.1768211456"', true)), 'NumberFormatError', 'body.currency.amount');
    await expect400(await postText(`/${family}/x-transfer`, transferText('"100000000000000000000000000000"', true)), 'NumberFormatError', 'body.currency.amount');
    const largest = await postText(`/${family}/x-transfer`, transferText('"34028236692093846346337460743.1768211455"', true));
    expect(largest.status, largest.text).toBe(200);
  });

  it('leading zeros are dropped: 00010000000000 builds what 10000000000 builds', async () => {
    const plain = await postText(`/${family}/x-transfer`, transferText('"10000000000"', false));
    expect(plain.status, plain.text).toBe(200);
    const padded = await postText(`/${family}/x-transfer`, transferText('"00010000000000"', false));
    expect(padded.status, padded.text).toBe(200);
    expect(padded.body).toBe(plain.body);
  });

  it('2^128-1 in base units is still a valid amount', async () => {
    expect((await postText(`/${family}/x-transfer`, transferText(`"${2n ** 128n - 1n}"`, false))).status).toBe(200);
  });

  it('a lookup amount follows the same text rules', async () => {
    await expect400(await request(app).post(`/${family}/assets/Hydration/asset-info`).send({ currency: { symbol: 'DOT', amount: '100\u00a0' } }), 'NumberFormatError', 'body.currency.amount');
  });

  it('the router takes the same amounts', async () => {
    const body = { from: 'Polkadot', to: 'Astar', exchange: 'HydrationDex', currencyFrom: { symbol: 'DOT' }, currencyTo: { symbol: 'ASTR' }, slippagePct: '1', recipientAddress: ALICE, senderAddress: ALICE, options: { development: true } };
    for (const amount of ['100\u00a0', 1e-7, `${2n ** 128n}`]) {
      await expect400(await request(app).post(`/${family}/router`).send({ ...body, amount }), 'NumberFormatError', 'body.amount');
    }
  });
});

describe.each(FAMILIES)('/%s: locations no larger than XCM allows', (family) => {
  const address = recipientField(family);
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const deepLocation = `{"parents":1,"interior":{"X1":${nested(10_000)}}}`;

  it('10,000 nested arrays in a currency location, a destination or a recipient: 400', async () => {
    await expect400(await postText(`/${family}/assets/Hydration/location`, `{"currency":{"location":${deepLocation}}}`), 'ValidationError', 'body.currency.location');
    const transfer = (to: string, recipient: string, currency = '{"symbol":"DOT","amount":"1"}') =>
      `{"from":"Polkadot","to":${to},"currency":${currency},"${address}":${recipient},"options":{"development":true}}`;
    await expect400(await postText(`/${family}/x-transfer`, transfer(deepLocation, `"${ALICE}"`)), 'ValidationError', 'body.to');
    await expect400(await postText(`/${family}/x-transfer`, transfer('"AssetHubPolkadot"', deepLocation)), 'ValidationError', `body.${address}`);
    const currency = `{"location":${deepLocation},"amount":"1"}`;
    const res = await postText(`/${family}/x-transfer`, transfer('"AssetHubPolkadot"', `"${ALICE}"`, currency));
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('body.currency.location');
  });

  it('the same inside a location string', async () => {
    const res = await request(app).post(`/${family}/assets/Hydration/location`).send({ currency: { location: deepLocation } });
    expect(res.status, res.text.slice(0, 300)).toBe(400);
  });

  it('more than 8 junctions, or thousands of values, is a 400', async () => {
    const junction = { Parachain: 1000 };
    for (const interior of [{ X9: Array.from({ length: 9 }, () => junction) }, { X8: Array.from({ length: 9 }, () => junction) }, { X1: Array.from({ length: 5000 }, () => junction) }, { X1: { GeneralKey: { data: Array.from({ length: 5000 }, () => 0) } } }]) {
      const res = await request(app).post(`/${family}/assets/Hydration/location`).send({ currency: { location: { parents: 1, interior } } });
      expect(res.status, JSON.stringify(interior).slice(0, 100)).toBe(400);
      expectErrorBody(res.body, 400, 'ValidationError');
    }
  });

  it('a real location with 8 junctions and nested junction values passes the bound', async () => {
    const interior = {
      X8: [
        { GlobalConsensus: { Ethereum: { chainId: 1 } } },
        { AccountKey20: { network: { Ethereum: { chainId: 1 } }, key: '0xdac17f958d2ee523a2206206994597c13d831ec7' } },
        { Parachain: 1000 },
        { PalletInstance: 50 },
        { GeneralIndex: 1984 },
        { GeneralKey: { length: 2, data: '0x0001000000000000000000000000000000000000000000000000000000000000' } },
        { Plurality: { id: 'Unit', part: { AtLeastProportion: { nom: 1, denom: 2 } } } },
        { OnlyChild: null },
      ],
    };
    const res = await request(app).post(`/${family}/assets/Hydration/location`).send({ currency: { location: { parents: 1, interior } } });
    // No registry asset sits there: the lookup answers null.
    expect(res.status, res.text.slice(0, 300)).toBe(200);
  });
});

describe('a big integer id on every chain', () => {
  const chains: readonly string[] = sdk.CHAINS;
  it.each(FAMILIES)('/%s/assets/:chain/reserve-chain and existential-deposit with id "123456789n" answer 4xx on every chain', async (family) => {
    for (const chain of chains) {
      for (const op of ['assets/%s/reserve-chain', 'assets/%s/location', 'assets/%s/asset-info', 'assets/%s/supported-destinations', 'balance/%s/existential-deposit']) {
        const res = await request(app).post(`/${family}/${op.replace('%s', chain)}`).send({ currency: { id: '123456789n' } });
        expect(res.status, `${op} on ${chain}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status >= 400) expectErrorBody(res.body, res.status);
      }
    }
  });

  it('the message quotes the id as the caller wrote it', async () => {
    const res = await request(app).post('/v5/assets/Acala/reserve-chain').send({ currency: { id: '123456789n' } });
    expectErrorBody(res.body, 400, 'InvalidCurrencyError');
    expect(res.body.message).toContain('"123456789n"');
  });
});
