// Suites that need a program from a Debian package (redis-server, chromium). Locally a missing one
// skips its suite with one line; in CI (CI=true) it fails the suite instead, so what ships (the
// shared rate limiter, the docs page) is always proven where it is built.
import { spawnSync } from 'node:child_process';

export const inCi = (): boolean => /^(true|1)$/i.test(process.env.CI ?? '');

/** Whether `program --version` runs; `suite` names the test file in the line or the error. */
export function requiredProgram(program: string, debianPackage: string, suite: string): boolean {
  if (spawnSync(program, ['--version'], { stdio: 'ignore' }).status === 0) return true;
  const missing = `${suite}: no ${program} on PATH (Debian package ${debianPackage})`;
  if (inCi()) throw new Error(`${missing}; with CI=true it must run, not skip`);
  console.log(`${missing}: skipped`);
  return false;
}
