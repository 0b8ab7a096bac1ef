// A webhook receiver on loopback, as a wallet backend runs one: it verifies each request with the
// `standardwebhooks` package, answers 2xx while up (503 while down), and records what it saw.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook as Verifier } from 'standardwebhooks';
import { newSecret } from '../../src/service/watch/signing';
import { until } from './transfer-status';

export interface WebhookPost {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body, once its signature verified. */
  event: { type: string; timestamp: string; data: { status: string; final: boolean; legs: { chain: string; state: string }[] } };
}

export interface Receiver {
  url: string;
  /** Posts it answered 2xx (verified), in arrival order. */
  accepted: WebhookPost[];
  /** Posts it answered 503 while down (verified too). */
  refused: WebhookPost[];
  /** Posts whose signature did not verify (answered 400). */
  forged: number;
  /** While true, every post is answered 503. */
  down: boolean;
  /** The secret the test gives its watches (`webhook.secret`). */
  secret: string;
  /** Secrets the service made, by watch id (known once POST /x-transfer/watch answered: a post before that is refused and retried). */
  secrets: Map<string, string>;
  /** The accepted posts of one watch, once there are `count` of them. */
  eventsOf(watch: string, count: number): Promise<WebhookPost[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const state: Receiver = {
    url: '',
    accepted: [],
    refused: [],
    forged: 0,
    down: false,
    secret: newSecret(),
    secrets: new Map(),
    async eventsOf(watch, count) {
      const mine = () => state.accepted.filter((p) => p.id.startsWith(`${watch}.`));
      await until(() => mine().length >= count, `${count} webhooks of watch ${watch}`);
      return mine();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const id = String(req.headers['webhook-id']);
      const secret = state.secrets.get(id.split('.')[0]!) ?? state.secret;
      let event: WebhookPost['event'];
      try {
        event = new Verifier(secret).verify(body, req.headers as Record<string, string>) as WebhookPost['event'];
      } catch {
        state.forged++;
        res.writeHead(400).end();
        return;
      }
      const post = { id, headers: req.headers, body, event };
      if (state.down) {
        state.refused.push(post);
        res.writeHead(503).end();
      } else {
        state.accepted.push(post);
        res.writeHead(204).end();
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/xcm`;
  return state;
}
