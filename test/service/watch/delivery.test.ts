import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../../src/chains/address-guard';
import { isWebhookSecret } from '../../../src/schemas/webhook-secret';
import { MAX_ANSWER_BYTES, WebhookSender, type DeliveryTry, type SenderOptions } from '../../../src/service/watch/delivery';
import type { WatchEvent } from '../../../src/service/watch/model';
import { ExponentialRetry, retryPolicyFrom } from '../../../src/service/watch/retry';
import { newSecret } from '../../../src/service/watch/signing';
import { afterTry } from '../../../src/service/watch/tries';
import { until } from '../../helpers/transfer-status';

// Receivers are servers on loopback in this process; each test says how its receiver behaves.

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function listen(server: net.Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An HTTP receiver that records each request and answers as `answer` says. */
async function receiver(answer: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void = (_q, res) => res.end('ok')) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      received.push({ headers: req.headers, body });
      answer(req, res, body);
    });
  });
  const url = await listen(server);
  return { url, received, server };
}

/** A raw TCP receiver: `onSocket` does what it likes with each connection; `closed` counts the sockets it saw closed. */
async function rawReceiver(onSocket: (socket: net.Socket) => void) {
  const state = { connections: 0, closed: 0 };
  const closedOnce: Array<() => void> = [];
  const server = net.createServer((socket) => {
    state.connections++;
    socket.on('error', () => undefined);
    // Reads (and drops) the request, so the sender's closing is seen.
    socket.resume();
    socket.on('close', () => {
      state.closed++;
      closedOnce.splice(0).forEach((f) => f());
    });
    onSocket(socket);
  });
  const url = await listen(server);
  const allClosed = (): Promise<void> =>
    state.closed === state.connections ? Promise.resolve() : new Promise((resolve) => closedOnce.push(() => void allClosed().then(resolve)));
  return { url, state, allClosed };
}

const secret = newSecret();
let seq = 0;
function event(body: object = { type: 'transfer.delivered', timestamp: '2026-11-27T00:00:00.000Z', data: { status: 'delivered' } }): WatchEvent {
  const n = seq++;
  return { id: `w_test.${n}`, seq: n, type: 'transfer.delivered', body: JSON.stringify(body) };
}

function sender(options: Partial<SenderOptions> = {}) {
  const tries: DeliveryTry[] = [];
  const s = new WebhookSender({
    guard: new AddressGuard(true),
    timeoutMs: 5_000,
    maxInFlight: 4,
    observer: { tried: (t) => tries.push(t) },
    ...options,
  });
  return { sender: s, tries };
}

