// Times `count` sequential GET /health on `url` and prints the times (ms) as one JSON line. Run
// in a process of its own (bench/hostile.ts), so that the hostile nodes' work in the bench's
// process does not count in the service's answer times.
//   node dist/bench/health-probe.js http://127.0.0.1:3001 300
async function main(): Promise<void> {
  const [url, count] = [process.argv[2]!, Number(process.argv[3] ?? 300)];
  const times: number[] = [];
  while (times.length < count) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${url}/health`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  console.log(JSON.stringify(times));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
