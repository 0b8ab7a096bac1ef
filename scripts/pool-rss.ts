// The service's memory with its pool full of hostile connections: misbehaving nodes on loopback that
// serve real metadata (each proxies a test chain, so every connection decodes a real runtime), named
// through `options.apiOverrides` by many clients (X-Forwarded-For from a trusted loopback proxy) under
// many paths, again and again. Prints RSS idle, after filling, its peak (VmHWM) while attacked, and
// the memory per connection. `npx tsc -p tsconfig.json && node dist/scripts/pool-rss.js [env=value ...]`
// (arguments are service variables, e.g. MAX_OVERRIDE_CONNECTIONS=32).
import { readFileSync } from 'node:fs';
import { startHostileNode, type HostileNode } from '../test/support/hostile-node';
import { startTestChain, type TestChain, type TestChainName } from '../test/support/test-chain';
import { startService, type Service } from '../bench/harness';

/** The test chains whose metadata comes from packages (the others read test/fixtures, which a build does not copy). */
const CHAINS: TestChainName[] = ['Polkadot', 'Kusama', 'AssetHubPolkadot', 'AssetHubKusama', 'Hydration'];
const CLIENTS = 40;
const ROUNDS = Number(process.env.ROUNDS ?? 6);

function procStatus(service: Service, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${service.child.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

/** Makes the service connect to `node` (a proxy of `chain`) under `path`, decode its metadata and merkleize it. */
async function attack(service: Service, client: string, chain: TestChain, node: HostileNode, path: string): Promise<number> {
  const res = await fetch(`${service.url}/v5/metadata-hash`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ chain: chain.chain, options: { development: true, apiOverrides: { [chain.chain]: `${node.url}${path}` } } }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The V8 heap in use and the external memory (ArrayBuffers), from the service's own /metrics, in MB. */
async function heap(service: Service): Promise<string> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const mb = (name: string) => Math.round(Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0) / 1024 / 1024);
  return `heap used ${mb('nodejs_heap_size_used_bytes')} MB, external ${mb('nodejs_external_memory_bytes')} MB`;
}

const settle = () => new Promise((r) => setTimeout(r, 2_000));

async function main(): Promise<void> {
  const env = Object.fromEntries(process.argv.slice(2).map((arg) => [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]));
  const chains = await Promise.all(CHAINS.map((name) => startTestChain(name)));
  const nodes = await Promise.all(chains.map((chain) => startHostileNode({ upstream: chain.url })));
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true', TRUST_PROXY: 'loopback', LOG_LEVEL: 'silent', ...env });
  console.log(`Node.js ${process.version}; service variables: ${JSON.stringify(env)}`);
  await settle();
  const idle = procStatus(service, 'VmRSS');
  console.log(`RSS idle: ${idle} MB; ${await heap(service)}`);

  const statuses = new Map<number, number>();
  for (let round = 0; round < ROUNDS; round++) {
    // Every client names every chain under a path of its own: more connections than any budget.
    const answers = await Promise.all(
      Array.from({ length: CLIENTS }, (_, c) =>
        Promise.all(chains.map((chain, i) => attack(service, `203.0.113.${c + 1}`, chain, nodes[i], `/${round}/${c}`))),
      ),
    );
    for (const status of answers.flat()) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    await settle();
    const open = nodes.reduce((sum, node) => sum + node.openConnections, 0);
    console.log(`round ${round + 1}: ${CLIENTS * chains.length} attempts; ${open} hostile connections open; RSS ${procStatus(service, 'VmRSS')} MB, peak ${procStatus(service, 'VmHWM')} MB; ${await heap(service)}`);
  }
  const open = nodes.reduce((sum, node) => sum + node.openConnections, 0);
  const rss = procStatus(service, 'VmRSS');
  console.log(`answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
  console.log(`full: ${open} hostile connections, RSS ${rss} MB (peak ${procStatus(service, 'VmHWM')} MB): ${open ? ((rss - idle) / open).toFixed(1) : '-'} MB per connection above idle`);
  await service.stop();
  await Promise.all([...nodes, ...chains].map((server) => server.close()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
