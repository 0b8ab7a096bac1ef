import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root';
import { startTestChain, type TestChain } from '../support/test-chain';

// The real process: what an orchestrator sees when it sends SIGTERM.
const root = projectRoot();
let silent: TestChain;

beforeAll(async () => {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  silent = await startTestChain('Polkadot', { silent: true });
}, 120_000);

afterAll(() => silent.close());

function startServer() {
  const child = spawn(process.execPath, [join(root, 'dist/src/server.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', CONNECT_TIMEOUT_MS: '1500', SHUTDOWN_GRACE_MS: '5000', ALLOW_PRIVATE_OVERRIDES: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: { msg?: string; url?: string }[] = [];
  const listening = new Promise<string>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      lines.push(entry);
      if (entry.msg === 'listening' && entry.url) resolve(entry.url);
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, lines, listening, exited };
}

describe('SIGTERM', () => {
  it('lets the in-flight request finish, closes its chain connection and exits 0', async () => {
    const server = startServer();
    const url = await server.listening;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const inFlight = fetch(`${url}/v5/x-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        from: 'Polkadot',
        to: 'AssetHubPolkadot',
        currency: { symbol: 'DOT', amount: '10000000000' },
        address: '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ',
        options: { development: true, apiOverrides: { Polkadot: silent.url } },
      }),
    });
    // Signal once the request is being worked on (its chain connection is open).
    const end = Date.now() + 5_000;
    while (silent.openConnections === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(503);
    expect(await server.exited).toBe(0);
    expect(server.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    expect(silent.openConnections).toBe(0);
  }, 30_000);
});
