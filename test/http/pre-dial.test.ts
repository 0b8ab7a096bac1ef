// One pre-dial check for every chain-backed operation: each bad input below is run through every
// operation of both families and must get the same status and kind, without any chain being
// dialled (every chain the requests name points at a port where nothing listens: a dial would be a
// 503). Valid twins of the inputs show that the same requests do reach the chains.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { refusedUrl } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
const EVM = '0x1501C1413e4178c38567Ada8945A80351F7B8496';

const { app, services } = testApp();
afterAll(() => services.close());

type Family = (typeof FAMILIES)[number];
const CHAINS = ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Kusama', 'Paseo', 'Karura', 'Astar', 'Moonbeam'];
let down: Record<string, string>;
beforeAll(async () => {
  const url = await refusedUrl();
  down = Object.fromEntries(CHAINS.map((c) => [c, url]));
});

// ---- transfer-shaped operations: x-transfer, each batch item, every pre-flight query --------

/** A transfer body in the family's names: Hydration -> Polkadot, 1 DOT, in base units unless the case says otherwise. */
interface TransferCase {
  from?: string;
  to?: string;
  currency?: unknown;
  recipient?: string;
  sender?: string;
  abstractDecimals?: boolean;
  development?: 'no overrides';
}

const PREFLIGHT = ['dry-run', 'dry-run-preview', 'xcm-fee', 'origin-xcm-fee', 'transfer-info', 'transferable-amount', 'min-transferable-amount', 'receivable-amount', 'verify-ed-on-destination'];
const TRANSFER_OPERATIONS = ['x-transfer', 'x-transfer-batch', ...PREFLIGHT];

