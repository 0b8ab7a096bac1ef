import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root';
import { builtServer, runServer } from '../support/built-server';
import { rawClient } from '../support/raw-http';
import { startTestChain, type TestChain } from '../support/test-chain';

// The real process: what an orchestrator sees when it sends SIGTERM.
const root = projectRoot();
/** A chain that answers, slowly: a transfer built over it is still in flight when the signal comes. */
let slow: TestChain;

beforeAll(async () => {
  await builtServer();
  slow = await startTestChain('Polkadot', { answerDelayMs: 150 });
}, 180_000);

afterAll(() => slow.close());

const startServer = (nodeArgs: string[] = []) =>
  runServer({ nodeArgs, env: { CONNECT_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '20000', SHUTDOWN_GRACE_MS: '20000' } });
const messages = (server: Awaited<ReturnType<typeof startServer>>) => server.lines.map((l) => l.json?.msg);

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** POST on its own connection, closed after the answer (no keep-alive socket holds the shutdown). */
function postJson(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A transfer over the slow chain: in flight long enough for a signal to arrive meanwhile. */
const slowTransfer = () => ({
  from: 'Polkadot',
  to: 'AssetHubPolkadot',
  currency: { symbol: 'DOT', amount: '10000000000' },
  address: '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ',
  options: { development: true, apiOverrides: { Polkadot: slow.url } },
});

describe('SIGTERM', () => {
  it('lets the in-flight request finish (200), refuses new work, closes its chain connection and exits 0', async () => {
    const server = await startServer();
    const url = await server.listening;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const inFlight = postJson(`${url}/v5/x-transfer`, slowTransfer());
    let answered = false;
    void inFlight.then(() => (answered = true));
    // Signal once the request is being worked on (its chain connection is open).
    await until(() => slow.openConnections > 0, 'the in-flight request to reach its chain');
    server.child.kill('SIGTERM');
    // The listener closes: new work is refused while the in-flight request goes on.
    const refused = () => fetch(`${url}/health`).then(() => false, () => true);
    await until(refused, 'the listener to close');
    expect(answered, 'the request is still in flight when new connections are refused').toBe(false);
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/^0x[0-9a-f]+$/);
    expect(await server.exited).toBe(0);
    expect(messages(server)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    await until(() => slow.openConnections === 0, 'the chain connection to close');
  }, 60_000);
});

describe('a promise rejection nobody handles', () => {
  it('is logged and the service keeps serving', async () => {
    const server = await startServer(['--require', join(root, 'test/fixtures/unhandled-rejection.cjs')]);
    const url = await server.listening;
    await until(() => messages(server).includes('test: rejecting a promise nobody awaits'), 'the rejection');
    await new Promise((r) => setTimeout(r, 100));
    expect((await fetch(`${url}/health`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const logged = server.lines.find((l) => l.json?.msg === 'unhandled promise rejection; the service keeps running');
    expect(logged?.json?.err?.message).toBe('nobody awaits this');
  }, 30_000);
});

describe('an uncaught exception', () => {
  it('writes one fatal line with the error and its stack after every line logged before it, answers /ready 503, lets in-flight work finish and exits 1', async () => {
    const server = await startServer(['--require', join(root, 'test/fixtures/crash.cjs')]);
    const url = await server.listening;
    // A kept-alive connection with a transfer in flight: the listener closes at the crash, this one stays.
    const client = rawClient(url);
    const transfer = JSON.stringify(slowTransfer());
    client.socket.write(`POST /v5/x-transfer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${transfer.length}\r\n\r\n${transfer}`);
    await until(() => slow.openConnections > 0, 'the in-flight request to reach its chain');
    // The fixture logs a line (into the logger's buffer), then throws.
    server.child.kill('SIGUSR2');
    await until(() => server.lines.some((l) => l.json?.level === 60), 'the fatal line');
    client.socket.write('GET /ready HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.until(() => client.closed);
    expect(client.answers().map((a) => a.status)).toEqual([200, 503]);
    expect(client.answers()[0].body).toMatch(/^"0x[0-9a-f]+"$/);
    expect(await server.exited).toBe(1);

    expect(server.lines.filter((l) => !l.json)).toEqual([]);
    const fatal = server.lines.filter((l) => l.json?.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0].json).toMatchObject({ msg: 'uncaught exception: the service stops', err: { type: 'Error', message: 'the crash under test' } });
    expect(fatal[0].json?.err?.stack).toContain('crash.cjs');
    const order = messages(server);
    const lastWords = order.indexOf('test: the last line before the crash');
    expect(lastWords).toBeGreaterThan(-1);
    expect(order.indexOf('uncaught exception: the service stops')).toBeGreaterThan(lastWords);
    expect(order.slice(lastWords)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    await until(() => slow.openConnections === 0, 'the chain connection to close');
  }, 60_000);
});
