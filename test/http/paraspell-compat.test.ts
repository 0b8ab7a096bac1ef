import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { seedAsset, seedNative } from '../support/seed';
import { chainsForFile } from '../support/chains-for-file';
import { decodeCall } from '../support/test-chain';

// A client written for the ParaSpell XCM API changes its base URL and nothing else: what it sends
// and how it reads the answer work here too (docs/paraspell-api.md).
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const { app, services } = testApp();
const { chains, overrides } = chainsForFile(['Polkadot', 'AssetHubPolkadot'], services, {});

const transfer = (family: string) => ({
  from: 'Polkadot',
  to: 'AssetHubPolkadot',
  currency: { symbol: 'DOT', amount: family === 'v5' ? '10000000000' : '1' },
  [family === 'v5' ? 'address' : 'recipient']: ALICE,
  options: { apiOverrides: overrides },
});

describe.each(FAMILIES)('/%s answers read as text', (family) => {
  it('Accept: text/plain gets the bare hex of call data; JSON stays the default', async () => {
    const json = await request(app).post(`/${family}/x-transfer`).send(transfer(family)).expect(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.headers.vary).toMatch(/Accept\b/);
    const text = await request(app).post(`/${family}/x-transfer`).set('Accept', 'text/plain').send(transfer(family)).expect(200);
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.text).toBe(json.body);
    expect(text.text).toMatch(/^0x[0-9a-f]+$/);
    expect((await decodeCall(chains.Polkadot, text.text)).section).toBe('xcmPallet');
    // Any type, or JSON first, is JSON.
    for (const accept of ['*/*', 'application/json, text/plain', 'text/plain;q=0.5, application/json']) {
      const res = await request(app).post(`/${family}/x-transfer`).set('Accept', accept).send(transfer(family)).expect(200);
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
    }
  });

  it('an answer that is not one hex string, and every error, stay JSON', async () => {
    const error = await request(app).post(`/${family}/x-transfer`).set('Accept', 'text/plain').send({ ...transfer(family), to: 'Nowhere' }).expect(400);
    expect(error.headers['content-type']).toMatch(/^application\/json/);
    expectErrorBody(error.body, 400, 'UnknownChainError');
    const paths = await request(app).post(`/${family}/xcm-analyser`).set('Accept', 'text/plain').send({ location: { parents: 1, interior: 'Here' } }).expect(200);
    expect(paths.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('/v2 balance as the ParaSpell XCM API sends it', () => {
  const options = () => ({ apiOverrides: { AssetHubPolkadot: chains.AssetHubPolkadot.url } });

  it('takes address for recipient, and currency is optional (the native asset), as in /v5', async () => {
    seedNative(chains.AssetHubPolkadot, ALICE, 12_345_678_900n);
    seedAsset(chains.AssetHubPolkadot, 1984, ALICE, 777n);
    const native = await request(app).post('/v2/balance/AssetHubPolkadot').send({ address: ALICE, options: options() }).expect(200);
    expect(native.body).toBe((await request(app).post('/v5/balance/AssetHubPolkadot').send({ address: ALICE, options: options() }).expect(200)).body);
    expect(native.body).not.toBe('0');
    const usdt = await request(app).post('/v2/balance/AssetHubPolkadot').send({ address: ALICE, currency: { id: 1984 }, options: options() }).expect(200);
    expect(usdt.body).toBe('777');
    const same = await request(app).post('/v2/balance/AssetHubPolkadot').send({ recipient: ALICE, address: ALICE, currency: { id: 1984 }, options: options() }).expect(200);
    expect(same.body).toBe('777');
  });

  it('refuses both names with different accounts, and neither', async () => {
    const both = await request(app).post('/v2/balance/AssetHubPolkadot').send({ recipient: ALICE, address: '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3', options: options() }).expect(400);
    expectErrorBody(both.body, 400, 'ValidationError');
    expect(both.body.details[0].path).toBe('body.address');
    const none = await request(app).post('/v2/balance/AssetHubPolkadot').send({ options: options() }).expect(400);
    expectErrorBody(none.body, 400, 'MissingParameterError');
    expect(none.body.details[0].path).toBe('body.recipient');
  });
});
