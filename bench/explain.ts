// /explain against call data written to cost (issue 42), on the compiled service in its own
// process over a local AssetHubPolkadot test chain:
//   - per body: the answer's status and size, and the service's CPU per request (its threads'
//     schedstat, median of BENCH_EXPLAIN_ROUNDS);
//   - another client's /health p50/p99 (bench/health-probe.ts, its own process) while
//     BENCH_EXPLAIN_ATTACKERS clients send the costliest body without pause, against the same
//     service idle.
// Goals: every body under 50 ms of CPU and 256 kB of answer; /health p99 under 100 ms meanwhile.
//   npm run bench:explain
import { callData, executeCall, hostileProgram, nestedReserveSends, unlistedAssets } from '../test/support/hostile-programs';
import { startTestChain } from '../test/support/test-chain';
import { startService } from './harness';
import { healthTimes, post } from './hostile';

const ROUNDS = Number(process.env.BENCH_EXPLAIN_ROUNDS ?? 5);
const ATTACKERS = Number(process.env.BENCH_EXPLAIN_ATTACKERS ?? 4);
const HEALTH_SAMPLES = Number(process.env.BENCH_EXPLAIN_HEALTH ?? 300);

async function main(): Promise<void> {
  const assetHub = await startTestChain('AssetHubPolkadot');
  const registry = assetHub.registry;
  const remark = callData(registry, 'System', 'remark', { remark: '0x1234' });
  const teleport = callData(registry, 'PolkadotXcm', 'limited_teleport_assets', {
    dest: { V4: { parents: 1, interior: 'Here' } },
    beneficiary: { V4: { parents: 0, interior: { X1: [{ AccountId32: { network: null, id: `0x${'d2'.repeat(32)}` } }] } } },
    assets: { V4: [{ id: { parents: 1, interior: 'Here' }, fun: { Fungible: 10_000_000_000n } }] },
    fee_asset_item: 0,
    weight_limit: 'Unlimited',
  });
  const inBounds = executeCall(registry, hostileProgram(3, 20, 7));
  const clearOrigins = executeCall(registry, Array.from({ length: 100 }, () => ({ ClearOrigin: null })));
  const bodies: Record<string, string> = {
    'a teleport (for scale)': teleport,
    'system.remark': remark,
    // The issue's bodies: one list of N distinct unlisted assets, then D nested reserve sends.
    'issue: 300 assets x 40 hops (7 kB)': executeCall(registry, [{ WithdrawAsset: unlistedAssets(300) }, ...nestedReserveSends(40)]),
    'issue: 1,500 assets x 120 hops (35 kB)': executeCall(registry, [{ WithdrawAsset: unlistedAssets(1_500) }, ...nestedReserveSends(120)]),
    'issue: 2,000 assets x 200 hops (48 kB)': executeCall(registry, [{ WithdrawAsset: unlistedAssets(2_000) }, ...nestedReserveSends(200)]),
    // Inside every bound a chain keeps: 3 lists of 20 distinct assets, 7 nested sends.
    'in bounds: 60 assets x 7 hops': inBounds,
    'past the call data bounds: 30 of those in a batch': callData(registry, 'Utility', 'batch_all', { calls: Array.from({ length: 30 }, () => inBounds) }),
    'in bounds: 40 sends of one asset': executeCall(registry, [{ WithdrawAsset: unlistedAssets(1) }, ...Array.from({ length: 40 }, () => nestedReserveSends(1)[0]!)]),
    'past the call data bounds: 40 programs of 100 instructions in a batch': callData(registry, 'Utility', 'batch_all', { calls: Array.from({ length: 40 }, () => clearOrigins) }),
    'past the holding: 50 lists of 20 assets x 7 hops': executeCall(registry, hostileProgram(50, 20, 7)),
  };
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true', LOG_LEVEL: 'warn' });
  const body = (hex: string) => ({ chain: 'AssetHubPolkadot', hex, options: { development: true, apiOverrides: { AssetHubPolkadot: assetHub.url } } });
  console.log(`Node.js ${process.version}, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  try {
    await post(service, '/v5/explain', body(remark)); // connects
    const rows: { name: string; bodyKb: number; status: number; kind: string; answerKb: number; cpuMs: number }[] = [];
    let costliest = { name: '', cpuMs: -1 };
    for (const [name, hex] of Object.entries(bodies)) {
      const cpu: number[] = [];
      let last = { status: 0, text: '' };
      for (let i = 0; i < ROUNDS; i++) {
        const before = service.threadsCpuMs();
        last = await post(service, '/v5/explain', body(hex));
        cpu.push(service.threadsCpuMs() - before);
      }
      cpu.sort((a, b) => a - b);
      const cpuMs = cpu[Math.floor(cpu.length / 2)]!;
      const kind = last.status === 200 ? '' : ((JSON.parse(last.text) as { kind?: string }).kind ?? '');
      rows.push({ name, bodyKb: JSON.stringify(body(hex)).length / 1024, status: last.status, kind, answerKb: Buffer.byteLength(last.text) / 1024, cpuMs });
      if (cpuMs > costliest.cpuMs) costliest = { name, cpuMs };
    }
    console.log('\n| body | size | answer | CPU per request |\n|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.name} | ${r.bodyKb.toFixed(1)} kB | ${r.status}${r.kind ? ` ${r.kind}` : ''}, ${r.answerKb.toFixed(1)} kB | ${r.cpuMs.toFixed(1)} ms |`);

    const idle = await healthTimes(service, HEALTH_SAMPLES);
    let attacking = true;
    const hex = bodies[costliest.name]!;
    const attackers = Array.from({ length: ATTACKERS }, async () => {
      let sent = 0;
      while (attacking) {
        await post(service, '/v5/explain', body(hex));
        sent++;
      }
      return sent;
    });
    const busy = await healthTimes(service, HEALTH_SAMPLES);
    attacking = false;
    const sent = (await Promise.all(attackers)).reduce((a, b) => a + b, 0);
    console.log(`\n/health (${HEALTH_SAMPLES} one after another): idle p50 ${idle.p50.toFixed(1)} ms, p99 ${idle.p99.toFixed(1)} ms; while ${ATTACKERS} clients sent "${costliest.name}" (${sent} requests) p50 ${busy.p50.toFixed(1)} ms, p99 ${busy.p99.toFixed(1)} ms`);
    const worst = rows.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
    const largest = rows.reduce((a, b) => (b.answerKb > a.answerKb ? b : a));
    console.log(JSON.stringify({ worstCpuMs: worst.cpuMs, worstCpuBody: worst.name, largestAnswerKb: largest.answerKb, healthIdleP99: idle.p99, healthBusyP99: busy.p99, goals: { cpu: worst.cpuMs < 50, answer: largest.answerKb < 256, health: busy.p99 < 100 } }));
  } finally {
    await service.stop();
    await assetHub.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
