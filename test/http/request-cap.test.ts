import { afterEach, describe, expect, it } from 'vitest';
import { start, type Running } from '../../src/server';
import { testConfig } from '../helpers/app';
import { rawClient } from '../support/raw-http';

let running: Running | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe('MAX_REQUESTS_PER_SOCKET', () => {
  it('the answer that reaches the cap says Connection: close and the server closes the socket, so a client that ignores the header reconnects', async () => {
    running = await start(testConfig({ PORT: '0', HOST: '127.0.0.1', MAX_REQUESTS_PER_SOCKET: '2' }));
    const client = rawClient(running.url);
    // The first through Express, the second from the cached lane: both count.
    client.socket.write(GET('/v2/chains'));
    await client.until(() => client.answers().length === 1 || client.closed);
    client.socket.write(GET('/v2/chains'));
    await client.until(() => client.answers().length === 2 || client.closed);
    // Past the cap, on the same socket, as a client that ignores the header would send it.
    if (!client.closed) client.socket.write(GET('/v2/chains'));
    await client.until(() => client.answers().length >= 3 || client.closed);

    const answers = client.answers();
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.headers.connection)).toEqual(['keep-alive', 'close']);
    expect(client.closed).toBe(true);
    // The next connection is served.
    const next = rawClient(running.url);
    next.socket.write(GET('/v2/chains'));
    await next.until(() => next.answers().length === 1 || next.closed);
    expect(next.answers().map((a) => a.status)).toEqual([200]);
    next.socket.destroy();
  });

  it('0 means no cap: the connection stays open', async () => {
    running = await start(testConfig({ PORT: '0', HOST: '127.0.0.1', MAX_REQUESTS_PER_SOCKET: '0' }));
    const client = rawClient(running.url);
    for (let n = 1; n <= 3; n++) {
      client.socket.write(GET('/health'));
      await client.until(() => client.answers().length === n || client.closed);
    }
    expect(client.answers().map((a) => [a.status, a.headers.connection])).toEqual([
      [200, 'keep-alive'],
      [200, 'keep-alive'],
      [200, 'keep-alive'],
    ]);
    expect(client.closed).toBe(false);
    client.socket.destroy();
  });
});
