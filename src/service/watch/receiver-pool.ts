// Keep-alive connections to webhook receivers: a try takes an idle connection to its receiver, when
// one is kept, instead of dialling anew (a lookup, a handshake, TLS). Only a connection whose try
// read a whole answer is kept (delivery.ts decides); the pool is bounded per receiver, in all, and
// in time, and node's Agent drops a connection the receiver closed or answered `connection: close` on.
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

export interface PoolBounds {
  /** Idle connections kept to one receiver (host, port): at most the tries it may have at once. */
  perHost: number;
  /** Idle connections kept in all. */
  total: number;
  /** How long one is kept idle before it is closed. */
  idleMs: number;
}

const idleIn = (agent: http.Agent): number => {
  let n = 0;
  for (const sockets of Object.values(agent.freeSockets)) n += sockets?.length ?? 0;
  return n;
};

export class ReceiverPool {
  readonly http: http.Agent;
  readonly https: https.Agent;

  constructor(bounds: PoolBounds) {
    const idle = (): number => this.idle;
    // `lifo`: the connection used last goes first, so under a light load the others age out.
    const options = { keepAlive: true, maxFreeSockets: bounds.perHost, timeout: bounds.idleMs, scheduling: 'lifo' as const };
    // Asked before a socket joins the idle ones: past the total it is closed instead.
    const keep = (socket: Duplex, agentKeeps: (socket: Duplex) => unknown): boolean =>
      idle() < bounds.total && agentKeeps(socket) !== false;
    this.http = new (class extends http.Agent {
      override keepSocketAlive(socket: Duplex): boolean {
        return keep(socket, (s) => super.keepSocketAlive(s));
      }
    })(options);
    this.https = new (class extends https.Agent {
      override keepSocketAlive(socket: Duplex): boolean {
        return keep(socket, (s) => super.keepSocketAlive(s));
      }
    })(options);
  }

  /** Idle connections kept now. */
  get idle(): number {
    return idleIn(this.http) + idleIn(this.https);
  }

  /** Closes every connection (shutdown). */
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
