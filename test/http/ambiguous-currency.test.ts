// A currency selector that names several assets: every operation answers 400 AmbiguousAssetError
// naming the field and listing candidates, each with a `currency` that this same operation takes;
// sent back, it meets no ambiguity. Through the real SDK (and the real router) over the local
// test chains; nothing is stubbed.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { sdk } from '../../src/sdk';
import { fromSdkError } from '../../src/service/sdk-calls';
import { ApiError } from '../../src/errors';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { type TestChainName } from '../support/test-chain';
import { chainsForFile } from '../support/chains-for-file';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const NAMES: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration'];
const { app, services } = testApp();
const { overrides } = chainsForFile(NAMES, services);

interface Candidate {
  currency: Record<string, unknown>;
  symbol: string;
  decimals?: number;
  location?: unknown;
  assetId?: string;
  alias?: string;
  isNative: boolean;
  issuedOn?: string;
}

const options = () => ({ development: true, apiOverrides: overrides });
const post = (path: string, body: unknown) => request(app).post(path).send(body as object);

/** The 400 a user meets: the kind, the field, the candidates, and words rather than SDK syntax. */
function expectAmbiguity(res: request.Response, path: string): Candidate[] {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expectErrorBody(res.body, 400, 'AmbiguousAssetError');
  expect(res.body.details).toEqual([{ path, message: expect.any(String) }]);
  const text = JSON.stringify(res.body);
  expect(text).not.toContain('undefined');
  expect(res.body.message).not.toMatch(/ForeignAbstract\(|Native\(|Foreign\(|Override\(/);
  expect(res.body.message).toContain(path.replace(/^body\./, '').replace(/^transfers\.\d+\./, ''));
  const candidates = res.body.candidates as Candidate[];
  expect(candidates.length).toBeGreaterThanOrEqual(2);
  for (const c of candidates) {
    expect(c).toMatchObject({ currency: expect.any(Object), symbol: expect.any(String), isNative: expect.any(Boolean) });
    expect(res.body.message).toContain(c.symbol);
  }
  return candidates;
}

/** Re-sent with a candidate's currency, the answer is anything but an ambiguity. */
function expectNoAmbiguity(res: request.Response, candidate: Candidate): void {
  expect(res.body?.kind, `${JSON.stringify(candidate.currency)}: ${JSON.stringify(res.body)}`).not.toBe('AmbiguousAssetError');
  expect(JSON.stringify(res.body)).not.toMatch(/several assets|Multiple .*found/);
}

const byId = (candidates: Candidate[], id: string) => candidates.find((c) => c.assetId === id);

describe.each(FAMILIES)('/%s: a currency that names several assets', (family) => {
  const v = `/${family}`;
  const [recipient, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
  // /v2 takes whole-asset amounts by default (abstractDecimals), /v5 base units.
  const amount = family === 'v5' ? '5000000' : '5';

  it("the message also carries the SDK's words for the ambiguity (a ParaSpell client matches on them)", async () => {
    const body = { from: 'AssetHubPolkadot', to: 'Hydration', [recipient]: ALICE, [sender]: ALICE, options: options() };
    const dot = await post(`${v}/x-transfer`, { ...body, currency: { symbol: 'DOT', amount } });
    expectAmbiguity(dot, 'body.currency');
    expect(dot.body.message).toMatch(/^Multiple matches found for symbol DOT\. /);
    const usdt = await post(`${v}/x-transfer`, { ...body, currency: { symbol: 'USDT', amount } });
    expect(usdt.body.message).toMatch(/^Multiple foreign assets found for symbol USDT\. /);
  });

  it('x-transfer AssetHubPolkadot -> Hydration of USDT: the candidates, each of which builds', async () => {
    const body = { from: 'AssetHubPolkadot', to: 'Hydration', [recipient]: ALICE, [sender]: ALICE, options: options() };
    const res = await post(`${v}/x-transfer`, { ...body, currency: { symbol: 'USDT', amount } });
    const candidates = expectAmbiguity(res, 'body.currency');
    expect(res.body.message).toContain('AssetHubPolkadot');
    // Tether's own USDt (id 1984) differs only in case: it is offered, by id, issued on the asset hub.
    expect(byId(candidates, '1984')).toMatchObject({ symbol: 'USDt', decimals: 6, currency: { id: '1984' }, isNative: false, issuedOn: 'AssetHubPolkadot' });
    // The Snowbridge USDT, by its alias (a selector the transfer family takes).
    const bridged = candidates.find((c) => c.issuedOn === 'Ethereum');
    expect(bridged).toMatchObject({ symbol: 'USDT', alias: 'USDT2', currency: { symbol: { type: 'ForeignAbstract', value: 'USDT2' } } });
    // USDT1 (id 202406) is no way out: Hydration holds nothing at its location and three USDTs.
    expect(byId(candidates, '202406')).toBeUndefined();
    for (const c of candidates) {
      const again = await post(`${v}/x-transfer`, { ...body, currency: { ...c.currency, amount } });
      expectNoAmbiguity(again, c);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatch(/^0x[0-9a-f]+$/);
    }
  });

  it('a batch item names its place: body.transfers.<i>.currency, with the same candidates', async () => {
    const transfer = { from: 'AssetHubPolkadot', to: 'Hydration', [recipient]: ALICE };
    const res = await post(`${v}/x-transfer-batch`, { transfers: [{ ...transfer, currency: { id: '1984', amount } }, { ...transfer, currency: { symbol: 'USDT', amount } }], options: options() });
    const candidates = expectAmbiguity(res, 'body.transfers.1.currency');
    expect(candidates.map((c) => c.currency)).toEqual([{ symbol: { type: 'ForeignAbstract', value: 'USDT2' } }, { id: '1984' }]);
  });

  it('a multi-asset transfer names the item: body.currency.<i>', async () => {
    const body = { from: 'AssetHubPolkadot', to: 'Hydration', [recipient]: ALICE, feeAsset: { id: '1984' }, options: options() };
    const res = await post(`${v}/x-transfer`, { ...body, currency: [{ id: '1984', amount }, { symbol: 'USDT', amount }] });
    const candidates = expectAmbiguity(res, 'body.currency.1');
    for (const c of candidates) expectNoAmbiguity(await post(`${v}/x-transfer`, { ...body, currency: [{ id: '1984', amount }, { ...c.currency, amount }] }), c);
  });

  it('asset-info {"symbol":"USDT"} on AssetHubPolkadot: each candidate answers its asset', async () => {
    const res = await post(`${v}/assets/AssetHubPolkadot/asset-info`, { currency: { symbol: 'USDT' } });
    const candidates = expectAmbiguity(res, 'body.currency');
    expect(byId(candidates, '202406')).toMatchObject({ alias: 'USDT1', decimals: 16, currency: { symbol: { type: 'ForeignAbstract', value: 'USDT1' } } });
    for (const c of candidates) {
      const again = await post(`${v}/assets/AssetHubPolkadot/asset-info`, { currency: c.currency });
      expectNoAmbiguity(again, c);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ symbol: c.symbol, location: c.location, ...(c.alias === undefined ? {} : { alias: c.alias }) });
    }
    // The other asset lookups refuse it the same way.
    for (const lookup of ['location', 'reserve-chain', 'existential-deposit', 'supported-destinations']) {
      const path = lookup === 'existential-deposit' ? `${v}/balance/AssetHubPolkadot/existential-deposit` : `${v}/assets/AssetHubPolkadot/${lookup}`;
      expectAmbiguity(await post(path, { currency: { symbol: 'USDT' } }), 'body.currency');
    }
  });

  it('GET /assets/:chain shows the alias of each foreign-abstract asset, the choice before the request', async () => {
    const res = await request(app).get(`${v}/assets/AssetHubPolkadot`).expect(200);
    const usdt = (res.body.assets as Candidate[]).filter((a) => a.symbol === 'USDT');
    expect(usdt.map((a) => a.alias).sort()).toEqual(['USDT1', 'USDT2']);
  });

  it('a swap to USDT via HydrationDex (POST /x-transfers): candidates by id, which the router takes', async () => {
    const body = {
      from: 'Polkadot',
      to: 'Hydration',
      currency: { symbol: 'DOT', amount: family === 'v5' ? '50000000000' : '5' },
      [recipient]: ALICE,
      [sender]: ALICE,
      options: options(),
    };
    const res = await post(`${v}/x-transfers`, { ...body, swapOptions: { currencyTo: { symbol: 'USDT' }, exchange: 'HydrationDex' } });
    const candidates = expectAmbiguity(res, 'body.swapOptions.currencyTo');
    expect(res.body.message).toContain('HydrationDex');
    expect(candidates.map((c) => c.currency)).toEqual([{ id: '10' }, { id: '23' }, { id: '1000767' }]);
    expect(byId(candidates, '10')).toMatchObject({ symbol: 'USDT', issuedOn: 'AssetHubPolkadot' });
    expect(byId(candidates, '23')).toMatchObject({ issuedOn: 'Moonbeam' });
    expect(byId(candidates, '1000767')).toMatchObject({ issuedOn: 'Ethereum' });
    // No alias: the router takes no ForeignAbstract selector.
    expect(candidates.every((c) => c.alias === undefined)).toBe(true);
    for (const c of candidates) {
      // The router goes on to the exchange (which the local chain cannot run): not an ambiguity.
      expectNoAmbiguity(await post(`${v}/x-transfers`, { ...body, swapOptions: { currencyTo: c.currency, exchange: 'HydrationDex' } }), c);
    }
  });

  it('router currencyTo USDT: one chosen exchange takes ids, automatic selection locations', async () => {
    const body = {
      from: 'Polkadot',
      to: 'Hydration',
      currencyFrom: { symbol: 'DOT' },
      amount: '50000000000',
      slippagePct: '1',
      recipientAddress: ALICE,
      senderAddress: ALICE,
      options: { ...options(), abstractDecimals: false },
    };
    const manual = await post(`${v}/router`, { ...body, exchange: 'HydrationDex', currencyTo: { symbol: 'USDT' } });
    const ids = expectAmbiguity(manual, 'body.currencyTo');
    expect(ids.every((c) => 'id' in c.currency)).toBe(true);
    for (const c of ids) expectNoAmbiguity(await post(`${v}/router`, { ...body, exchange: 'HydrationDex', currencyTo: c.currency }), c);

    // Automatic selection: the router refuses ids and any symbol an exchange it tries holds twice.
    const automatic = await post(`${v}/router`, { ...body, options: { abstractDecimals: false }, currencyTo: { symbol: 'USDT' } });
    const locations = expectAmbiguity(automatic, 'body.currencyTo');
    expect(locations.every((c) => 'location' in c.currency)).toBe(true);
    expect(locations.map((c) => c.issuedOn)).toEqual(expect.arrayContaining(['AssetHubPolkadot', 'Ethereum']));
    for (const c of locations) {
      // Development mode stops the request after the currency checks, before anything is dialled.
      const again = await post(`${v}/router`, { ...body, currencyTo: c.currency });
      expectNoAmbiguity(again, c);
      expectErrorBody(again.body, 400, 'UnsupportedOperationError');
    }
  });

  it('a pre-flight whose asset the destination cannot tell apart: candidates that it can', async () => {
    const body = { from: 'AssetHubPolkadot', to: 'Hydration', [recipient]: ALICE, [sender]: ALICE, options: options() };
    // USDT1 is one asset of the asset hub, but Hydration holds nothing at its location and three USDTs.
    const res = await post(`${v}/dry-run`, { ...body, currency: { symbol: { type: 'ForeignAbstract', value: 'USDT1' }, amount } });
    const candidates = expectAmbiguity(res, 'body.currency');
    expect(res.body.message).toContain('Hydration');
    expect(candidates.map((c) => c.assetId ?? c.alias).sort()).toEqual(['1984', 'USDT2']);
    for (const c of candidates) expectNoAmbiguity(await post(`${v}/dry-run`, { ...body, currency: { ...c.currency, amount } }), c);
  });
});

describe("the SDK's duplicate-asset errors that reach the service", () => {
  it('are AmbiguousAssetError, said in words', () => {
    const duplicate = new sdk.DuplicateAssetError(
      'Multiple foreign assets found for symbol USDT. Please specify with ForeignAbstract() selector. Available aliases: undefined (ID:10), undefined (ID:23)',
    );
    const mapped = fromSdkError(duplicate);
    expect(mapped).toBeInstanceOf(ApiError);
    expect(mapped).toMatchObject({ status: 400, kind: 'AmbiguousAssetError' });
    // The SDK's first sentence stays (a ParaSpell client matches on it), the rest in words.
    expect((mapped as ApiError).message).toBe(
      'Multiple foreign assets found for symbol USDT. The symbol USDT names several assets: select the one you mean by its location, id or alias (GET /assets/<chain> lists them)',
    );
    expect(fromSdkError(new sdk.DuplicateAssetIdError('7'))).toMatchObject({ kind: 'AmbiguousAssetError', message: expect.stringMatching(/^Multiple assets found with the same ID: 7\. The id 7 names several assets/) });
  });
});
