import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors';
import { batchBody } from '../../src/schemas/batch';
import { currencyBody, assetInfoBody, paraIdQuery } from '../../src/schemas/lookups';
import { parseInput } from '../../src/schemas/parse';
import { transferBody } from '../../src/schemas/transfer';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';

function parseError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('transfer bodies: both families become one internal model', () => {
  const common = { from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '1000000' }, feeAsset: { symbol: 'DOT' }, xcmVersion: 'V4' };
  const v5 = parseInput(transferBody('v5', { senderRequired: false }), { ...common, address: ALICE, senderAddress: BOB, options: { abstractDecimals: false } }, 'body');
  const v2 = parseInput(transferBody('v2', { senderRequired: false }), { ...common, recipient: ALICE, sender: BOB, options: { abstractDecimals: false } }, 'body');

  it('maps address/recipient and senderAddress/sender to the same fields', () => {
    expect(v5.recipient).toBe(ALICE);
    expect(v5.sender).toBe(BOB);
    expect(v2).toEqual(v5);
  });

  it('keeps everything else as given, in SDK form', () => {
    expect(v5).toMatchObject({
      from: 'AssetHubPolkadot',
      to: 'Hydration',
      currency: { id: 1984, amount: '1000000' },
      feeAsset: { symbol: 'DOT' },
      xcmVersion: 'V4',
      options: { development: false, abstractDecimals: false, xcmFormatCheck: false, apiOverrides: {} },
    });
  });

  it('abstractDecimals is on by default in /v2 and off in /v5', () => {
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1.5' } };
    expect(parseInput(transferBody('v2', { senderRequired: false }), { ...body, recipient: ALICE }, 'body').options.abstractDecimals).toBe(true);
    const err = parseError(() => parseInput(transferBody('v5', { senderRequired: false }), { ...body, address: ALICE }, 'body'));
    expect(err.kind).toBe('NumberFormatError');
    expect(err.details).toEqual([{ path: 'body.currency.amount', message: 'must be a whole number of base units (or turn on options.abstractDecimals)' }]);
  });

  it('maps transact/transactOptions, with the originKind default', () => {
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' } };
    const t5 = parseInput(transferBody('v5', { senderRequired: false }), { ...body, address: ALICE, senderAddress: ALICE, transact: { hex: '0x0102' } }, 'body');
    const t2 = parseInput(transferBody('v2', { senderRequired: false }), { ...body, recipient: ALICE, sender: ALICE, transactOptions: { hex: '0x0102' } }, 'body');
    expect(t5.transact).toEqual({ hex: '0x0102', originKind: 'SovereignAccount' });
    expect(t2.transact).toEqual(t5.transact);
  });

  it('names the field with the family\'s own name when it is missing', () => {
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' } };
    expect(parseError(() => parseInput(transferBody('v5', { senderRequired: true }), body, 'body')).details).toEqual([
      { path: 'body.address', message: 'is required' },
      { path: 'body.senderAddress', message: 'is required' },
    ]);
    expect(parseError(() => parseInput(transferBody('v2', { senderRequired: true }), body, 'body')).details).toEqual([
      { path: 'body.recipient', message: 'is required' },
      { path: 'body.sender', message: 'is required' },
    ]);
  });

  it('rejects the other family\'s field names', () => {
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' } };
    const err = parseError(() => parseInput(transferBody('v5', { senderRequired: false }), { ...body, recipient: ALICE }, 'body'));
    expect(err.details).toContainEqual({ path: 'body', message: 'has unknown field(s): recipient' });
  });

  it('normalises currency forms: big ids, location strings, Override(...), amounts as strings', () => {
    const schema = transferBody('v5', { senderRequired: false });
    const base = { from: 'Polkadot', to: 'AssetHubPolkadot', address: ALICE };
    expect(parseInput(schema, { ...base, currency: { id: '340282366920938463463374607431768211455n', amount: 5 } }, 'body').currency).toEqual({
      id: 340282366920938463463374607431768211455n,
      amount: '5',
    });
    expect(parseInput(schema, { ...base, currency: { location: '{"parents":1,"interior":{"Here":null}}', amount: '1' } }, 'body').currency).toEqual({
      location: { parents: 1, interior: { Here: null } },
      amount: '1',
    });
    expect(parseInput(schema, { ...base, currency: { location: 'Override({"parents":0,"interior":"Here"})', amount: 'ALL' } }, 'body').currency).toEqual({
      location: { type: 'Override', value: { parents: 0, interior: 'Here' } },
      amount: 'ALL',
    });
    const fromNumber = parseInput(schema, { ...base, currency: { symbol: { type: 'ForeignAbstract', value: 'USDT1' }, amount: 1e15 } }, 'body');
    expect(fromNumber.currency).toEqual({ symbol: { type: 'ForeignAbstract', value: 'USDT1' }, amount: '1000000000000000' });
  });

  it('turns apiOverrides strings into lists of URLs', () => {
    const parsed = parseInput(
      transferBody('v2', { senderRequired: false }),
      { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, recipient: ALICE, options: { apiOverrides: { Polkadot: 'wss://a.example', AssetHubPolkadot: ['wss://b.example', 'wss://c.example'] } } },
      'body',
    );
    expect(parsed.options.apiOverrides).toEqual({ Polkadot: ['wss://a.example'], AssetHubPolkadot: ['wss://b.example', 'wss://c.example'] });
  });
});

describe('batch bodies', () => {
  it('share the batch options with every transfer and default the mode to BATCH_ALL', () => {
    const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1.5' } };
    const v2 = parseInput(batchBody('v2'), { transfers: [{ ...transfer, recipient: ALICE }] }, 'body');
    expect(v2.options.mode).toBe('BATCH_ALL');
    expect(v2.transfers[0].options.abstractDecimals).toBe(true);
    const v5 = parseInput(batchBody('v5'), { transfers: [{ ...transfer, address: ALICE }], options: { abstractDecimals: true, mode: 'BATCH' } }, 'body');
    expect(v5.options.mode).toBe('BATCH');
    expect(v5.transfers[0].recipient).toBe(ALICE);
    expect(v5.transfers[0].currency).toEqual(v2.transfers[0].currency);
  });
});

describe('lookup bodies and queries', () => {
  it('accept a selector with an optional whole amount, never ALL', () => {
    expect(parseInput(currencyBody, { currency: { symbol: 'DOT', amount: 10 } }, 'body')).toEqual({ currency: { symbol: 'DOT' } });
    expect(parseError(() => parseInput(currencyBody, { currency: { symbol: 'DOT', amount: 'ALL' } }, 'body')).details?.[0].path).toBe('body.currency.amount');
  });

  it('asset-info destination defaults to null and must be a chain', () => {
    expect(parseInput(assetInfoBody, { currency: { id: '5' } }, 'body')).toEqual({ currency: { id: '5' }, destination: null });
    expect(parseError(() => parseInput(assetInfoBody, { currency: { id: '5' }, destination: 'Mars' }, 'body')).kind).toBe('UnknownChainError');
  });

  it('the ecosystem of a para id lookup defaults to Polkadot', () => {
    expect(parseInput(paraIdQuery, {}, 'query')).toEqual({ ecosystem: 'Polkadot' });
    expect(parseInput(paraIdQuery, { ecosystem: 'Ethereum' }, 'query')).toEqual({ ecosystem: 'Ethereum' });
  });
});
