// The longest synchronous stretches of a process over a window, from its `--cpu-prof` profile: what
// held its event loop, not what its CPU time adds up to (the same in two builds can be spread thin
// in one and held in long blocks in the other). A stretch is a run of samples with no `(idle)` one
// between them: JavaScript, GC and native work of one or more tasks back to back, during which no
// timer, socket or answer of the process is served. Profile times are V8's monotonic clock, the
// one `process.hrtime` reads in any process of the machine: the bench marks the window with it.
// A sample that came long after the one before (the sampler runs every ~1 ms) stands for a time the
// process did not run (a busy machine gave its core to others): counted apart, as `not running`,
// not as the work of the function it happened to be in (1 s "in" one polkadot.js function once).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One stretch: when it began (µs, the monotonic clock), how long it held the loop running (its time not running left out), and where its time went. */
export interface Stretch {
  atUs: number;
  ms: number;
  /** Self time by function, most first. */
  self: Array<{ frame: string; ms: number }>;
  /** By the innermost frame of the service's own code (dist/src) on the stack, most first: whose work it was. */
  ours: Array<{ frame: string; ms: number }>;
}

export interface Stretches {
  busyMs: number;
  idleMs: number;
  /** Gaps between samples past NOT_RUNNING_US, past that bound: the process was not running. */
  notRunningMs: number;
  /** Stretches over 50 ms, and their time together. */
  over50: { count: number; ms: number };
  longest: Stretch[];
}

/** A sample counts for at most this long (four sampling intervals); the rest of its gap is `not running`. */
const NOT_RUNNING_US = 4_000;

/** The monotonic clock in µs, as the profile's timestamps read it. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** The main thread's profile a process wrote into `dir` (`--cpu-prof-dir`): thread 0 of `pid`. */
export function profileOf(dir: string, pid: number): string {
  const file = readdirSync(dir).find((name) => name.includes(`.${pid}.0.`) && name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile of process ${pid} in ${dir}`);
  return join(dir, file);
}

const frameName = ({ functionName, url, lineNumber }: CallFrame): string => `${functionName || '(anonymous)'} ${url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}`;

const top = (by: Map<string, number>, n: number): Array<{ frame: string; ms: number }> =>
  [...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([frame, us]) => ({ frame, ms: us / 1000 }));

/** The stretches of `path`'s profile that began within [fromUs, toUs], the `count` longest. */
export function stretchesOf(path: string, fromUs: number, toUs: number, count = 5): Stretches {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  /** The innermost frame of our own code above a node (memoized per node). */
  const oursOf = new Map<number, string>();
  const ours = (id: number): string => {
    const known = oursOf.get(id);
    if (known !== undefined) return known;
    const node = nodes.get(id)!;
    const up = parent.get(id);
    const name = node.callFrame.url.includes('/dist/src/') ? frameName(node.callFrame) : up === undefined ? '(none of ours)' : ours(up);
    oursOf.set(id, name);
    return name;
  };
  const stretches: Stretch[] = [];
  let busyUs = 0;
  let idleUs = 0;
  let notRunningUs = 0;
  let open: { atUs: number; cpuUs: number; self: Map<string, number>; ours: Map<string, number> } | undefined;
  const close = () => {
    if (!open) return;
    stretches.push({ atUs: open.atUs, ms: open.cpuUs / 1000, self: top(open.self, 4), ours: top(open.ours, 4) });
    open = undefined;
  };
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    // A sample stands for the time up to the next one, up to NOT_RUNNING_US.
    const gap = Math.max(0, profile.timeDeltas[i + 1] ?? 0);
    const span = Math.min(gap, NOT_RUNNING_US);
    const node = nodes.get(profile.samples[i]!)!;
    const idle = node.callFrame.functionName === '(idle)';
    const inside = t >= fromUs && t <= toUs;
    if (inside) notRunningUs += gap - span;
    if (idle) {
      if (inside) idleUs += span;
      close();
      continue;
    }
    if (!open && !inside) continue;
    if (inside) busyUs += span;
    open ??= { atUs: t, cpuUs: 0, self: new Map(), ours: new Map() };
    open.cpuUs += span;
    const self = frameName(node.callFrame);
    open.self.set(self, (open.self.get(self) ?? 0) + span);
    const mine = ours(node.id);
    open.ours.set(mine, (open.ours.get(mine) ?? 0) + span);
  }
  close();
  const long = stretches.filter((s) => s.ms > 50);
  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    notRunningMs: notRunningUs / 1000,
    over50: { count: long.length, ms: long.reduce((sum, s) => sum + s.ms, 0) },
    longest: stretches.sort((a, b) => b.ms - a.ms).slice(0, count),
  };
}

/** One stretch, `fromUs` its window's start: its length, when, and where its time went. */
export function stretchText(s: Stretch, fromUs: number): string {
  const part = (list: Array<{ frame: string; ms: number }>) => list.map((f) => `${f.frame} ${f.ms.toFixed(0)}`).join(', ');
  return `${s.ms.toFixed(0)} ms at +${((s.atUs - fromUs) / 1e6).toFixed(2)} s; self: ${part(s.self)}; ours: ${part(s.ours)}`;
}

/** A few lines for the bench's output. */
export function stretchesText(holds: Stretches, fromUs: number): string {
  const lines = [
    `busy ${(holds.busyMs / 1000).toFixed(1)} s, idle ${(holds.idleMs / 1000).toFixed(1)} s, not running ${(holds.notRunningMs / 1000).toFixed(1)} s; ${holds.over50.count} stretches over 50 ms (${holds.over50.ms.toFixed(0)} ms together); longest:`,
  ];
  for (const s of holds.longest) lines.push(`    ${stretchText(s, fromUs)}`);
  return lines.join('\n');
}
