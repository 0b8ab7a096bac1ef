import { beforeAll, describe, expect, it } from 'vitest';
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
});