function transferBody(family: Family, c: TransferCase): Record<string, unknown> {
  const [recipient, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
  return {
    from: c.from ?? 'Hydration',
    to: c.to ?? 'Polkadot',
    currency: c.currency ?? { symbol: 'DOT', amount: family === 'v5' ? '10000000000' : '1' },
    [recipient]: c.recipient ?? ALICE,
    [sender]: c.sender ?? BOB,
  };
}

function send(family: Family, operation: string, c: TransferCase) {
  const options = {
    development: true,
    apiOverrides: c.development === 'no overrides' ? {} : down,
    ...(c.abstractDecimals !== undefined ? { abstractDecimals: c.abstractDecimals } : {}),
  };
  const body = transferBody(family, c);
  if (operation === 'x-transfer-batch') return request(app).post(`/${family}/x-transfer-batch`).send({ transfers: [body], options });
  return request(app).post(`/${family}/${operation}`).send({ ...body, options });
}

const tinyAmount = (family: Family) => (family === 'v5' ? '1' : '0.0000000001');

const TRANSFER_CASES: [name: string, make: (family: Family) => TransferCase, kind: string, says: string][] = [
  ['parachain -> the other ecosystem\'s relay (Hydration -> Kusama)', () => ({ to: 'Kusama' }), 'UnsupportedOperationError', 'from and to are not compatible'],
  ['parachain -> a test relay (Hydration -> Paseo)', () => ({ to: 'Paseo' }), 'UnsupportedOperationError', 'from and to are not compatible'],
  ['parachain -> a parachain of the other ecosystem (Hydration -> Karura)', () => ({ to: 'Karura', currency: { symbol: 'HDX', amount: '1000000000000' } }), 'UnsupportedOperationError', 'from and to are not compatible'],
  ['relay -> relay (Polkadot -> Kusama)', () => ({ from: 'Polkadot', to: 'Kusama' }), 'UnsupportedOperationError', 'from and to are not compatible'],
  ['a currency the origin does not have', () => ({ currency: { symbol: 'NOPE', amount: '1000' } }), 'InvalidCurrencyError', 'is not an asset of Hydration'],
  ['a currency the destination does not have (KILT to Astar)', () => ({ to: 'Astar', currency: { symbol: 'KILT', amount: '1000000000000000' } }), 'InvalidCurrencyError', 'destination Astar'],
  ['an Override location from a relay chain', () => ({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { location: 'Override({"parents":0,"interior":"Here"})', amount: '10000000000' } }), 'InvalidCurrencyError', 'Select the asset by symbol'],
  ['an EVM recipient on a Substrate destination', () => ({ recipient: EVM }), 'InvalidAddressError', 'EVM'],
  ['an EVM sender on a Substrate origin', () => ({ sender: EVM }), 'InvalidAddressError', 'sender'],
  ['an amount below the engine\'s minimum of 2 base units', (f) => ({ currency: { symbol: 'DOT', amount: tinyAmount(f) } }), 'AmountTooLowError', '2 base units'],
  ['an Override asset below the minimum, in base units', () => ({ currency: { location: 'Override({"parents":1,"interior":"Here"})', amount: '1' }, abstractDecimals: false }), 'AmountTooLowError', '2 base units'],
  ['more fraction digits than the asset has decimals (DOT: 10)', () => ({ currency: { symbol: 'DOT', amount: '1.00000000001' }, abstractDecimals: true }), 'NumberFormatError', '10 decimals'],
  ['development mode without an override for the origin', () => ({ development: 'no overrides' }), 'MissingChainApiError', 'Hydration'],
];

describe.each(FAMILIES)('/%s: the same bad input gets the same answer from every transfer-shaped operation', (family) => {
  it.each(TRANSFER_CASES)('%s', async (_name, make, kind, says) => {
    const answers: string[] = [];
    for (const operation of TRANSFER_OPERATIONS) {
      const res = await send(family, operation, make(family));
      answers.push(`${operation}: ${res.status} ${res.body.kind}`);
      expectErrorBody(res.body, res.status);
      expect(res.body.message, operation).toContain(says);
    }
    expect(answers).toEqual(TRANSFER_OPERATIONS.map((o) => `${o}: 400 ${kind}`));
  });

  it('the valid twin of those inputs reaches the chains (503: every endpoint refuses)', async () => {
    for (const operation of TRANSFER_OPERATIONS) {
      const res = await send(family, operation, {});
      expect(`${operation}: ${res.status} ${res.body.kind}`).toBe(`${operation}: 503 ProviderUnavailableError`);
    }
  });

  it('a batch reports the failing transfer by its index', async () => {
    const res = await send(family, 'x-transfer-batch', { to: 'Kusama' });
    expect(res.body.details[0].path).toBe('body.transfers.0.to');
  });
});

// ---- swap-shaped operations: the router, /x-transfers, pre-flight with swapOptions ------------

interface SwapCase {
  from?: string;
  to?: string;
  exchange?: string;
  currencyFrom?: Record<string, unknown>;
  currencyTo?: Record<string, unknown>;
  amount?: string;
}

const ROUTER_OPERATIONS = ['router', 'router-hash', 'router/dry-run', 'router/xcm-fees', 'router/transferable-amount', 'router/min-transferable-amount', 'router/best-amount-out'];
const SWAP_PREFLIGHT = ['dry-run', 'xcm-fee', 'transferable-amount', 'min-transferable-amount', 'best-amount-out'];
const SWAP_OPERATIONS = [...ROUTER_OPERATIONS, 'x-transfers', ...SWAP_PREFLIGHT];

function sendSwap(family: Family, operation: string, c: SwapCase) {
  const route = { from: c.from ?? 'Polkadot', to: c.to ?? 'Astar' };
  const currencyFrom = c.currencyFrom ?? { symbol: 'DOT' };
  const currencyTo = c.currencyTo ?? { symbol: 'ASTR' };
  const amount = c.amount ?? (family === 'v5' ? '10000000000' : '1');
  const exchange = c.exchange ?? 'HydrationDex';
  // Development mode with every override: a request that got past the checks would dial (and fail with 503).
  const options = { development: true, apiOverrides: down };
  if (operation.startsWith('router')) {
    return request(app)
      .post(`/${family}/${operation}`)
      .send({ ...route, exchange, currencyFrom, currencyTo, amount, slippagePct: '1', recipientAddress: ALICE, senderAddress: BOB, options });
  }
  const [recipient, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
  return request(app)
    .post(`/${family}/${operation}`)
    .send({ ...route, currency: { ...currencyFrom, amount }, [recipient]: ALICE, [sender]: BOB, swapOptions: { currencyTo, exchange }, options });
}

const SWAP_CASES: [name: string, make: (family: Family) => SwapCase, kind: string, says: string][] = [
  ['a swap across ecosystems (Polkadot -> HydrationDex -> Karura)', () => ({ to: 'Karura', currencyTo: { symbol: 'KAR' } }), 'UnsupportedOperationError', 'from and to are not compatible'],
  ['a currency to receive that no registry knows', () => ({ currencyTo: { symbol: 'NOPE' } }), 'InvalidCurrencyError', 'NOPE'],
  ['a currency to send the origin does not have', () => ({ currencyFrom: { symbol: 'NOPE' } }), 'InvalidCurrencyError', 'NOPE'],
  ['an amount below the engine\'s minimum', (f) => ({ amount: tinyAmount(f) }), 'AmountTooLowError', '2 base units'],
];

describe.each(FAMILIES)('/%s: the same bad swap gets the same answer from every swap operation', (family) => {
  it.each(SWAP_CASES)('%s', async (_name, make, kind, says) => {
    const answers: string[] = [];
    for (const operation of SWAP_OPERATIONS) {
      const res = await sendSwap(family, operation, make(family));
      answers.push(`${operation}: ${res.status} ${res.body.kind}`);
      expect(res.body.message, operation).toContain(says);
    }
    expect(answers).toEqual(SWAP_OPERATIONS.map((o) => `${o}: 400 ${kind}`));
  });
});

// ---- messages point at the paths of the family the request came in on ------------------------

const PATH_CASES: [name: string, send: (family: Family) => request.Test, names: string][] = [
  ['a currency the origin does not have', (f) => send(f, 'x-transfer', { currency: { symbol: 'NOPE', amount: '1000' } }), 'GET /{family}/assets/Hydration lists them'],
  ['a location the origin\'s registry does not have', (f) => send(f, 'dry-run', { currency: { location: { parents: 1, interior: { X1: [{ Parachain: 4321 }] } }, amount: '1000' } }), 'POST /{family}/assets/Hydration/asset-info shows'],
  ['a currency the destination does not have', (f) => send(f, 'xcm-fee', { to: 'Astar', currency: { symbol: 'KILT', amount: '1000000000000000' } }), 'POST /{family}/assets/Hydration/supported-destinations lists'],
  ['a currency to receive that no registry knows', (f) => sendSwap(f, 'router', { currencyTo: { symbol: 'NOPE' } }), 'POST /{family}/router/pairs lists'],
  ['an unknown chain', (f) => send(f, 'x-transfer-batch', { from: 'Hydrat' }), 'GET /{family}/chains lists them all'],
];

describe.each(FAMILIES)('/%s: error messages name this family\'s paths', (family) => {
  const other = FAMILIES.find((f) => f !== family);
  it.each(PATH_CASES)('%s', async (_name, sendCase, names) => {
    const res = await sendCase(family).expect(400);
    const text = JSON.stringify(res.body);
    expect(text).toContain(names.replace('{family}', family));
    expect(text).not.toContain(`/${other}/`);
  });
});
