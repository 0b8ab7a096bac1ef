// RFC-0078 metadata hashes against local test chains (real metadata, loopback): the first call on a
// chain (connect, fetch metadata v15, merkleize), the first call on a chain already connected
// (fetch and merkleize only), then warm calls (one runtime-version read per answer) next to a
// baseline the bench runs itself: a balance read, one chain read per answer too. Also what
// `options.metadataHash` adds to a transfer build, and the memory a merkleized runtime holds.
import { startTestChain, type TestChain } from '../test/support/test-chain';
import { SECONDS, load, row, startService, type LoadResult, type Service } from './harness';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

const optionsFor = (chain: TestChain) => ({ development: true, apiOverrides: { [chain.chain]: chain.url } });

async function timedPost(service: Service, path: string, body: unknown): Promise<{ ms: number; cpuMs: number }> {
  const cpuBefore = service.cpuMs();
  const started = process.hrtime.bigint();
  const res = await fetch(service.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return { ms, cpuMs: service.cpuMs() - cpuBefore };
}

const settle = () => new Promise((r) => setTimeout(r, 1_500));

async function measured(service: Service, path: string, body: unknown, connections: number): Promise<LoadResult> {
  await load({ url: service.url + path, method: 'POST', body, connections, seconds: 2 });
  return load({ url: service.url + path, method: 'POST', body, connections, seconds: SECONDS, server: service });
}

async function main(): Promise<void> {
  const [polkadot, assetHub, hydration] = await Promise.all([startTestChain('Polkadot'), startTestChain('AssetHubPolkadot'), startTestChain('Hydration')]);
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  console.log(`Node.js ${process.version}`);
  try {
    await settle();
    const idleRss = service.rssMb();
    for (const chain of [polkadot, assetHub, hydration]) {
      const cold = await timedPost(service, '/v5/metadata-hash', { chain: chain.chain, options: optionsFor(chain) });
      console.log(`first call, ${chain.chain.padEnd(16)} (connect + metadata v15 + merkleize): ${cold.ms.toFixed(0)} ms, ${cold.cpuMs} ms of service CPU`);
    }
    await settle();
    console.log(`RSS: ${idleRss} MB idle, ${service.rssMb()} MB with 3 chains connected and merkleized`);

    // The merkleization alone: a fresh service, the chain connected first by a balance read.
    const fresh = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
    try {
      for (const chain of [polkadot, hydration]) {
        await timedPost(fresh, `/v5/balance/${chain.chain}`, { address: ALICE, options: optionsFor(chain) });
        const first = await timedPost(fresh, '/v5/metadata-hash', { chain: chain.chain, options: optionsFor(chain) });
        console.log(`first call, ${chain.chain.padEnd(16)} already connected (metadata v15 + merkleize): ${first.ms.toFixed(0)} ms, ${first.cpuMs} ms of service CPU`);
      }
    } finally {
      await fresh.stop();
    }

    const hashBody = { chain: 'Polkadot', options: optionsFor(polkadot) };
    const balanceBody = { address: ALICE, options: optionsFor(polkadot) };
    for (const connections of [1, 20]) {
      const hash = await measured(service, '/v5/metadata-hash', hashBody, connections);
      const balance = await measured(service, '/v5/balance/Polkadot', balanceBody, connections);
      console.log(row(`warm POST /v5/metadata-hash, ${connections} conn.`, hash));
      console.log(row(`baseline POST /v5/balance/Polkadot, ${connections} conn.`, balance));
      console.log(`  metadata-hash / balance: ${(hash.reqPerSec / balance.reqPerSec).toFixed(2)} (req/s), ${((hash.cpuUsPerReq ?? 0) / (balance.cpuUsPerReq ?? 1)).toFixed(2)} (CPU per answer)`);
    }

    const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, options: optionsFor(polkadot) };
    const plain = await measured(service, '/v5/x-transfer', transfer, 20);
    const signable = await measured(service, '/v5/x-transfer', { ...transfer, options: { ...transfer.options, metadataHash: true } }, 20);
    console.log(row('POST /v5/x-transfer, 20 conn.', plain));
    console.log(row('POST /v5/x-transfer + metadataHash, 20 conn.', signable));
    console.log(`  with / without metadataHash: ${(signable.reqPerSec / plain.reqPerSec).toFixed(2)} (req/s), ${((signable.cpuUsPerReq ?? 0) / (plain.cpuUsPerReq ?? 1)).toFixed(2)} (CPU per answer)`);
    console.log(`connections opened at the Polkadot test chain: ${polkadot.connectionsOpened}`);
  } finally {
    await service.stop();
    await Promise.all([polkadot, assetHub, hydration].map((c) => c.close()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
