// docs/sandbox.md's polkadot.js snippet ("Sign, submit and follow a transfer"), run as written: a
// wallet's module under os.tmpdir() (this checkout's node_modules linked in, as its `npm i` would
// give it) fetches the call data from the sandbox's service, signs it as Alice with no nonce given
// and submits it; the transfer it prints the hash of is then followed to its destination.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root';
import { fencedBlocks } from '../support/readme-examples';
import { finalStatus } from '../support/sandbox-client';
import { sandboxService } from '../support/sandbox-service';

const root = projectRoot();
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'polkadotjs-wallet-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const served = sandboxService({ chains: ['Polkadot', 'AssetHubPolkadot'], blockMs: 300 });

/** The first js block of docs/sandbox.md's section on signing. */
function snippet(): string {
  const doc = readFileSync(join(root, 'docs/sandbox.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Sign, submit and follow a transfer'));
  const block = fencedBlocks(section).find((b) => b.lang === 'js');
  if (!block) throw new Error('docs/sandbox.md: no js block under "Sign, submit and follow a transfer"');
  return block.text;
}

it('the polkadot.js snippet of docs/sandbox.md runs as written, twice in a row from one account, and each transfer is delivered', async () => {
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  const js = snippet().replaceAll('ws://127.0.0.1:9944', served.sandbox.endpoints.Polkadot!).replaceAll('http://127.0.0.1:3001', served.url);
  writeFileSync(join(work, 'wallet.mjs'), `${js}\nconsole.log(JSON.stringify({ txHash }));\nawait api.disconnect();\n`);
  // Twice: the second takes its nonce from the node as the first left it (README's path, no options).
  for (let i = 0; i < 2; i++) {
    const { stdout } = await run(join(root, 'node_modules/.bin/node'), ['wallet.mjs'], { cwd: work });
    const { txHash } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { txHash: string };
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await finalStatus(served.url, { from: 'Polkadot', to: 'AssetHubPolkadot', txHash })).toMatchObject({ status: 'delivered', final: true });
  }
}, 180_000);