describe('webhook secrets', () => {
  const ofBytes = (n: number) => `whsec_${randomBytes(n).toString('base64')}`;

  it('makes whsec_ secrets of 32 random bytes, each new', () => {
    const a = newSecret();
    expect(isWebhookSecret(a)).toBe(true);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
  });

  it('accepts whsec_ and the base64 of 24 to 64 bytes, nothing else', () => {
    // The Standard Webhooks specification's own example secret.
    expect(isWebhookSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(true);
    for (const n of [24, 25, 26, 48, 64]) expect(isWebhookSecret(ofBytes(n)), `${n} bytes`).toBe(true);
    for (const n of [0, 16, 23, 65, 1000]) expect(isWebhookSecret(ofBytes(n)), `${n} bytes`).toBe(false);
    expect(isWebhookSecret(ofBytes(32).slice('whsec_'.length))).toBe(false);
    expect(isWebhookSecret(`whsec_${randomBytes(32).toString('base64url')}_-`)).toBe(false);
    expect(isWebhookSecret(`whsec_${randomBytes(32).toString('base64').replace(/=+$/, '')}`)).toBe(false);
    expect(isWebhookSecret('whsec_ ' + randomBytes(32).toString('base64'))).toBe(false);
  });
});

describe('WebhookSender', () => {
  it('posts the body as it is with Standard Webhooks headers the reference verifier accepts', async () => {
    const r = await receiver();
    const { sender: s, tries } = sender();
    const e = event();
    await expect(s.send({ url: `${r.url}/hooks?token=abc`, secret }, e)).resolves.toEqual({ ok: true, code: 200 });
    expect(r.received).toHaveLength(1);
    const [{ headers, body }] = r.received;
    expect(body).toBe(e.body);
    expect(headers['webhook-id']).toBe(e.id);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toMatch(/^xcm-gateway\//);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(new Verifier(secret).verify(body, headers as Record<string, string>)).toEqual(JSON.parse(e.body));
    expect(() => new Verifier(newSecret()).verify(body, headers as Record<string, string>)).toThrow(/signature/);
    expect(tries).toMatchObject([{ event: e, outcome: 'delivered', result: { ok: true, code: 200 } }]);
  });

  it('signs a retry anew with the same id and body', async () => {
    let calls = 0;
    const r = await receiver((_q, res) => {
      res.statusCode = calls++ === 0 ? 500 : 204;
      res.end();
    });
    // The second try happens a minute later by the sender's clock.
    let offset = 0;
    const { sender: s } = sender({ now: () => new Date(Date.now() + offset) });
    const e = event();
    await expect(s.send({ url: r.url, secret }, e)).resolves.toEqual({ ok: false, code: 500, error: 'answered 500' });
    offset = 60_000;
    await expect(s.send({ url: r.url, secret }, e)).resolves.toEqual({ ok: true, code: 204 });
    const [first, second] = r.received;
    expect(second.body).toBe(first.body);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(second.headers['webhook-timestamp']) - Number(first.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(59);
    expect(second.headers['webhook-signature']).not.toBe(first.headers['webhook-signature']);
    for (const { body, headers } of r.received) expect(new Verifier(secret).verify(body, headers as Record<string, string>)).toEqual(JSON.parse(e.body));
  });

  it('counts only a 2xx as delivered', async () => {
    const codes = [200, 201, 202, 299, 404, 500, 503, 410];
    const r = await receiver((req, res) => {
      res.statusCode = Number(req.url?.slice(1));
      res.end('nope');
    });
    const { sender: s, tries } = sender();
    const results = await Promise.all(codes.map((code) => s.send({ url: `${r.url}/${code}`, secret }, event())));
    expect(results).toEqual(codes.map((code) => (code < 300 ? { ok: true, code } : { ok: false, code, error: `answered ${code}` })));
    expect(tries.map((t) => t.outcome)).toEqual(expect.arrayContaining(['delivered', 'rejected']));
  });

  it('does not follow a redirect: the target sees nothing', async () => {
    const target = await receiver();
    const r = await receiver((_q, res) => {
      res.writeHead(302, { location: `${target.url}/elsewhere` });
      res.end();
    });
    const { sender: s, tries } = sender();
    const result = await s.send({ url: r.url, secret }, event());
    expect(result).toEqual({ ok: false, code: 302, error: expect.stringMatching(/redirects are not followed/) as string });
    expect(r.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    expect(tries[0].outcome).toBe('redirected');
  });

  it('a receiver that hangs costs one slot until the deadline, then its socket is closed', async () => {
    const hang = await rawReceiver(() => undefined);
    const good = await receiver();
    const { sender: s, tries } = sender({ timeoutMs: 300, maxInFlight: 1 });
    const hung = s.send({ url: hang.url, secret }, event());
    const next = s.send({ url: good.url, secret }, event());
    expect([s.inFlight, s.waiting]).toEqual([1, 1]);
    await expect(hung).resolves.toEqual({ ok: false, error: expect.stringMatching(/^no answer from 127\.0\.0\.1:\d+ within 300 ms$/) as string, slow: true });
    await hang.allClosed();
    await expect(next).resolves.toEqual({ ok: true, code: 200 });
    expect(tries.map((t) => t.outcome)).toEqual(['timeout', 'delivered']);
    expect([s.inFlight, s.waiting]).toEqual([0, 0]);
  });

  it('a try the backend cuts ends at once as unanswered (slow), counted as a timeout, its socket closed', async () => {
    let connected = (): void => undefined;
    const reached = new Promise<void>((resolve) => (connected = resolve));
    const hang = await rawReceiver(() => connected());
    const { sender: s, tries } = sender({ timeoutMs: 60_000, maxInFlight: 1 });
    const cut = new AbortController();
    const hung = s.send({ url: hang.url, secret }, event(), cut.signal);
    await reached;
    cut.abort(new Error('cut'));
    await expect(hung).resolves.toEqual({ ok: false, error: expect.stringMatching(/^no answer from 127\.0\.0\.1:\d+ within \d+ ms \(cut: /) as string, slow: true });
    await hang.allClosed();
    expect(tries.map((t) => t.outcome)).toEqual(['timeout']);
    // Cut before it starts: not dialled.
    const early = new AbortController();
    early.abort(new Error('cut'));
    await expect(s.send({ url: hang.url, secret }, event(), early.signal)).resolves.toMatchObject({ ok: false, slow: true });
    expect(hang.state.connections).toBe(1);
    expect(s.inFlight).toBe(0);
  });

  it('a receiver that answers a byte at a time is cut off at the deadline', async () => {
    const answer = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n\r\nhello');
    const drip = await rawReceiver((socket) => {
      let at = 0;
      const timer = setInterval(() => {
        if (at < answer.length && !socket.destroyed) socket.write(answer.subarray(at, ++at));
      }, 20);
      socket.on('close', () => clearInterval(timer));
    });
    const { sender: s, tries } = sender({ timeoutMs: 300, maxInFlight: 1 });
    await expect(s.send({ url: drip.url, secret }, event())).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/within 300 ms/) as string });
    await drip.allClosed();
    expect(tries[0].outcome).toBe('timeout');
    expect(s.inFlight).toBe(0);
  });

  it('reads at most the bound of a gigabyte answer, then closes the socket', async () => {
    const gigabyte = 1024 ** 3;
    let written = 0;
    const flood = await rawReceiver((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: ${gigabyte}\r\n\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = (): void => {
        while (written < gigabyte && !socket.destroyed) {
          written += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    const { sender: s, tries } = sender({ timeoutMs: 5_000, maxInFlight: 1 });
    await expect(s.send({ url: flood.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
    await flood.allClosed();
    // One socket read may carry the last bytes past the bound; what the kernel buffered is never read.
    expect(tries[0].answerBytes).toBeGreaterThanOrEqual(MAX_ANSWER_BYTES);
    expect(tries[0].answerBytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 64 * 1024);
    expect(written).toBeLessThan(gigabyte / 16);
    expect(s.inFlight).toBe(0);
  });

  it('a 500 with a gigabyte body is a failed try of one bounded read', async () => {
    const flood = await rawReceiver((socket) => {
      socket.write('HTTP/1.1 500 Internal Server Error\r\ntransfer-encoding: chunked\r\n\r\n');
      const chunk = Buffer.from(`${(64 * 1024).toString(16)}\r\n${'b'.repeat(64 * 1024)}\r\n`);
      const pump = (): void => {
        while (!socket.destroyed) if (!socket.write(chunk)) return void socket.once('drain', pump);
      };
      pump();
    });
    const { sender: s, tries } = sender({ maxInFlight: 1 });
    await expect(s.send({ url: flood.url, secret }, event())).resolves.toEqual({ ok: false, code: 500, error: 'answered 500' });
    await flood.allClosed();
    expect(tries[0].answerBytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 64 * 1024);
  });

  it('holds at most maxInFlight tries; the next waits for a slot', async () => {
    const held: http.ServerResponse[] = [];
    let open = 0;
    let most = 0;
    let heldTwo: () => void = () => undefined;
    const twoHeld = new Promise<void>((resolve) => (heldTwo = resolve));
    const r = await receiver((_q, res) => {
      most = Math.max(most, ++open);
      res.on('close', () => open--);
      held.push(res);
      if (held.length === 2) heldTwo();
      if (held.length > 2) res.end();
    });
    const { sender: s } = sender({ maxInFlight: 2 });
    const sends = [0, 1, 2].map(() => s.send({ url: r.url, secret }, event()));
    expect([s.inFlight, s.waiting]).toEqual([2, 1]);
    await twoHeld;
    expect(r.received).toHaveLength(2);
    held[0].end();
    // The first slot freed lets the third in (answered at once) while the second is still held.
    await expect(sends[2]).resolves.toEqual({ ok: true, code: 200 });
    expect(r.received).toHaveLength(3);
    held[1].end();
    expect(await Promise.all(sends)).toEqual([0, 1, 2].map(() => ({ ok: true, code: 200 })));
    expect(most).toBe(2);
  });

  it('refuses loopback and private addresses when the guard does, by literal or by name, and dials nothing', async () => {
    const r = await receiver();
    const port = new URL(r.url).port;
    const { sender: literal, tries } = sender({ guard: new AddressGuard(false) });
    for (const host of ['127.0.0.1', '[::1]', 'localhost', '10.1.2.3', '[::ffff:192.168.0.1]']) {
      await expect(literal.send({ url: `http://${host}:${port}/`, secret }, event())).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/local|loopback|private/) as string });
    }
    // A public-looking name that resolves to loopback: refused after resolution, never dialled.
    const { sender: named } = sender({ guard: new AddressGuard(false, () => Promise.resolve(['127.0.0.1'])) });
    await expect(named.send({ url: `http://hooks.example.com:${port}/`, secret }, event())).resolves.toEqual({
      ok: false,
      error: expect.stringMatching(/hooks\.example\.com.* resolves to 127\.0\.0\.1/) as string,
    });
    expect(r.received).toHaveLength(0);
    expect(tries.every((t) => t.outcome === 'refused')).toBe(true);
  });

  it('with this machine allowed (the sandbox), a receiver on loopback gets the event, by literal or by name; private addresses stay refused', async () => {
    const r = await receiver();
    const port = new URL(r.url).port;
    const { sender: local } = sender({ guard: new AddressGuard(false, () => Promise.resolve(['127.0.0.1']), undefined, true) });
    for (const host of ['127.0.0.1', 'localhost']) await expect(local.send({ url: `http://${host}:${port}/`, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
    expect(r.received).toHaveLength(2);
    for (const host of ['10.1.2.3', '[::ffff:192.168.0.1]']) {
      await expect(local.send({ url: `http://${host}:${port}/`, secret }, event())).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/private/) as string });
    }
    const { sender: named } = sender({ guard: new AddressGuard(false, () => Promise.resolve(['10.1.2.3']), undefined, true) });
    await expect(named.send({ url: `http://hooks.example.com:${port}/`, secret }, event())).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/resolves to 10\.1\.2\.3/) as string });
    expect(r.received).toHaveLength(2);
  });

  it('never echoes a password, refuses other schemes, and reports a refused connection by host', async () => {
    const { sender: s, tries } = sender();
    const withPassword = await s.send({ url: 'http://user:hunter2@127.0.0.1:9/', secret }, event());
    expect(withPassword).toEqual({ ok: false, error: 'the webhook URL carries credentials' });
    expect(await s.send({ url: 'ftp://127.0.0.1/', secret }, event())).toMatchObject({ ok: false, error: expect.stringMatching(/not http or https/) as string });
    expect(await s.send({ url: 'not a url', secret }, event())).toMatchObject({ ok: false });
    // Port 0: nothing can listen there.
    expect(await s.send({ url: 'http://127.0.0.1:0/path?token=secret-token', secret }, event())).toEqual({
      ok: false,
      error: expect.stringMatching(/^could not deliver to 127\.0\.0\.1:0: E[A-Z]+$/) as string,
    });
    expect(JSON.stringify(tries)).not.toMatch(/hunter2|secret-token/);
    expect(tries.map((t) => t.outcome)).toEqual(['refused', 'refused', 'refused', 'failed']);
  });

  it('a secret that is not base64 is a refused try, not a rejection', async () => {
    const r = await receiver();
    const { sender: s } = sender();
    await expect(s.send({ url: r.url, secret: 'whsec_not base64!' }, event())).resolves.toEqual({ ok: false, error: 'the webhook secret is not a whsec_ secret' });
    expect(r.received).toHaveLength(0);
  });

  it('a throwing observer changes nothing', async () => {
    const r = await receiver();
    const s = new WebhookSender({
      guard: new AddressGuard(true),
      timeoutMs: 5_000,
      maxInFlight: 1,
      observer: {
        tried: () => {
          throw new Error('metrics broke');
        },
      },
    });
    await expect(s.send({ url: r.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
    expect(s.inFlight).toBe(0);
  });
});

/** An HTTP receiver that names the connection each request came on (1, 2, ...) and counts those closed. */
async function countingReceiver(answer: (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void = (_q, res) => res.end('ok')) {
  const ids = new WeakMap<net.Socket, number>();
  const state = { connections: 0, closed: 0, on: [] as number[] };
  const closedOnce: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.on.push(ids.get(req.socket) ?? 0);
      answer(req, res, state.on.length);
    });
  });
  server.on('connection', (socket: net.Socket) => {
    ids.set(socket, ++state.connections);
    socket.on('close', () => {
      state.closed++;
      closedOnce.splice(0).forEach((f) => f());
    });
  });
  const url = await listen(server);
  /** Resolves once `n` connections are closed at the receiver. */
  const closed = (n: number): Promise<void> => (state.closed >= n ? Promise.resolve() : new Promise((resolve) => closedOnce.push(() => void closed(n).then(resolve))));
  return { url, state, server, closed };
}

describe('WebhookSender connections', () => {
  it('tries to one receiver take its kept connection instead of dialling each; close() closes them', async () => {
    const r = await countingReceiver();
    const { sender: s, tries } = sender({ maxInFlight: 4 });
    for (let i = 0; i < 6; i++) await expect(s.send({ url: r.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
    expect(r.state.on).toEqual([1, 1, 1, 1, 1, 1]);
    // At once: at most one connection per try in flight, the kept one among them.
    const many = await Promise.all(Array.from({ length: 12 }, () => s.send({ url: r.url, secret }, event())));
    expect(many.every((result) => result.ok)).toBe(true);
    expect(r.state.connections).toBeLessThanOrEqual(4);
    expect(r.state.on.length).toBeGreaterThan(r.state.connections);
    expect(tries.every((t) => t.outcome === 'delivered')).toBe(true);
    expect(s.idle).toBe(r.state.connections);
    s.close();
    await r.closed(r.state.connections);
    expect(s.idle).toBe(0);
  });

  it('a connection whose try went wrong is never taken again; a whole answer, even a 500, keeps it', async () => {
    const gigabyte = 1024 ** 3;
    const r = await countingReceiver((_q, res, n) => {
      if (n === 2) {
        // Past the bound: the try is decided, the rest of the answer goes with the socket.
        res.writeHead(200, { 'content-length': gigabyte });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = (): void => {
          while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
        };
        pump();
        return;
      }
      // Never answered: the deadline ends the try.
      if (n === 4) return;
      res.statusCode = n === 3 ? 500 : 200;
      res.end('x');
    });
    const { sender: s, tries } = sender({ timeoutMs: 2_000, maxInFlight: 1 });
    const send = () => s.send({ url: r.url, secret }, event());
    await expect(send()).resolves.toEqual({ ok: true, code: 200 });
    await expect(send()).resolves.toEqual({ ok: true, code: 200 });
    await expect(send()).resolves.toEqual({ ok: false, code: 500, error: 'answered 500' });
    await expect(send()).resolves.toMatchObject({ ok: false, slow: true });
    await expect(send()).resolves.toEqual({ ok: true, code: 200 });
    expect(tries.map((t) => t.outcome)).toEqual(['delivered', 'delivered', 'rejected', 'timeout', 'delivered']);
    // 1 kept, 1 read past the bound (closed), 2 answered 500 whole (kept), 2 unanswered (closed), 3 new.
    expect(r.state.on).toEqual([1, 1, 2, 2, 3]);
    await r.closed(2);
    s.close();
  });

  it('a receiver that closes a kept connection, or answers connection: close, costs a new dial, not a failed try', async () => {
    const { sender: s, tries } = sender({ maxInFlight: 4 });
    // Closed (a reset, then a plain close) as the next try arrives on it: the try goes again on a new connection.
    for (const close of [(socket: net.Socket) => socket.resetAndDestroy(), (socket: net.Socket) => socket.destroy()]) {
      const r = await countingReceiver((req, res, n) => (n === 2 ? close(req.socket) : res.end('ok')));
      await expect(s.send({ url: r.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
      await expect(s.send({ url: r.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
      expect(r.state.on).toEqual([1, 1, 2]);
    }
    // `connection: close`: not kept.
    const closing = await countingReceiver((_q, res) => res.setHeader('connection', 'close').end('ok'));
    for (let i = 0; i < 2; i++) await expect(s.send({ url: closing.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
    expect(closing.state.on).toEqual([1, 2]);
    // Idle connections closed by the receiver (its keep-alive timeout) while kept.
    const idle = await countingReceiver();
    idle.server.keepAliveTimeout = 50;
    await expect(s.send({ url: idle.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
    await idle.closed(1);
    await expect(s.send({ url: idle.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
    expect(idle.state.on).toEqual([1, 2]);
    expect(tries.every((t) => t.outcome === 'delivered')).toBe(true);
    s.close();
  });

  it('a kept connection is closed once idle for idleMs, and at most maxIdlePerHost are kept to one receiver', async () => {
    const r = await countingReceiver();
    const { sender: s } = sender({ maxInFlight: 4, maxIdlePerHost: 2, idleMs: 100 });
    await Promise.all(Array.from({ length: 4 }, () => s.send({ url: r.url, secret }, event())));
    expect(s.idle).toBeLessThanOrEqual(2);
    await r.closed(r.state.connections);
    await until(() => s.idle === 0, 'the kept connections let go');
  });

  it('keeps at most maxInFlight idle connections in all', async () => {
    const receivers = await Promise.all([0, 1, 2].map(() => countingReceiver()));
    const { sender: s } = sender({ maxInFlight: 2 });
    for (const r of receivers) await expect(s.send({ url: r.url, secret }, event())).resolves.toEqual({ ok: true, code: 200 });
    expect(s.idle).toBe(2);
    // The third receiver's connection was not kept.
    await receivers[2].closed(1);
    s.close();
  });
});

describe('retry policy', () => {
  const settings = { firstMs: 5_000, maxMs: 3_600_000, forMs: 86_400_000 };

  it('doubles the step from the first delay up to the longest, each wait between half the step and all of it', () => {
    const low = new ExponentialRetry(settings, () => 0);
    const high = new ExponentialRetry(settings, () => 1 - Number.EPSILON);
    const steps = [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 2_560_000, 3_600_000, 3_600_000];
    steps.forEach((step, i) => {
      expect(low.stepMs(i + 1)).toBe(step);
      expect(low.delayMs(i + 1)).toBe(step / 2);
      expect(high.delayMs(i + 1)).toBe(step);
    });
    expect(low.stepMs(10_000)).toBe(3_600_000);
    expect(low.giveUpAfterMs).toBe(86_400_000);
  });

  it('spreads waits over the whole band', () => {
    let x = 0;
    const policy = new ExponentialRetry(settings, () => (x = (x + 0.37) % 1));
    const waits = Array.from({ length: 200 }, () => policy.delayMs(3));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(10_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(20_000);
    expect(new Set(waits).size).toBeGreaterThan(50);
  });

  it('waits four times longer after a try the receiver left unanswered', () => {
    const low = new ExponentialRetry(settings, () => 0);
    expect([1, 2, 3].map((a) => low.delayMs(a, true))).toEqual([10_000, 20_000, 40_000]);
    expect(low.delayMs(20, true)).toBe(1_800_000);
    // Recorded on the event: a timed-out try's next try comes later than a refused one's.
    const delivery = { eventId: 'w.0', type: 'transfer.delivered', state: 'waiting' as const, attempts: 0 };
    const refusedTry = afterTry(delivery, { ok: false, code: 503, error: 'answered 503' }, low, 0, 0);
    const hungTry = afterTry(delivery, { ok: false, error: 'no answer', slow: true }, low, 0, 0);
    expect([refusedTry.nextAt, hungTry.nextAt]).toEqual([2_500, 10_000]);
  });

  it('is built from the config', () => {
    const policy = retryPolicyFrom({ WATCH_RETRY_FIRST_MS: 100, WATCH_RETRY_MAX_MS: 1_000, WATCH_RETRY_FOR_MS: 60_000 });
    expect([1, 2, 3, 4, 5].map((a) => policy.stepMs(a))).toEqual([100, 200, 400, 800, 1_000]);
    expect(policy.giveUpAfterMs).toBe(60_000);
  });
});
