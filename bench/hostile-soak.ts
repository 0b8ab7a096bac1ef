// Hostile soak: a mix of hostile nodes (the heavy cases of bench/hostile.ts and nodes that send
// malformed frames, answers to ids never asked, close mid-request, stay silent or send frames over
// the size bound) and normal requests on healthy test chains, from several clients at once, all on
// loopback. Bounded in time (HOSTILE_SOAK_SECONDS, 180) and count (HOSTILE_SOAK_REQUESTS, 3000).
// Ends with the answers by status, the count of 500s (must be 0) and whether the process is up;
// exit code 1 otherwise.
//   npm run bench:hostile-soak
import { startHostileNode, type Behaviour, type RpcFrame } from '../test/support/hostile-node';
import { startTestChain } from '../test/support/test-chain';
import { startService } from './harness';
import { heavyCases, post, type HostileCase } from './hostile';

const SECONDS = Number(process.env.HOSTILE_SOAK_SECONDS ?? 180);
const MAX_REQUESTS = Number(process.env.HOSTILE_SOAK_REQUESTS ?? 3_000);
const CLIENTS = Number(process.env.HOSTILE_SOAK_CLIENTS ?? 6);
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

async function main(): Promise<void> {
  const [polkadot, assetHub] = await Promise.all([startTestChain('Polkadot'), startTestChain('AssetHubPolkadot')]);
  const { cases: heavy, nodes } = await heavyCases(polkadot, assetHub);
  const onBlock = (behaviour: (frame: RpcFrame) => Behaviour) => (frame: RpcFrame): Behaviour => (frame.method === 'chain_getBlock' ? behaviour(frame) : 'forward');
  const misbehaving: Record<string, (frame: RpcFrame) => Behaviour> = {
    'not JSON': onBlock(() => ({ send: '{"jsonrpc":"2.0","id":' })),
    'answer to an id never asked': onBlock((f) => ({ send: JSON.stringify({ jsonrpc: '2.0', id: Number(f.id) + 1_000_000, result: null }) })),
    'closes mid-request': onBlock(() => 'close'),
    'silent': onBlock(() => 'ignore'),
    'frame over 16 MiB': onBlock((f) => ({ send: `{"jsonrpc":"2.0","id":${JSON.stringify(f.id)},"result":"${'a'.repeat(17 * 1024 * 1024)}"}` })),
    'block of the wrong shape': onBlock((f) => ({ send: JSON.stringify({ jsonrpc: '2.0', id: f.id, result: { block: { header: { number: 'x' }, extrinsics: 7 } } }) })),
  };
  const cases: HostileCase[] = [...heavy];
  for (const [name, onRequest] of Object.entries(misbehaving)) {
    const node = await startHostileNode({ upstream: polkadot.url, onRequest });
    nodes.push(node);
    const options = { development: true, apiOverrides: { Polkadot: node.url, AssetHubPolkadot: assetHub.url } };
    cases.push({ name, path: '/v5/x-transfer/status', body: { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'ab'.repeat(32)}`, options } });
  }
  const healthy = { development: true, apiOverrides: { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url } };
  const normal: HostileCase[] = [
    { name: 'build', path: '/v5/x-transfer', body: { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE, options: healthy } },
    { name: 'status (healthy chain)', path: '/v5/x-transfer/status', body: { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'ab'.repeat(32)}`, options: healthy } },
    { name: 'metadata-hash (healthy chain)', path: '/v5/metadata-hash', body: { chain: 'Polkadot', options: healthy } },
  ];
  // Two normal requests for each hostile one.
  const mix = cases.flatMap((c, i) => [c, normal[i % normal.length]!, normal[(i + 1) % normal.length]!]);

  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true', LOG_LEVEL: 'warn', REQUEST_TIMEOUT_MS: '10000' });
  const statuses = new Map<number, number>();
  const byCase = new Map<string, Map<number, number>>();
  const fivehundreds: string[] = [];
  const count = (name: string, status: number): void => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const m = byCase.get(name) ?? new Map<number, number>();
    m.set(status, (m.get(status) ?? 0) + 1);
    byCase.set(name, m);
  };
  const started = Date.now();
  const end = started + SECONDS * 1000;
  let sent = 0;
  console.log(`hostile soak: up to ${SECONDS} s and ${MAX_REQUESTS} requests, ${CLIENTS} clients, ${cases.length} hostile nodes; idle RSS ${service.rssMb()} MB`);
  const progress = setInterval(() => console.log(`  t=${Math.round((Date.now() - started) / 1000)} s  requests ${sent}  RSS ${service.rssMb()} MB`), 30_000);
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      let i = client;
      while (Date.now() < end && sent < MAX_REQUESTS && service.child.exitCode === null) {
        sent++;
        const c = mix[i++ % mix.length]!;
        try {
          const { status, text } = await post(service, c.path, c.body);
          count(c.name, status);
          if (status === 500 && fivehundreds.length < 5) fivehundreds.push(`${c.name}: ${text.slice(0, 300)}`);
        } catch (error) {
          count(c.name, 0);
          if (service.child.exitCode !== null) break;
          void error;
        }
        // /health between requests: the process serves on.
        const health = await fetch(`${service.url}/health`).then((r) => r.status, () => 0);
        count('/health', health);
      }
    }),
  );
  clearInterval(progress);
  const up = service.child.exitCode === null && (await fetch(`${service.url}/health`).then((r) => r.status, () => 0)) === 200;
  const rss = up ? service.rssMb() : 0;
  await service.stop();
  await Promise.all([...nodes.map((n) => n.close()), polkadot.close(), assetHub.close()]);

  const listed = (m: Map<number, number>) => [...m].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
  console.log(`requests: ${sent} in ${Math.round((Date.now() - started) / 1000)} s; answers ${listed(statuses)}`);
  for (const [name, m] of byCase) console.log(`  ${name.padEnd(44)} ${listed(m)}`);
  const five = statuses.get(500) ?? 0;
  console.log(`500 answers: ${five}${fivehundreds.length ? `\n  ${fivehundreds.join('\n  ')}` : ''}`);
  console.log(`process up at the end: ${up ? 'yes' : 'NO'}${up ? ` (RSS ${rss} MB)` : ''}`);
  if (five > 0 || !up) {
    console.log('FAIL');
    process.exitCode = 1;
  } else console.log('PASS');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
