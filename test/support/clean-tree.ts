// vitest globalSetup: `npm test` leaves the working tree as it found it. `git status` is read
// before and after the run; a file that appeared, changed or went in between was written by a
// test (a tracked screenshot redrawn, a dump left behind). With CI=true that fails the run; a
// local run, where the developer may be editing meanwhile, names the files in one line. Outside a
// git checkout there is nothing to compare.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/project-root';

const root = projectRoot();

/** Each path git reports as changed or untracked, with a digest of what it holds now. */
function treeState(): Map<string, string> | undefined {
  let status: string;
  try {
    status = execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
  const state = new Map<string, string>();
  for (const entry of status.split('\0')) {
    // `XY path`; a rename's original path follows as an entry of its own, without the status.
    const path = /^.. (.+)$/.exec(entry)?.[1];
    if (!path) continue;
    const file = join(root, path);
    const isFile = existsSync(file) && statSync(file).isFile();
    state.set(path, `${entry.slice(0, 2)} ${isFile ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'absent'}`);
  }
  return state;
}

export function setup(): () => void {
  const before = treeState();
  return () => {
    const after = treeState();
    if (!before || !after) return;
    const written = [...new Set([...before.keys(), ...after.keys()])].filter((path) => before.get(path) !== after.get(path)).sort();
    if (written.length === 0) return;
    const message = `the test run changed the working tree: ${written.join(', ')}`;
    if (/^(true|1)$/.test(process.env.CI ?? '')) throw new Error(message);
    console.warn(`${message} (a test writes into the checkout, or a file was edited during the run)`);
  };
}
