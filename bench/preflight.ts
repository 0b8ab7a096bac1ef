// Load test of POST /v5/balance/AssetHubPolkadot against the local test chain (empty storage, so
// every answer is "0"): measures the HTTP layer, validation, the connection pool and one SDK
// balance read per request. Run: npx tsc -p . && node dist/bench/preflight.js
import autocannon from 'autocannon';
import { loadConfig } from '../src/config';
import { start } from '../src/server';
import { refusedUrl, startBlackHole, startTestChain } from '../test/support/test-chain';

const CONNECTIONS = 20;
const WARMUP_S = 3;
const DURATION_S = 10;
const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

async function main(): Promise<void> {
  const chain = await startTestChain('AssetHubPolkadot');
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ALLOW_PRIVATE_OVERRIDES: 'true' });
  const running = await start(config);
  const body = JSON.stringify({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: chain.url } } });
  const load = (duration: number) =>
    autocannon({
      url: `${running.url}/v5/balance/AssetHubPolkadot`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      connections: CONNECTIONS,
      duration,
    });
  try {
    await load(WARMUP_S);
    const r = await load(DURATION_S);
    const rssMb = (process.memoryUsage().rss / 1024 / 1024).toFixed(0);
    console.log(`POST /v5/balance/AssetHubPolkadot, ${CONNECTIONS} connections, ${DURATION_S} s after a ${WARMUP_S} s warm-up`);
    console.log(`  req/s (mean)      ${r.requests.average.toFixed(0)}`);
    console.log(`  latency p50 / p99 ${r.latency.p50} ms / ${r.latency.p99} ms`);
    console.log(`  2xx / non-2xx     ${r['2xx']} / ${r.non2xx}   errors ${r.errors}   timeouts ${r.timeouts}`);
    console.log(`  test chain: connections opened ${chain.connectionsOpened}, open now ${chain.openConnections}`);
    console.log(`  RSS               ${rssMb} MB (server, chain and load generator share this process)`);
  } finally {
    await running.stop();
    await chain.close();
  }
  await timeToGiveUp();
}

/**
 * How long a request to an unreachable chain takes to become its 503 (the tests assert the status,
 * kind and closed sockets; the time is measured here): CONNECT_TIMEOUT_MS=1000.
 */
async function timeToGiveUp(): Promise<void> {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ALLOW_PRIVATE_OVERRIDES: 'true', CONNECT_TIMEOUT_MS: '1000' });
  const running = await start(config);
  const hole = await startBlackHole();
  try {
    console.log('POST /v5/balance/AssetHubPolkadot to an unreachable chain, CONNECT_TIMEOUT_MS=1000');
    for (const [name, url] of [['refused port', await refusedUrl()], ['black hole (accepts, never answers)', hole.url]] as const) {
      const started = performance.now();
      const res = await fetch(`${running.url}/v5/balance/AssetHubPolkadot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: url } } }),
      });
      await res.text();
      console.log(`  ${name.padEnd(36)} ${res.status} after ${(performance.now() - started).toFixed(0)} ms`);
    }
  } finally {
    await running.stop();
    await hole.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
