// What the sandbox's servers on 127.0.0.1 share, and the tests' servers that are not chains (a
// black hole, test/support/test-chain.ts): listening, closing, and counting the connections they
// take, which tests read to see whether (and how often) a client dialled.
import type { EventEmitter } from 'node:events';
import type * as net from 'node:net';

export function listen(server: net.Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

export function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
  });
}

export interface CountedServer {
  readonly port: number;
  readonly connectionsOpened: number;
  readonly openConnections: number;
  close(): Promise<void>;
}

/** A server's connections (sockets or WebSockets): how many it took, and those still open. */
export class Connections<S extends EventEmitter> {
  opened = 0;
  readonly open = new Set<S>();

  /** Counts `socket`, open until its 'close'; its errors only end it. */
  take(socket: S): void {
    this.opened++;
    this.open.add(socket);
    socket.on('close', () => this.open.delete(socket));
    socket.on('error', () => undefined);
  }
}

/** The counts of `connections` as a test reads them; `close` runs `shutdown` on the first call only. */
export function countedServer<S extends EventEmitter>(port: number, connections: Connections<S>, shutdown: () => Promise<void>): CountedServer {
  let closed = false;
  return {
    port,
    get connectionsOpened() {
      return connections.opened;
    },
    get openConnections() {
      return connections.open.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      await shutdown();
    },
  };
}
