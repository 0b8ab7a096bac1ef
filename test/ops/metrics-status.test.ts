import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyConnectFailure } from '../../src/ops/chain-activity';
import { testApp } from '../helpers/app';
import { refusedUrl, startBlackHole, startTestChain, type BlackHole, type TestChain } from '../support/test-chain';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const { app, services } = testApp();
// Its own app: a deadline short enough for a black hole to overrun it.
const short = testApp({ REQUEST_TIMEOUT_MS: '300', CONNECT_TIMEOUT_MS: '60000' });
let polkadot: TestChain;
let blackHole: BlackHole;

const transfer = (from: string, url: string, target = app) =>
  request(target)
    .post('/v5/x-transfer')
    .send({
      from,
      to: from === 'Polkadot' ? 'AssetHubPolkadot' : 'AssetHubKusama',
      currency: { symbol: from === 'Polkadot' ? 'DOT' : 'KSM', amount: '10000000000' },
      address: ALICE,
      options: { development: true, apiOverrides: { [from]: url } },
    });

/** The value of one sample line of the Prometheus text, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  polkadot = await startTestChain('Polkadot');
  blackHole = await startBlackHole();
  await transfer('Polkadot', polkadot.url).expect(200);
  await transfer('Polkadot', polkadot.url).expect(200);
  await transfer('Kusama', await refusedUrl()).expect(503);
  await transfer('Kusama', blackHole.url, short.app).expect(504);
  await request(app).get('/v2/assets/Polkadot').expect(200);
  await request(app).get('/v2/no/such/route/12345').expect(404);
});

afterAll(async () => {
  await services.close();
  await short.services.close();
  await polkadot?.close();
  await blackHole?.close();
});

describe('GET /metrics', () => {
  it('counts requests by route template, never by raw path', async () => {
    const text = (await request(app).get('/metrics').expect(200)).text;
    expect(sample(text, 'xcm_gateway_http_requests_total{route="/v5/x-transfer",method="POST",status="200"}')).toBe(2);
    expect(sample(text, 'xcm_gateway_http_requests_total{route="/v5/x-transfer",method="POST",status="503"}')).toBe(1);
    expect(sample(text, 'xcm_gateway_http_requests_total{route="/v2/assets/:chain",method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'xcm_gateway_http_requests_total{route="(unmatched)",method="GET",status="404"}')).toBe(1);
    expect(sample(text, 'xcm_gateway_http_request_duration_seconds_count{route="/v5/x-transfer",method="POST",status="200"}')).toBe(2);
    expect(text).not.toContain('/v2/assets/Polkadot');
    expect(text).not.toContain('12345');
  });

  it('shows the pool, connect attempts and failures by reason, and deadline hits', async () => {
    const text = (await request(app).get('/metrics')).text;
    expect(sample(text, 'xcm_gateway_chain_connections{chain="Polkadot",state="open"}')).toBe(1);
    expect(sample(text, 'xcm_gateway_chain_connections{chain="Polkadot",state="idle"}')).toBe(1);
    expect(sample(text, 'xcm_gateway_chain_connect_attempts_total{chain="Polkadot"}')).toBe(1);
    expect(sample(text, 'xcm_gateway_chain_connect_failures_total{chain="Kusama",reason="refused"}')).toBe(1);
  });

  it('counts deadline hits by route, and shows a connect still under way', async () => {
    const text = (await request(short.app).get('/metrics')).text;
    expect(sample(text, 'xcm_gateway_deadline_exceeded_total{route="/v5/x-transfer"}')).toBe(1);
    expect(sample(text, 'xcm_gateway_http_requests_total{route="/v5/x-transfer",method="POST",status="504"}')).toBe(1);
    expect(sample(text, 'xcm_gateway_chain_connections{chain="Kusama",state="connecting"}')).toBe(1);
  });

  it('shows the cache, the router engine, the counter store and the process', async () => {
    const text = (await request(app).get('/metrics')).text;
    expect(sample(text, 'xcm_gateway_response_cache_entries')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'xcm_gateway_response_cache_bytes')).toBeGreaterThan(100);
    expect(sample(text, 'xcm_gateway_router_engine_loaded')).toBe(0);
    expect(sample(text, 'xcm_gateway_rate_limit_counter_store{state="local"}')).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(1e6);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('GET /status', () => {
  it('reports version, runtime, uptime, chains, Redis and the cache, and no override URL', async () => {
    const res = await request(app).get('/status').expect(200);
    expect(res.body).toMatchObject({
      service: 'xcm-gateway',
      mode: 'live',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      runtime: `Node.js ${process.version}`,
      uptimeSeconds: expect.any(Number),
      ready: true,
      redis: 'not configured',
      rateLimits: { perMinute: 0, chainPerMinute: 0, apiKeys: 0, counters: 'local' },
      cache: { entries: expect.any(Number), bytes: expect.any(Number) },
      router: { loaded: false },
    });
    expect(res.body.chains.Polkadot).toMatchObject({
      connected: true,
      connectedSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      endpoint: 'override',
      connections: { open: 1, connecting: 0 },
      requestsServed: 2,
      connectAttempts: 1,
      lastFailure: null,
    });
    // Kusama never connected: its request was refused, not served.
    expect(res.body.chains.Kusama).toMatchObject({ connected: false, connectedSince: null, endpoint: null, requestsServed: 0, connectAttempts: 1, lastFailure: { reason: 'refused', at: expect.any(String) } });
    expect(res.text).not.toContain('127.0.0.1');
    for (const url of [polkadot.url, blackHole.url]) expect(res.text).not.toContain(String(new URL(url).port));
  });
});

describe('connect failure reasons', () => {
  it.each([
    [new Error('Chain X is unreachable: no ready answer within 500 ms (endpoints tried: a)'), 'timeout'],
    [new Error('Chain X is unreachable: socket error: connect ECONNREFUSED 127.0.0.1:1'), 'refused'],
    [new Error('getaddrinfo ENOTFOUND rpc.example'), 'dns'],
    [new Error('Chain X is unreachable: connection closed before the API was ready'), 'closed'],
    [new Error('Chain X is unreachable: the connection pool is closed'), 'cancelled'],
    [new Error('something else'), 'other'],
  ])('%s -> %s', (error, reason) => {
    expect(classifyConnectFailure(error)).toBe(reason);
  });
});
