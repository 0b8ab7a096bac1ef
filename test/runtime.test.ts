import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/project-root';
import { SDK_VERSION, installedSdkVersion, sdkVersionProblem } from '../src/sdk/version';
import { nodeVersionProblem } from '../src/server';
import { builtServer, runServer } from './support/built-server';

const root = projectRoot();
const { runtime } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { runtime: { node: string } };
const version = (v: string) => v.replace(/^[^\d]*/, '').split('.').map(Number);

describe('runtime', () => {
  it('the suite runs on Node 24 or later and on at least the version package.json runtime names', () => {
    const [major, minor] = version(process.versions.node);
    const hint = `running on Node ${process.version}: run the tests through npm (npm test), which puts the project's Node 24 first`;
    expect(major, hint).toBeGreaterThanOrEqual(24);
    const [wantMajor, wantMinor] = version(runtime.node);
    expect(major > wantMajor || (major === wantMajor && minor >= wantMinor), `${hint}; runtime asks ${runtime.node}`).toBe(true);
  });

  it('the installed SDK is the release the service is written against', () => {
    expect(installedSdkVersion()).toBe(SDK_VERSION);
    expect(sdkVersionProblem(installedSdkVersion())).toBeUndefined();
  });
});

describe('the Node.js check', () => {
  it('accepts the version runtime names and any later one', () => {
    for (const running of ['24.11.0', 'v24.11.0', '24.21.0', '25.0.0', '30.1.2']) expect(nodeVersionProblem(running, '>=24.11.0'), running).toBeUndefined();
  });

  it('refuses an earlier one, naming the running and the required versions and how to get the right one', () => {
    for (const running of ['v20.20.2', '22.99.99', '24.10.9', '24.10.0']) {
      const problem = nodeVersionProblem(running, '>=24.11.0');
      expect(problem, running).toContain(`Node.js ${running} is running`);
      expect(problem).toContain('>=24.11.0');
      expect(problem).toContain('npm start');
    }
  });
});

describe('the SDK version check', () => {
  it('refuses any release but the one the service is written against, naming both', () => {
    for (const installed of ['11.14.9', '11.15.0', '12.0.0', '11.14.7']) {
      const problem = sdkVersionProblem(installed);
      expect(problem, installed).toContain(`@paraspell/sdk-pjs ${installed} is installed`);
      expect(problem).toContain(SDK_VERSION);
    }
  });
});

/** A Node.js on PATH older than package.json's `runtime` (this machine's system node), if there is one. */
function olderNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node');
    if (!existsSync(node)) continue;
    const running = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    if (nodeVersionProblem(running, runtime.node)) return node;
  }
  return undefined;
}

describe('the compiled server on the wrong runtime', () => {
  beforeAll(() => builtServer(), 180_000);

  const node = olderNode();
  it.skipIf(!node)(`on an older Node.js (${node ?? 'none on PATH'}): one fatal JSON line naming both versions and npm start, exit 1`, async () => {
    const server = await runServer({ node });
    expect(await server.exited).toBe(1);
    expect(server.lines).toHaveLength(1);
    const running = execFileSync(node as string, ['--version'], { encoding: 'utf8' }).trim();
    expect(server.lines[0]).toMatchObject({ stream: 'stdout', json: { level: 60, msg: nodeVersionProblem(running, runtime.node) } });
  });

  describe('with another SDK release installed', () => {
    // A copy of the build whose nearest node_modules holds a fake @paraspell/sdk-pjs 11.15.0 that
    // throws when loaded: the check must read its version without loading it.
    let copy: string;
    beforeAll(async () => {
      copy = mkdtempSync(join(root, 'node_modules/.cache/xcm-gateway-test-other-sdk-'));
      cpSync(dirname(dirname(await builtServer())), copy, { recursive: true });
      const fake = join(copy, 'node_modules/@paraspell/sdk-pjs');
      mkdirSync(fake, { recursive: true });
      writeFileSync(join(fake, 'package.json'), JSON.stringify({ name: '@paraspell/sdk-pjs', version: '11.15.0', main: 'index.cjs' }));
      writeFileSync(join(fake, 'index.cjs'), "throw new Error('the fake SDK was loaded');\n");
    }, 180_000);
    afterAll(() => rmSync(copy, { recursive: true, force: true }));

    it('one fatal JSON line naming the installed and the expected release, exit 1', async () => {
      const server = await runServer({ server: join(copy, 'src/server.js') });
      expect(await server.exited).toBe(1);
      expect(server.lines).toHaveLength(1);
      expect(server.lines[0]).toMatchObject({ stream: 'stdout', json: { level: 60, msg: sdkVersionProblem('11.15.0') } });
    });
  });
});
