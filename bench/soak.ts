// Soak: mixed traffic at moderate concurrency for a long while (10 minutes unless SOAK_SECONDS
// says otherwise), with the service's RSS and open file descriptors sampled every 10 s. Fails
// (exit code 1) when the mean of the last third of the samples is more than 10% above the mean
// of the first third, for either figure, or when any answer is a 500 (a bug of ours).
//   npx tsc -p tsconfig.json && node dist/bench/soak.js          (SOAK_SECONDS=60 for a short run)
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { refusedUrl, startTestChain } from '../test/support/test-chain';
import { startService } from './harness';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_MS ?? 10_000);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 16);
const MAX_GROWTH = 0.1;
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

interface Sample {
  at: number;
  rssMb: number;
  fds: number;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function sample(pid: number, started: number): Sample {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return { at: Math.round((Date.now() - started) / 1000), rssMb: Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024), fds: readdirSync(`/proc/${pid}/fd`).length };
}

async function main(): Promise<void> {
  const chain = await startTestChain('Polkadot');
  const dead = await refusedUrl();
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  const pid = service.child.pid as number;
  const json = { 'content-type': 'application/json' };
  const transfer = (url: string) =>
    JSON.stringify({
      from: 'Polkadot',
      to: 'AssetHubPolkadot',
      currency: { symbol: 'DOT', amount: '10000000000' },
      address: ALICE,
      options: { development: true, apiOverrides: { Polkadot: url } },
    });
  // Each connection cycles through the list: lookups, builds on the test chain, bad input, and
  // a chain that refuses connections (503).
  const requests: autocannon.Request[] = [
    { method: 'GET', path: '/v2/chains' },
    { method: 'GET', path: '/v5/assets/AssetHubPolkadot' },
    { method: 'POST', path: '/v2/assets/Hydration/asset-info', headers: json, body: JSON.stringify({ currency: { symbol: 'DOT' } }) },
    { method: 'POST', path: '/v5/x-transfer', headers: json, body: transfer(chain.url) },
    { method: 'POST', path: '/v5/x-transfer', headers: json, body: JSON.stringify({ from: 'Polkadot', to: 'Nowhere', currency: { symbol: 'DOT', amount: 'ten' } }) },
    { method: 'GET', path: '/v2/chains/Hydrat/para-id' },
    { method: 'POST', path: '/v5/x-transfer', headers: json, body: transfer(dead) },
    { method: 'POST', path: '/v5/x-transfer', headers: json, body: '{"from": ' },
    { method: 'GET', path: '/status' },
  ];

  const started = Date.now();
  const samples: Sample[] = [];
  const statuses = new Map<number, number>();
  console.log(`soak: ${SECONDS} s, ${CONNECTIONS} connections, ${requests.length} request kinds; idle RSS ${service.rssMb()} MB`);
  const timer = setInterval(() => {
    const s = sample(pid, started);
    samples.push(s);
    console.log(`  t=${String(s.at).padStart(4)} s  RSS ${String(s.rssMb).padStart(4)} MB  fds ${s.fds}`);
  }, SAMPLE_MS);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon({ url: service.url, connections: CONNECTIONS, duration: SECONDS, requests }, (error, done) => (error ? reject(error) : resolve(done)));
    run.on('response', (_client, status) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
  });
  clearInterval(timer);

  await service.stop();
  await chain.close();

  const third = Math.floor(samples.length / 3);
  if (third < 1) throw new Error(`too few samples (${samples.length}) for a verdict: run at least ${(3 * SAMPLE_MS) / 1000} s`);
  const first = samples.slice(0, third);
  const last = samples.slice(-third);
  const growth = (pick: (s: Sample) => number) => mean(last.map(pick)) / mean(first.map(pick)) - 1;
  const rssGrowth = growth((s) => s.rssMb);
  const fdGrowth = growth((s) => s.fds);
  const answered = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
  console.log(`requests: ${result.requests.total} (${Math.round(result.requests.average)} req/s), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors}, timeouts ${result.timeouts}`);
  console.log(`statuses: ${answered}`);
  console.log(`RSS: first third ${mean(first.map((s) => s.rssMb)).toFixed(0)} MB, last third ${mean(last.map((s) => s.rssMb)).toFixed(0)} MB (${(rssGrowth * 100).toFixed(1)}%)`);
  console.log(`fds: first third ${mean(first.map((s) => s.fds)).toFixed(1)}, last third ${mean(last.map((s) => s.fds)).toFixed(1)} (${(fdGrowth * 100).toFixed(1)}%)`);

  const failures: string[] = [];
  if (rssGrowth > MAX_GROWTH) failures.push(`RSS grew ${(rssGrowth * 100).toFixed(1)}% (limit ${MAX_GROWTH * 100}%)`);
  if (fdGrowth > MAX_GROWTH) failures.push(`open fds grew ${(fdGrowth * 100).toFixed(1)}% (limit ${MAX_GROWTH * 100}%)`);
  if (statuses.has(500)) failures.push(`${statuses.get(500)} answers were 500`);
  for (const expected of [200, 400, 503]) if (!statuses.has(expected)) failures.push(`no ${expected} answer: the mix did not run as designed`);
  if (failures.length > 0) {
    console.log(`FAIL: ${failures.join('; ')}`);
    process.exitCode = 1;
  } else console.log('PASS');
}

void main();
