// docs/sandbox.md's CI recipe, run as written: its `run` steps in order, in a copy of this
// checkout under os.tmpdir() (`npm ci` aside: the copy links the checkout's node_modules, and a
// test reaches no registry), on ports the system picks (PORT=0, SANDBOX_NODE_PORT=0, as a job's
// `env:` would set them). In place of the wallet's own tests, 100 transfers are built in a row,
// more than a live service's 60 a minute: the sandbox's rate limits are off, and its start-up
// line says so. The recipe's last step stops it, and nothing is left running.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../src/project-root';
import { until } from '../helpers/transfer-status';

const root = projectRoot();
const ALICE = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5';

interface Step {
  uses?: string;
  run?: string;
  'working-directory'?: string;
  if?: string;
}

/** The steps of the first yaml block under "In a wallet team's CI". */
function recipe(): Step[] {
  const doc = readFileSync(join(root, 'docs/sandbox.md'), 'utf8');
  const section = doc.slice(doc.indexOf("## In a wallet team's CI"));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!yaml) throw new Error('docs/sandbox.md: no yaml block in the CI section');
  return parse(yaml) as Step[];
}

const work = mkdtempSync(join(tmpdir(), 'xcm-gateway-ci-'));
const groups: number[] = [];

afterAll(async () => {
  // Whatever a failed run left: each step's process group (the sandbox ran in the background of one).
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(work, { recursive: true, force: true });
});

/** Runs one step's script with bash, as a runner does; resolves with its exit code. */
function runStep(script: string, cwd: string, log: string): Promise<number | null> {
  const out = openSync(log, 'a');
  const child = spawn('bash', ['-e', '-c', script], { cwd, detached: true, stdio: ['ignore', out, out], env: { ...process.env, PORT: '0', SANDBOX_NODE_PORT: '0' } });
  closeSync(out);
  groups.push(child.pid!);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The wallet's tests: the service's URL from the log, the start-up line, and 100 transfers built. */
async function walletTests(checkout: string): Promise<void> {
  const lines = readFileSync(join(checkout, 'sandbox.log'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; url?: string; rateLimits?: unknown });
  const ready = lines.find((l) => l.msg?.startsWith('sandbox chains ready'));
  expect(ready).toMatchObject({ rateLimits: { perMinute: 0, chainPerMinute: 0 }, msg: expect.stringContaining('rate limits off') });
  const url = lines.find((l) => l.msg === 'listening')!.url!;
  expect((await fetch(`${url}/ready`)).status).toBe(200);
  const statuses: number[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${url}/v5/x-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(10_000_000_000 + i) }, address: ALICE }),
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
}

it("docs/sandbox.md's CI recipe runs as written: the sandbox starts, takes 100 transfers without a rate limit, and its last step stops it", async () => {
  const steps = recipe();
  const checkout = join(work, 'xcm-gateway');
  mkdirSync(checkout);
  // What a clone holds: the files git tracks (as they are in this checkout).
  for (const file of execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)) {
    if (existsSync(join(root, file))) cpSync(join(root, file), join(checkout, file));
  }
  symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  const log = join(work, 'steps.log');

  let pid: number | undefined;
  for (const step of steps) {
    if (step.uses) continue; // checkout and setup-node: the copy above, this test's Node
    const script = step.run!;
    if (script.trim() === 'npm ci') continue;
    if (/^npm test\b/.test(script.trim())) {
      await walletTests(checkout);
      pid = Number(readFileSync(join(checkout, 'sandbox.pid'), 'utf8'));
      expect(alive(pid)).toBe(true);
      continue;
    }
    const code = await runStep(script, join(work, step['working-directory'] ?? '.'), log);
    expect(code, `${script}\n${readFileSync(log, 'utf8')}`).toBe(0);
  }
  expect(pid).toBeDefined();
  // The last step's SIGTERM stops npm, the service and every node.
  await until(() => !alive(pid!), 'the sandbox to stop', 30_000);
  expect(readFileSync(join(checkout, 'sandbox.log'), 'utf8')).toMatch(/"msg":"listening"/);
}, 400_000);
