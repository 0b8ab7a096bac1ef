// Transfer building over the pool: the cold first build, then warm builds with 1 and 20
// connections for 10 s each, against the local test chain (real metadata, loopback).
import { startTestChain } from '../test/support/test-chain';
import { load, row, startService } from './harness';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

async function main(): Promise<void> {
  const chain = await startTestChain('Polkadot');
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  const body = {
    from: 'Polkadot',
    to: 'AssetHubPolkadot',
    currency: { symbol: 'DOT', amount: '10000000000' },
    address: ALICE,
    options: { development: true, apiOverrides: { Polkadot: chain.url } },
  };
  const url = `${service.url}/v5/x-transfer`;
  console.log(`idle RSS: ${service.rssMb()} MB`);

  const started = process.hrtime.bigint();
  const cold = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const coldMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (!cold.ok) throw new Error(`cold build failed: ${cold.status} ${await cold.text()}`);
  console.log(`cold first build (connect + metadata + build): ${coldMs.toFixed(0)} ms`);

  for (const connections of [1, 20]) {
    await load({ url, method: 'POST', body, connections, seconds: 3 });
    console.log(row(`POST /v5/x-transfer, ${connections} connection(s)`, await load({ url, method: 'POST', body, connections, seconds: 10 })));
  }
  console.log(`connections opened at the test chain: ${chain.connectionsOpened}`);
  console.log(`RSS after load: ${service.rssMb()} MB`);
  await service.stop();
  await chain.close();
}

void main();
