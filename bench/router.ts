// Router pairs under load, and what they cost in memory: idle RSS of a fresh service, RSS after
// the first pairs request (which reads the router's registry, not the engine), then POST /v2/router/pairs with
// 50 connections after a warm-up, plain and with each compressed variant (answers are cached
// bytes after the first, their gzip and brotli variants made once).
import { SECONDS, load, row, startService } from './harness';

const ENCODINGS: { name: string; headers: Record<string, string> }[] = [
  { name: 'plain', headers: {} },
  { name: 'gzip', headers: { 'accept-encoding': 'gzip' } },
  { name: 'br', headers: { 'accept-encoding': 'gzip, deflate, br' } },
];

async function main(): Promise<void> {
  const service = await startService();
  await new Promise((r) => setTimeout(r, 1_000));
  console.log(`idle RSS, router not loaded: ${service.rssMb()} MB`);

  const url = `${service.url}/v2/router/pairs`;
  const body = { exchange: 'HydrationDex' };
  const started = process.hrtime.bigint();
  const first = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const firstMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (!first.ok) throw new Error(`first pairs request failed: ${first.status} ${await first.text()}`);
  const pairs = (await first.json()) as unknown[];
  console.log(`first pairs request (the router's registry; the engine stays unloaded): ${firstMs.toFixed(0)} ms, ${pairs.length} pairs`);
  await new Promise((r) => setTimeout(r, 1_000));
  console.log(`RSS after the first pairs request: ${service.rssMb()} MB`);

  for (const { name, headers } of ENCODINGS) {
    await load({ url, method: 'POST', body, headers, connections: 50, seconds: 3 });
    const r = await load({ url, method: 'POST', body, headers, connections: 50, seconds: SECONDS, server: service });
    console.log(`${row(`POST /v2/router/pairs (HydrationDex), ${name}`, r)}   ${r.bytesPerReq.toLocaleString('en-US')} B/answer`);
  }
  console.log(`RSS after load: ${service.rssMb()} MB`);
  await service.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
