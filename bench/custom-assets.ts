// options.customAssets at its bound (8 chains of 32 assets, docs/custom-assets.md) against the
// compiled service in its own process, over the test chains (AssetHubPolkadot -> Hydration):
//   - service CPU per request: a transfer of a custom asset carrying the 8 x 32 assets, against a
//     plain transfer of a registry asset (USDt) on the same route (ratio);
//   - /health p50/p99 while three clients send the custom-asset transfer back to back, against the
//     same server idle, and the longest the main thread held its event loop meanwhile, in its own
//     CPU time (bench/loop-holds.ts: a figure a shared machine's load does not move).
// BENCH_BASE=<git ref> measures that commit too, in the same run (before and after): it is
// checked out and compiled into a temporary directory, and its server started the same way.
// Prints a Markdown summary and one JSON line.
//   npx tsc -p tsconfig.json && BENCH_BASE=<ref> node dist/bench/custom-assets.js
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root';
import { startTestChain } from '../test/support/test-chain';
import { buildRef } from './baseline';
import { startService, type Service } from './harness';
import { healthTimes, post } from './hostile';

const REQUESTS = Number(process.env.BENCH_CUSTOM_REQUESTS ?? 60);
const HEALTH_SAMPLES = Number(process.env.BENCH_CUSTOM_HEALTH ?? 300);
const CLIENTS = 3;
const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

/** The bound: 8 chains of 32 assets, none a registry location; MYUSD on the route's two chains. */
function customAssets(): Record<string, unknown[]> {
  const chains = ['AssetHubPolkadot', 'Hydration', 'Moonbeam', 'Astar', 'BifrostPolkadot', 'Acala', 'AssetHubKusama', 'Karura'];
  const filler = (i: number) => ({ symbol: `CUST${i}`, decimals: 10, assetId: String(900_000 + i), existentialDeposit: '1000', location: { parents: 1, interior: { X3: [{ Parachain: 3999 }, { PalletInstance: 50 }, { GeneralIndex: 900_000 + i }] } } });
  const myusd = { symbol: 'MYUSD', decimals: 6, assetId: '9999', existentialDeposit: '1000', location: { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 9999 }] } } };
  return Object.fromEntries(chains.map((chain, c) => [chain, [...(c < 2 ? [myusd] : []), ...Array.from({ length: c < 2 ? 31 : 32 }, (_, i) => filler(i))]]));
}

interface Figures {
  plainCpuMs: number;
  customCpuMs: number;
  bodyKb: number;
  idle: { p50: number; p99: number };
  loaded: { p50: number; p99: number };
  holds: { idle: number; loaded: number };
  sent: number;
}

const settle = (ms = 1_000) => new Promise((r) => setTimeout(r, ms));

/** The service's longest loop hold since the last call (bench/loop-holds.ts, SIGUSR2); a new window starts. */
async function longestHold(service: Service, file: string): Promise<number> {
  rmSync(file, { force: true });
  service.child.kill('SIGUSR2');
  for (let i = 0; i < 250 && !existsSync(file); i++) await settle(20);
  return (JSON.parse(readFileSync(file, 'utf8')) as { max: number }).max;
}

async function measure(root: string | undefined, urls: { ah: string; hydration: string }): Promise<Figures> {
  const holdsFile = join(tmpdir(), `custom-assets-holds-${process.pid}.json`);
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true', LOG_LEVEL: 'warn', NODE_OPTIONS: `--require ${join(projectRoot(), 'dist/bench/loop-holds.js')}`, LOOP_HOLDS_FILE: holdsFile }, root);
  try {
    const route = { from: 'AssetHubPolkadot', to: 'Hydration', address: ADDRESS };
    const apiOverrides = { AssetHubPolkadot: urls.ah, Hydration: urls.hydration };
    const plain = { ...route, currency: { id: 1984, amount: '1000000' }, options: { development: true, apiOverrides } };
    const custom = { ...route, currency: { symbol: 'MYUSD', amount: '1000000' }, options: { development: true, apiOverrides, customAssets: customAssets() } };
    /** Median-free: the CPU of `REQUESTS` sequential answers over their count (the kernel counts in 10 ms ticks). */
    const cpuPerRequest = async (body: unknown): Promise<number> => {
      for (let i = 0; i < 5; i++) {
        const { status, text } = await post(service, '/v5/x-transfer', body);
        if (status !== 200) throw new Error(`the transfer answered ${status}: ${text}`);
      }
      const before = service.cpuMs();
      for (let i = 0; i < REQUESTS; i++) await post(service, '/v5/x-transfer', body);
      return (service.cpuMs() - before) / REQUESTS;
    };
    const plainCpuMs = await cpuPerRequest(plain);
    const customCpuMs = await cpuPerRequest(custom);

    await settle();
    service.child.kill('SIGUSR2');
    const idle = await healthTimes(service, HEALTH_SAMPLES);
    const idleHold = await longestHold(service, holdsFile);
    let stop = false;
    const clients = Array.from({ length: CLIENTS }, async () => {
      let sent = 0;
      for (; !stop; sent++) await post(service, '/v5/x-transfer', custom);
      return sent;
    });
    await settle(300);
    const loaded = await healthTimes(service, HEALTH_SAMPLES);
    const loadedHold = await longestHold(service, holdsFile);
    stop = true;
    const sent = (await Promise.all(clients)).reduce((a, b) => a + b, 0);
    return { plainCpuMs, customCpuMs, bodyKb: JSON.stringify(custom).length / 1024, idle, loaded, holds: { idle: idleHold, loaded: loadedHold }, sent };
  } finally {
    await service.stop();
    rmSync(holdsFile, { force: true });
  }
}

const row = (name: string, f: Figures) =>
  `| ${name} | ${f.plainCpuMs.toFixed(1)} ms | ${f.customCpuMs.toFixed(1)} ms (${(f.customCpuMs / f.plainCpuMs).toFixed(1)}x) | ${f.idle.p99.toFixed(1)} ms | ${f.loaded.p50.toFixed(1)} ms | ${f.loaded.p99.toFixed(1)} ms (${(f.loaded.p99 / f.idle.p99).toFixed(1)}x) | ${f.holds.loaded.toFixed(0)} ms |`;

async function main(): Promise<void> {
  const base = process.env.BENCH_BASE;
  const baseRoot = base ? buildRef(base).root : undefined;
  const [ah, hydration] = await Promise.all([startTestChain('AssetHubPolkadot'), startTestChain('Hydration')]);
  console.log(`Node.js ${process.version}`);
  try {
    const urls = { ah: ah.url, hydration: hydration.url };
    const before = baseRoot ? await measure(baseRoot, urls) : undefined;
    const after = await measure(undefined, urls);
    console.log(
      [
        `x-transfer AssetHubPolkadot -> Hydration; custom: MYUSD with options.customAssets of 8 chains x 32 assets (${after.bodyKb.toFixed(0)} kB body); ${REQUESTS} sequential requests each; /health: ${HEALTH_SAMPLES} sequential, idle and while ${CLIENTS} clients send the custom transfer back to back`,
        '',
        '| build | service CPU, plain transfer | service CPU, 8 x 32 custom assets | /health p99 idle | /health p50, 3 clients | /health p99, 3 clients | longest loop hold, 3 clients |',
        '|---|---|---|---|---|---|---|',
        ...(before ? [row(`before (${base})`, before)] : []),
        row('this build', after),
      ].join('\n'),
    );
    console.log(JSON.stringify({ before, after }));
  } finally {
    await Promise.all([ah.close(), hydration.close()]);
    if (baseRoot) rmSync(baseRoot, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
