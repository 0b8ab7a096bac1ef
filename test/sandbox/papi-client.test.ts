// docs/sandbox.md's polkadot-api set-up, run as written: its shell block (codegen against the
// sandbox's node: `papi add <key> -w <node>`, then `papi`) and its module (the development account
// derived from the development phrase, the typed API's `txFromCallData`, `signAndSubmit`) in a
// wallet's folder under os.tmpdir(), against a sandbox on ports the system picks. The packages
// `npm i` names are this checkout's copies, which npm links (offline: a test reaches no registry).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root';
import { sandboxService } from '../support/sandbox-service';

const root = projectRoot();
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'papi-wallet-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const served = sandboxService({ chains: ['Polkadot', 'AssetHubPolkadot'], blockMs: 300 });

/** The code blocks of docs/sandbox.md's polkadot-api section, by language. */
function snippets(): { sh: string; js: string } {
  const doc = readFileSync(join(root, 'docs/sandbox.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### polkadot-api: set-up, codegen, the typed API'));
  const block = (lang: string) => new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1] ?? '';
  return { sh: block('sh'), js: block('js') };
}

const packageVersion = (dir: string): string => (JSON.parse(readFileSync(join(root, 'node_modules', dir, 'package.json'), 'utf8')) as { version: string }).version;

/** What `npm i` of the snippet adds to the wallet's package.json: this checkout's copies (npm links them). */
const DEPENDENCIES = {
  'polkadot-api': `file:${join(root, 'node_modules/polkadot-api-2')}`,
  '@polkadot-labs/hdkd': `file:${join(root, 'node_modules/@polkadot-labs/hdkd')}`,
  '@polkadot-labs/hdkd-helpers': `file:${join(root, 'node_modules/@polkadot-labs/hdkd-helpers')}`,
};

it('the polkadot-api set-up of docs/sandbox.md runs as written: codegen against the sandbox, then the typed API signs and submits the call data /x-transfer built', async () => {
  const { sh, js } = snippets();
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'wallet', private: true, type: 'module' }));
  const node = served.sandbox.endpoints.Polkadot!;
  const papi = join(root, 'node_modules/polkadot-api-2/bin/cli.js');
  for (const line of sh.split('\n').map((l) => l.replace(/#.*$/, '').trim()).filter(Boolean)) {
    if (line.startsWith('node --version')) continue;
    if (line.startsWith('npm i ')) {
      expect(line).toBe(`npm i polkadot-api@${packageVersion('polkadot-api-2')} @polkadot-labs/hdkd @polkadot-labs/hdkd-helpers`);
      await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...Object.entries(DEPENDENCIES).map(([name, from]) => `${name}@${from}`)], { cwd: work });
      continue;
    }
    const args = line.replace(/^npx papi\s*/, '').split(/\s+/).filter(Boolean).map((a) => a.replace('ws://127.0.0.1:9944', node));
    // `papi` installs the descriptors it wrote with npm: offline, as a link.
    await run(process.execPath, [papi, ...args], { cwd: work, env: { ...process.env, npm_config_offline: 'true' } }).catch((e: { stdout?: string; stderr?: string }) => {
      throw new Error(`${line}\n${e.stdout}\n${e.stderr}`);
    });
  }
  const ferdie = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
  const built = await fetch(`${served.url}/v5/x-transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ferdie }),
  });
  const callData = (await built.json()) as string;
  writeFileSync(join(work, 'wallet.mjs'), `const callData = ${JSON.stringify(callData)};\n${js.replaceAll('ws://127.0.0.1:9944', node)}\nconsole.log(JSON.stringify({ ok: result.ok, block: result.block.number }));\nclient.destroy();\n`);
  const { stdout } = await run(join(root, 'node_modules/.bin/node'), ['wallet.mjs'], { cwd: work });
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject({ ok: true, block: expect.any(Number) });
}, 180_000);
