// A write deadline for answers a client does not take. Node bounds what a client sends (headers,
// the whole request) and how long a socket may idle between requests, but not how long an answer
// may wait for the client to read it: a client that pipelines requests and never reads holds its
// socket, and the answers queued on it, for ever (the keep-alive timer starts only once an answer
// has been taken). Per socket, not per answer: nothing is added to a request's own path.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often sockets are checked, as Node checks request timeouts (`connectionsCheckingInterval`). */
const CHECK_EVERY_MS = 1_000;

/** A socket's output when first seen not moving. */
interface Stall {
  since: number;
  queued: number;
  written: number;
}

/**
 * Closes a socket whose output has not moved for `ms`: bytes queued in the service that the client
 * takes none of (a write the kernel cannot take because the client does not read). A client that
 * reads slowly moves its output and keeps its socket; a request whose answer is still being worked
 * on queues nothing and is not concerned. Checked every second. Returns what stops the checks.
 */
export function closeStalledWrites(server: Server, ms: number): () => void {
  const sockets = new Set<Socket>();
  const stalls = new Map<Socket, Stall>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      stalls.delete(socket);
    });
  });
  const timer = setInterval(() => {
    const now = Date.now();
    for (const socket of sockets) {
      const queued = socket.writableLength;
      if (queued === 0) {
        stalls.delete(socket);
        continue;
      }
      const written = socket.bytesWritten;
      const stall = stalls.get(socket);
      if (!stall || stall.queued !== queued || stall.written !== written) stalls.set(socket, { since: now, queued, written });
      else if (now - stall.since >= ms) socket.destroy();
    }
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
