import { connect, createServer, type Socket } from 'node:net';

/** A TCP port on 127.0.0.1, taken from the OS and held until `close()`, in front of a Unix socket. */
export interface Relay {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Forwards each connection to the Unix socket at `path`: while something listens there, a client
 * of `port` talks to it; while nothing does, the client's connection is reset. A server the test
 * stops and starts again (Redis down, then back) thus keeps one port without ever releasing it,
 * where closing a free port and reusing it lets another process take it in between.
 */
export async function startRelay(path: string): Promise<Relay> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
  const server = createServer((client) => {
    track(client);
    const upstream = track(connect(path));
    upstream.once('error', () => client.resetAndDestroy());
    client.once('error', () => upstream.destroy());
    upstream.once('connect', () => client.pipe(upstream).pipe(client));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
