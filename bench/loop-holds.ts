// Loaded into the service by bench/hostile.ts (`node --require`): how long the main thread held the
// event loop, counted in its own CPU time (process.threadCpuUsage) between two turns of a 1 ms
// timer, so that the figure does not move with what else a shared machine runs (a wall-clock
// /health time does). The first SIGUSR2 starts a window; the next writes the window's figures to
// LOOP_HOLDS_FILE as JSON ({ max, over50, over20, turns }, ms) and starts another.
import { writeFileSync } from 'node:fs';

const file = process.env.LOOP_HOLDS_FILE;
let holds: number[] | undefined;
let last = process.threadCpuUsage();

setInterval(() => {
  const now = process.threadCpuUsage();
  holds?.push((now.user + now.system - last.user - last.system) / 1000);
  last = now;
}, 1).unref();

process.on('SIGUSR2', () => {
  if (holds && file) {
    const sorted = holds.sort((a, b) => a - b);
    writeFileSync(file, JSON.stringify({ max: sorted.at(-1) ?? 0, over50: sorted.filter((ms) => ms > 50).length, over20: sorted.filter((ms) => ms > 20).length, turns: sorted.length }));
  }
  holds = [];
});
