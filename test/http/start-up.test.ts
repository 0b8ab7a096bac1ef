import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtServer, runServer, type ServerProcess } from '../support/built-server';

// What an operator sees from `node dist/src/server.js`: JSON lines only, whatever happens.
beforeAll(() => builtServer(), 180_000);

const nonJson = (server: ServerProcess) => server.lines.filter((l) => !l.json).map((l) => `${l.stream}: ${l.text}`);

describe('start-up output', () => {
  it('from start to listening and through shutdown, with the default limits on: JSON lines only', async () => {
    const server = await runServer();
    await server.listening;
    expect(nonJson(server), 'before listening').toEqual([]);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(nonJson(server)).toEqual([]);
    expect(server.lines.map((l) => l.json?.msg)).toEqual(['listening', 'shutting down', 'stopped']);
  });

  it('a bad variable: one fatal JSON line naming it, exit 1', async () => {
    const server = await runServer({ env: { PORT: 'eighty' } });
    expect(await server.exited).toBe(1);
    expect(nonJson(server)).toEqual([]);
    expect(server.lines).toHaveLength(1);
    expect(server.lines[0].json).toMatchObject({ level: 60, msg: expect.stringContaining('PORT') });
  });

  describe('a port already taken', () => {
    let taken: Server;
    beforeAll(() => new Promise<void>((resolve) => (taken = createServer().listen(0, '127.0.0.1', resolve))));
    afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

    it('one fatal JSON line with the error, exit 1', async () => {
      const address = taken.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const server = await runServer({ env: { PORT: String(port) } });
      expect(await server.exited).toBe(1);
      expect(nonJson(server)).toEqual([]);
      expect(server.lines).toHaveLength(1);
      expect(server.lines[0].json).toMatchObject({ level: 60, msg: 'the service cannot start', err: { code: 'EADDRINUSE' } });
    });
  });
});
