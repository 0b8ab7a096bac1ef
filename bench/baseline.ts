// Other builds in the same run: a git ref (BENCH_BASE, and BENCH_HEAD in place of this checkout)
// checked out and compiled into a temporary directory, so a bench measures the old and the new
// build side by side, on the same chains at the same load, and prints new/old. BENCH_BASE_PORT
// (commits, comma-separated) ports those commits' changes under src/service onto BENCH_BASE, the
// least an old build needs to run against today's test chains (its label names them).
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../src/project-root';

export interface Build {
  /** The ref, or "this build". */
  label: string;
  /** The compiled checkout startService runs; undefined: this one. */
  root?: string;
}

/** `ref` checked out (git archive), `ports` applied (their src/service changes), compiled into a temporary directory, the shared node_modules linked in. */
export function buildRef(ref: string, ports: string[] = []): Build {
  const dir = mkdtempSync(join(tmpdir(), 'xcm-gateway-base-'));
  try {
    execSync(`git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`, { cwd: projectRoot(), stdio: ['ignore', 'ignore', 'inherit'] });
    for (const port of ports) {
      const patch = execFileSync('git', ['diff', `${port}^`, port, '--', 'src/service'], { cwd: projectRoot() });
      execFileSync('git', ['apply', '--whitespace=nowarn'], { cwd: dir, input: patch, stdio: ['pipe', 'ignore', 'inherit'] });
    }
    symlinkSync(join(projectRoot(), 'node_modules'), join(dir, 'node_modules'));
    execFileSync(process.execPath, [join(projectRoot(), 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.build.json')], { stdio: 'inherit' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const commit = execSync(`git rev-parse --short ${JSON.stringify(ref)}`, { cwd: projectRoot(), encoding: 'utf8' }).trim();
  const ported = ports.length ? ` + ${ports.join(', ')} ported` : '';
  return { label: `${commit === ref ? ref : `${ref} (${commit})`}${ported}`, root: dir };
}

/**
 * The builds a bench compares: BENCH_BASE (when set), then BENCH_HEAD or this checkout. `run` gets
 * them; the temporary checkouts are removed after, whatever happens.
 */
export async function withBuilds<T>(run: (builds: Build[]) => Promise<T>): Promise<T> {
  const builds: Build[] = [];
  try {
    const ports = process.env.BENCH_BASE_PORT?.split(',').filter(Boolean) ?? [];
    if (process.env.BENCH_BASE) builds.push(buildRef(process.env.BENCH_BASE, ports));
    builds.push(process.env.BENCH_HEAD ? buildRef(process.env.BENCH_HEAD) : { label: 'this build' });
    return await run(builds);
  } finally {
    for (const build of builds) if (build.root) rmSync(build.root, { recursive: true, force: true });
  }
}

/** "x0.93" (new / old), or nothing when there is no old build. */
export const ratio = (newer: number, older: number | undefined): string => (older === undefined ? '' : older === 0 ? 'x-' : `x${(newer / older).toFixed(2)}`);
