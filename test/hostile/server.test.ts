// The HTTP server against slow clients, and its shutdown with kept-alive connections.
import * as http from 'node:http';
import * as net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { start, type Running } from '../../src/server';
import type { HostileNode } from '../support/hostile-node';
import { rawClient } from '../support/raw-http';
import { ADDRESS, serverSet, sleep, until } from './helpers';

const servers = serverSet();
afterAll(() => servers.closeAll());

const configOf = (env: Record<string, string>) =>
  loadConfig({ LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', ALLOW_PRIVATE_OVERRIDES: 'true', ...env });

/** Writes `text` one byte at a time until the socket closes (a slow-loris client). */
async function drip(client: ReturnType<typeof rawClient>, text: string): Promise<void> {
  for (const ch of text) {
    if (client.closed) return;
    client.socket.write(ch);
    await sleep(200);
  }
}

describe('slow clients cannot hold a socket', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start(configOf({ HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' }));
  });
  afterAll(() => running.stop());

  it('a body sent a byte at a time: 408 and the socket closed at HTTP_REQUEST_TIMEOUT_MS', async () => {
    const client = rawClient(running.url);
    client.socket.write('POST /v5/x-transfer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
    void drip(client, '{'.padEnd(1000, ' '));
    await until(() => client.closed, 'the server to close the socket', 15_000);
    expect(client.received).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);

  it('headers sent a byte at a time: 408 and the socket closed at HEADERS_TIMEOUT_MS', async () => {
    const client = rawClient(running.url);
    void drip(client, `GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(500)}\r\n\r\n`);
    await until(() => client.closed, 'the server to close the socket', 15_000);
    expect(client.received).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);
});

describe('clients that do not read cannot hold a socket', () => {
  let running: Running;
  let silent: HostileNode;
  beforeAll(async () => {
    running = await start(configOf({ HTTP_WRITE_TIMEOUT_MS: '1000', CONNECT_TIMEOUT_MS: '2500' }));
    silent = await servers.hostile({ onRequest: () => 'ignore' });
  });
  afterAll(() => running.stop());

  /** The server's side of the next connection. */
  const nextServerSocket = () => new Promise<net.Socket>((resolve) => running.server.once('connection', resolve));

  it('a client that pipelines requests and never reads: the server closes its socket at HTTP_WRITE_TIMEOUT_MS', async () => {
    const accepted = nextServerSocket();
    // No 'data' listener: the socket is never read, so the kernel's buffers fill and the answers
    // (about 1 MB each) stay queued in the service.
    const client = net.connect(Number(new URL(running.url).port), '127.0.0.1');
    client.on('error', () => undefined);
    client.write('GET /v5/swap/pairs HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(24));
    const socket = await accepted;
    await until(() => socket.writableLength > 0, 'answers to queue up in the service');
    await new Promise((resolve) => socket.once('close', resolve));
    client.destroy();
    // Nobody else noticed.
    expect((await fetch(`${running.url}/health`)).status).toBe(200);
  }, 20_000);

  it('time spent working on an answer does not count: a request past HTTP_WRITE_TIMEOUT_MS still gets its answer', async () => {
    // A node that never answers: the answer is the 503 at CONNECT_TIMEOUT_MS, after the write deadline.
    const client = rawClient(running.url);
    const body = JSON.stringify({ address: ADDRESS, options: { development: true, apiOverrides: { Polkadot: silent.url } } });
    client.socket.write(`POST /v5/balance/Polkadot HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await client.until(() => client.answers().length === 1 || client.closed);
    expect(client.answers().map((a) => a.status)).toEqual([503]);
    expect(client.closed).toBe(false);
    client.socket.destroy();
  }, 20_000);
});

describe('shutdown', () => {
  let silent: HostileNode;
  let silent2: HostileNode;
  beforeAll(async () => {
    silent = await servers.hostile({ onRequest: () => 'ignore' });
    silent2 = await servers.hostile({ onRequest: () => 'ignore' });
  });

  it('/ready is 503 from the moment stop begins (on a kept-alive connection); the process is done when in-flight work ends, not at the grace', async () => {
    // A grace far beyond the test timeout: finishing at all means it did not wait for it.
    const running = await start(configOf({ SHUTDOWN_GRACE_MS: '600000', CONNECT_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '20000' }));
    const agent = new http.Agent({ keepAlive: true });
    const get = (path: string) =>
      new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
        http
          .get(`${running.url}${path}`, { agent }, (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
          })
          .on('error', reject);
      });
    expect((await get('/ready')).status).toBe(200); // leaves an idle kept-alive connection in the agent

    // In flight on the agent's kept-alive connection: a balance read on a node that never answers
    // (503 at the connect deadline).
    const inFlight = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      const req = http.request(`${running.url}/v5/balance/Polkadot`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ address: ADDRESS, options: { development: true, apiOverrides: { Polkadot: silent.url } } }));
    });
    // A kept-alive connection with a request in flight, and /ready sent on it once stop has begun.
    const client = rawClient(running.url);
    const body = JSON.stringify({ address: ADDRESS, options: { development: true, apiOverrides: { Polkadot: silent2.url } } });
    client.socket.write(
      `POST /v5/balance/Polkadot HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until(() => silent.openConnections === 1 && silent2.openConnections === 1, 'both in-flight requests to reach their chain');

    const stopped = running.stop();
    client.socket.write('GET /ready HTTP/1.1\r\nHost: x\r\n\r\n');
    const answer = await inFlight;
    expect(answer.status).toBe(503);
    await until(() => client.closed, 'the raw connection to be answered and closed');
    expect(client.received).toMatch(/^HTTP\/1\.1 503/);
    expect(client.received).toMatch(/HTTP\/1\.1 503 Service Unavailable[^]*Connection: close[^]*"shutting down"/i);
    expect(client.received).not.toContain('"ready"');
    await stopped;
    // The nodes see the close a moment after we send it.
    await until(() => silent.openConnections + silent2.openConnections === 0, 'the chain connections to be closed', 5_000);
    agent.destroy();
  }, 20_000);
});
