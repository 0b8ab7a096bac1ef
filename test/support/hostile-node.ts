// A misbehaving chain node for tests: a WebSocket server on 127.0.0.1 in front of a real test chain
// (test-chain.ts). Every frame the client sends goes through `onRequest`, which decides what the
// node does with it: pass it on to the real chain (whose answer comes back unchanged), answer
// with raw bytes of its own, close, or ignore it. Sockets are counted on the node's side.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

export interface RpcFrame {
  id?: number | string;
  method?: string;
  params?: unknown;
}

/** What the node does with one request frame. */
export type Behaviour =
  | 'forward'
  /** Forwards a subscribe request; passes the first notification on it before the answer giving its id (as chopsticks does). */
  | 'forwardNotificationFirst'
  | 'ignore'
  | 'close'
  | { send: string | Buffer; binary?: boolean; after?: Promise<unknown> }
  | { forwardAfterMs: number }
  | { closeWith: number; reason?: string }
  /** Sends `frame` (a notification, say), then does what `then` says. */
  | { sendFirst: string; then: Behaviour };

export interface HostileNodeOptions {
  /** The real chain behind the node (a test chain's url); without one, only `send`/`ignore`/`close` work. */
  upstream?: string;
  /** Decides what happens to each request; default: forward everything. */
  onRequest?: (frame: RpcFrame, connection: number) => Behaviour;
  /** Close every connection right after the handshake. */
  acceptThenClose?: boolean;
}

export interface HostileNode {
  readonly url: string;
  readonly connectionsOpened: number;
  readonly openConnections: number;
  /** Requests seen, by method. */
  readonly requests: string[];
  /** Ids of the upstream answers passed on to the client, in order. */
  readonly answered: unknown[];
  setBehaviour(onRequest: (frame: RpcFrame, connection: number) => Behaviour): void;
  close(): Promise<void>;
}

export async function startHostileNode(options: HostileNodeOptions = {}): Promise<HostileNode> {
  const server = http.createServer((_req, res) => res.writeHead(426).end());
  const wss = new WebSocketServer({ server });
  const sockets = new Set<WebSocket>();
  const requests: string[] = [];
  const answered: unknown[] = [];
  let onRequest = options.onRequest ?? ((): Behaviour => 'forward');
  let opened = 0;

  wss.on('connection', (client) => {
    const connection = ++opened;
    sockets.add(client);
    client.on('error', () => undefined);
    if (options.acceptThenClose) {
      client.close(1011, 'accept-then-close');
      client.on('close', () => sockets.delete(client));
      return;
    }
    const upstream = options.upstream ? new WebSocket(options.upstream) : undefined;
    const queued: string[] = [];
    // 'forwardNotificationFirst': request ids whose answers wait, then those answers by subscription id.
    const reordered = new Set<string>();
    const answersWaiting = new Map<string, Buffer>();
    upstream?.on('error', () => undefined);
    upstream?.on('open', () => queued.splice(0).forEach((f) => upstream.send(f)));
    upstream?.on('message', (data: Buffer, isBinary) => {
      if (client.readyState !== client.OPEN) return;
      let frame: RpcFrame & { result?: unknown } = {};
      try {
        frame = JSON.parse(data.toString()) as typeof frame;
      } catch {
        // not JSON: passed on, not counted
      }
      if (frame.id !== undefined && reordered.delete(String(frame.id))) {
        answersWaiting.set(String(frame.result), data);
        return;
      }
      client.send(data, { binary: isBinary });
      if (frame.id !== undefined) answered.push(frame.id);
      const subscription = String((frame.params as { subscription?: unknown } | undefined)?.subscription);
      const waiting = answersWaiting.get(subscription);
      if (waiting) {
        answersWaiting.delete(subscription);
        client.send(waiting, { binary: false });
      }
    });
    client.on('close', () => {
      sockets.delete(client);
      upstream?.terminate();
    });
    client.on('message', (raw) => {
      const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : Buffer.from(raw as ArrayBuffer).toString('utf8');
      let frame: RpcFrame = {};
      try {
        frame = JSON.parse(text) as RpcFrame;
      } catch {
        // passed on as it is
      }
      requests.push(String(frame.method));
      let behaviour = onRequest(frame, connection);
      while (typeof behaviour === 'object' && 'sendFirst' in behaviour) {
        client.send(behaviour.sendFirst);
        behaviour = behaviour.then;
      }
      if (behaviour === 'ignore') return;
      if (behaviour === 'close') {
        client.terminate();
        return;
      }
      if (behaviour === 'forwardNotificationFirst') reordered.add(String(frame.id));
      if (behaviour === 'forward' || behaviour === 'forwardNotificationFirst') {
        if (upstream?.readyState === upstream?.OPEN) upstream?.send(text);
        else queued.push(text);
        return;
      }
      if ('forwardAfterMs' in behaviour) {
        setTimeout(() => {
          if (upstream?.readyState === upstream?.OPEN) upstream?.send(text);
        }, behaviour.forwardAfterMs);
        return;
      }
      if ('closeWith' in behaviour) {
        client.close(behaviour.closeWith, behaviour.reason);
        return;
      }
      // Held until `after` settles (a test lets the answer go at a point of its choosing).
      const send = (): void => {
        if (client.readyState === client.OPEN) client.send(behaviour.send, { binary: behaviour.binary === true });
      };
      if (behaviour.after) void behaviour.after.then(send, send);
      else send();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    get connectionsOpened() {
      return opened;
    },
    get openConnections() {
      return sockets.size;
    },
    requests,
    answered,
    setBehaviour(next) {
      onRequest = next;
    },
    async close() {
      for (const s of sockets) s.terminate();
      sockets.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A JSON-RPC answer frame for `frame` carrying `result`. */
export const answerTo = (frame: RpcFrame, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: frame.id, result });
