// Loaded into the service by benches (hostile.ts, watch.ts and others; `node --require`): how long
// the main thread held the event loop, counted in its own CPU time (process.threadCpuUsage) between
// two turns of a 1 ms timer, so that the figure does not move with what else a shared machine runs
// (a wall-clock /health time does). The first SIGUSR2 starts a window; the next writes the window's
// figures to LOOP_HOLDS_FILE as JSON ({ max, over50, over20, turns, wallMax, wallOver50, gcMax,
// gcOver20, majorGcMax, majorGcs, heapMb }, ms; maxFromUs..maxToUs: the longest hold's two timer
// turns, on the monotonic clock of a --cpu-prof profile) and starts another. The wall time between
// the same two turns is kept beside: where it passes the CPU, the main thread was waiting (for a
// core, or for the collector's helper threads).
// Garbage collections are observed apart (their wall time, perf_hooks): a hold that one of them
// explains is the collector's, not the code's.
import { writeFileSync } from 'node:fs';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

const file = process.env.LOOP_HOLDS_FILE;
let holds: number[] | undefined;
let gcs: number[] = [];
let majors: number[] = [];
let walls: number[] = [];
let last = process.threadCpuUsage();
let lastWall = performance.now();
/** The longest hold of the window, from the timer's turn before it to the turn after (µs of the monotonic clock a `--cpu-prof` profile uses). */
let longest = { ms: 0, fromUs: 0, toUs: 0 };
let lastTurnUs = 0;

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcs.push(entry.duration);
    // perf_hooks.constants.NODE_PERFORMANCE_GC_MAJOR: a mark-compact, whose pause grows with the live heap.
    if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === 4) majors.push(entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

setInterval(() => {
  const now = process.threadCpuUsage();
  const wall = performance.now();
  const ms = (now.user + now.system - last.user - last.system) / 1000;
  const turnUs = Number(process.hrtime.bigint() / 1000n);
  if (holds) {
    holds.push(ms);
    walls.push(wall - lastWall);
    if (ms > longest.ms) longest = { ms, fromUs: lastTurnUs, toUs: turnUs };
  }
  last = now;
  lastWall = wall;
  lastTurnUs = turnUs;
}, 1).unref();

process.on('SIGUSR2', () => {
  if (holds && file) {
    const sorted = holds.sort((a, b) => a - b);
    const gcMax = gcs.reduce((a, b) => Math.max(a, b), 0);
    writeFileSync(file, JSON.stringify({ max: sorted.at(-1) ?? 0, over50: sorted.filter((ms) => ms > 50).length, over20: sorted.filter((ms) => ms > 20).length, turns: sorted.length, wallMax: walls.reduce((a, b) => Math.max(a, b), 0), wallOver50: walls.filter((ms) => ms > 50).length, gcMax, gcOver20: gcs.filter((ms) => ms > 20).length, majorGcMax: majors.reduce((a, b) => Math.max(a, b), 0), majorGcs: majors.length, heapMb: process.memoryUsage().heapUsed / 2 ** 20, maxFromUs: longest.fromUs, maxToUs: longest.toUs }));
  }
  holds = [];
  walls = [];
  longest = { ms: 0, fromUs: 0, toUs: 0 };
  gcs = [];
  majors = [];
});
