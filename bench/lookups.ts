// Lookup throughput: 50 connections, 3 s warm-up then 10 s per request, logging on.
import { load, row, startService } from './harness';

const CASES = [
  { name: 'GET /v2/chains', path: '/v2/chains' },
  { name: 'GET /v2/assets/AssetHubPolkadot', path: '/v2/assets/AssetHubPolkadot' },
  { name: 'POST /v2/assets/Hydration/asset-info', path: '/v2/assets/Hydration/asset-info', method: 'POST' as const, body: { currency: { symbol: 'DOT' } } },
];

async function main(): Promise<void> {
  const service = await startService();
  await new Promise((r) => setTimeout(r, 1000));
  console.log(`idle RSS: ${service.rssMb()} MB`);
  for (const c of CASES) {
    const target = { url: service.url + c.path, method: c.method, body: c.body, connections: 50 };
    await load({ ...target, seconds: 3 });
    console.log(row(c.name, await load({ ...target, seconds: 10 })));
  }
  console.log(`RSS after load: ${service.rssMb()} MB`);
  await service.stop();
}

void main();
