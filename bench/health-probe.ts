// Times `count` sequential GET /health on `url` and prints, as one JSON line, the times (ms) and
// the probe's own longest event-loop delay (ms): a probe that waited for a core itself counts that
// wait in its times, so a slow answer is the server's only when the probe's own delay was short.
// Run in a process of its own (bench/hostile.ts), so that the hostile nodes' work in the bench's
// process does not count in the service's answer times.
//   node dist/bench/health-probe.js http://127.0.0.1:3001 300
import { monitorEventLoopDelay } from 'node:perf_hooks';

async function main(): Promise<void> {
  const [url, count] = [process.argv[2]!, Number(process.argv[3] ?? 300)];
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const times: number[] = [];
  while (times.length < count) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${url}/health`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  delay.disable();
  console.log(JSON.stringify({ times, ownDelayMaxMs: delay.max / 1e6, ownDelayP99Ms: delay.percentile(99) / 1e6 }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
