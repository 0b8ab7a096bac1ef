// The WebSocket side of an emulated node: a JSON-RPC 2.0 server on 127.0.0.1 that hands each
// request (batches too) to the node (node.ts) and sends its answers and subscription
// notifications back on the same socket, in order.
import { SpecV2 } from './rpc-spec-v2';
import * as http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { closeServer, Connections, countedServer, listen, type CountedServer } from './loopback-server';
import type { Node } from './node';
import { RpcError } from './rpc-error';

interface RpcRequest {
  jsonrpc?: string;
  id?: number | string | null;
  method?: unknown;
  params?: unknown;
}

const CLOSE_GRACE_MS = 100;

export interface RpcServerOptions {
  /** Accept WebSocket connections (counted) but never answer any RPC message. */
  silent?: boolean;
  /** Answers every RPC message this many milliseconds late. */
  answerDelayMs?: number;
  /** 0 (the default) lets the system pick a free port. */
  port?: number;
}

/** Serves `node` over WebSocket until closed. */
export async function serveRpc(node: Node, options: RpcServerOptions = {}): Promise<CountedServer> {
  const silent = options.silent === true;
  const server = http.createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' });
    res.end('sandbox: WebSocket only');
  });
  const wss = new WebSocketServer({ server });
  const connections = new Connections<WebSocket>();
  const sockets = connections.open;

  wss.on('connection', (ws) => {
    connections.take(ws);
    ws.on('close', () => {
      node.produced.subscriptions.dropOwner(ws);
      node.specV2.dropOwner(ws);
    });
    if (silent) return;
    ws.on('message', (raw) => {
      const text = Array.isArray(raw) ? Buffer.concat(raw).toString('utf8') : Buffer.from(raw as ArrayBuffer).toString('utf8');
      if (options.answerDelayMs) setTimeout(() => answer(ws, node, text), options.answerDelayMs);
      else answer(ws, node, text);
    });
  });

  const port = await listen(server, options.port);
  return countedServer(port, connections, async () => {
    const closing = new Promise<void>((resolve) => wss.close(() => resolve()));
    // A clean close frame first (clients that are already leaving finish quietly), then
    // terminate whatever is still open after a short grace period.
    if (sockets.size > 0) {
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.close(1001, 'test-chain closing');
      const deadline = Date.now() + CLOSE_GRACE_MS;
      while (sockets.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      for (const ws of sockets) ws.terminate();
      sockets.clear();
    }
    await closing;
    server.closeAllConnections();
    await closeServer(server);
  });
}

function send(ws: WebSocket, message: unknown): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function answer(ws: WebSocket, node: Node, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    send(ws, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    return;
  }
  const requests = Array.isArray(parsed) ? parsed : [parsed];
  const responses: unknown[] = [];
  const notifications: unknown[] = [];
  for (const req of requests as RpcRequest[]) {
    const id = req && typeof req === 'object' ? (req.id ?? null) : null;
    if (!req || typeof req !== 'object' || typeof req.method !== 'string') {
      responses.push({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } });
      continue;
    }
    node.asked.set(req.method, (node.asked.get(req.method) ?? 0) + 1);
    if (SpecV2.serves(req.method)) {
      responses.push({ jsonrpc: '2.0', id, ...node.specV2.handle(req.method, params(req.params), ws, (message) => send(ws, message)) });
      continue;
    }
    try {
      const { result, subscription } = node.handle(req.method, params(req.params));
      responses.push({ jsonrpc: '2.0', id, result });
      if (subscription) {
        node.produced.subscriptions.add(String(result), subscription.method, ws, (payload) =>
          send(ws, { jsonrpc: '2.0', method: subscription.method, params: { subscription: result, result: payload } }),
          subscription.watched,
        );
        notifications.push({
          jsonrpc: '2.0',
          method: subscription.method,
          params: { subscription: result, result: subscription.result },
        });
      }
    } catch (e) {
      const error = e instanceof RpcError ? { code: e.code, message: e.message } : { code: -32603, message: String(e) };
      responses.push({ jsonrpc: '2.0', id, error });
    }
  }
  send(ws, Array.isArray(parsed) ? responses : responses[0]);
  // First notification after the subscription id has been sent (order is kept on one socket).
  for (const n of notifications) send(ws, n);
}

function params(p: unknown): unknown[] {
  return Array.isArray(p) ? p : [];
}

