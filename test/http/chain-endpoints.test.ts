// CHAIN_ENDPOINTS: the operator's endpoints stand in for the registry's, so requests that name no
// endpoint reach them (what the sandbox relies on). They may be loopback addresses although
// callers' overrides may not (ALLOW_PRIVATE_OVERRIDES off).
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody, testApp } from '../helpers/app';
import { decodeCall, startTestChain, type TestChain } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
let relay: TestChain;
let assetHub: TestChain;
let local: ReturnType<typeof testApp>;

beforeAll(async () => {
  [relay, assetHub] = await Promise.all([startTestChain('Polkadot', { partialFee: 1_000_000n }), startTestChain('AssetHubPolkadot', { partialFee: 1_000_000n })]);
  local = testApp({ ALLOW_PRIVATE_OVERRIDES: 'false', CHAIN_ENDPOINTS: JSON.stringify({ Polkadot: relay.url, AssetHubPolkadot: [assetHub.url] }) });
});

afterAll(async () => {
  await local.services.close();
  await Promise.all([relay.close(), assetHub.close()]);
});

const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE };

describe('CHAIN_ENDPOINTS', () => {
  it('a request with no endpoint of its own is served by the operator\'s loopback nodes', async () => {
    const res = await request(local.app).post('/v5/x-transfer').send(transfer);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await decodeCall(relay, res.body as string)).toMatchObject({ section: 'xcmPallet' });
    expect(relay.connectionsOpened).toBeGreaterThan(0);
    // /status shows the operator's endpoint as it shows the registry's (callers' URLs are hidden).
    const status = await request(local.app).get('/status').expect(200);
    expect(status.body.chains.Polkadot).toMatchObject({ connected: true, endpoint: relay.url });
  });

  it('a caller may still not name the same loopback address', async () => {
    const res = await request(local.app)
      .post('/v5/x-transfer')
      .send({ ...transfer, options: { apiOverrides: { Polkadot: relay.url } } });
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(res.body.details[0].path).toBe('body.options.apiOverrides.Polkadot');
  });
});

describe('CHAIN_ENDPOINTS are the shared registry', () => {
  it('6 distinct clients are all served over one connection per chain, and a client naming the operator\'s endpoint shares it too', async () => {
    const [ownRelay, ownAssetHub] = await Promise.all([startTestChain('Polkadot', { partialFee: 1_000_000n }), startTestChain('AssetHubPolkadot', { partialFee: 1_000_000n })]);
    const operator = testApp({ TRUST_PROXY: 'loopback', CHAIN_ENDPOINTS: JSON.stringify({ Polkadot: ownRelay.url, AssetHubPolkadot: ownAssetHub.url }) });
    try {
      for (let i = 1; i <= 6; i++) {
        const res = await request(operator.app).post('/v5/x-transfer').set('X-Forwarded-For', `203.0.113.${i}`).send(transfer);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      // Private overrides allowed (the test default): the same endpoint named is the same connection.
      const named = await request(operator.app)
        .post('/v5/x-transfer')
        .set('X-Forwarded-For', '203.0.113.7')
        .send({ ...transfer, options: { apiOverrides: { Polkadot: ownRelay.url } } });
      expect(named.status, JSON.stringify(named.body)).toBe(200);
      expect(ownRelay.connectionsOpened).toBe(1);
      expect(ownAssetHub.connectionsOpened).toBeLessThanOrEqual(1);
      expect(operator.services.pool.size).toBe(ownRelay.openConnections + ownAssetHub.openConnections);
    } finally {
      await operator.services.close();
      await Promise.all([ownRelay.close(), ownAssetHub.close()]);
    }
  });
});
