// POST /x-transfer/watch, GET and DELETE /x-transfer/watch/:id: a transfer followed over the test
// chains on the client's behalf, and each change of its status POSTed to a receiver in the test that
// verifies the Standard Webhooks signature; retries to a receiver that was down; the timeout; only
// the watch's client sees or ends it; the webhook URL guard; the bounds; one head subscription per
// chain however many watches follow it.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app';
import { TIMESTAMP_KEY } from '../../src/sandbox/blocks';
import { hashApiKey } from '../../src/ops/api-keys';
import { createServices } from '../../src/service';
import type { JourneySnapshot, Leg } from '../../src/service/status';
import { compactProgress, resumeOf } from '../../src/service/watch/recorder';
import { statusBody } from '../../src/schemas/status';
import { FAMILIES, expectErrorBody, testApp, testConfig } from '../helpers/app';
import { openApiViolation } from '../helpers/openapi-responses';
import { DOT, signedTransfer, until } from '../helpers/transfer-status';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { startHostileNode } from '../support/hostile-node';
import { startTestChain, type TestChain } from '../support/test-chain';
import { child, extrinsicSuccess, processed, sent } from '../support/xcm-events';

let polkadot: TestChain;
let assetHub: TestChain;
let overrides: Record<string, string>;
let receiver: Receiver;
// Retries come quickly, so that a receiver back up is caught up with at once.
const a = testApp({ IDLE_TIMEOUT_MS: '200', WATCH_RETRY_FIRST_MS: '20', WATCH_RETRY_MAX_MS: '100' });

beforeAll(async () => {
  polkadot = await startTestChain('Polkadot', { partialFee: 1_000_000n });
  assetHub = await startTestChain('AssetHubPolkadot');
  overrides = { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url };
  receiver = await startReceiver();
});

afterAll(async () => {
  await a.services.close();
  await receiver.close();
  await Promise.all([polkadot.close(), assetHub.close()]);
});

let amount = 20n;

/** A teleport Polkadot -> AssetHubPolkadot, signed; `include` puts it in a new Polkadot block. */
async function teleport(include = true) {
  const tx = await signedTransfer(a.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(amount++ * DOT) } }, overrides);
  const block = () => polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
  const origin = include ? block() : undefined;
  const body = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, options: { development: true, apiOverrides: overrides } };
  return { tx, origin, body, include: block, arrive: () => assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] }) };
}

/** `value` and everything it holds, frozen. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const held of Object.values(value)) deepFreeze(held);
    Object.freeze(value);
  }
  return value;
}

const watchBody = (body: object, extra: object = {}) => ({ ...body, webhook: { url: receiver.url, secret: receiver.secret, ...extra } });

/** A watch of a random transfer in any block: final (not-found) at once, one webhook owed to `url`. */
const finalWatch = (url: string, secret: string) => ({
  from: 'Polkadot',
  to: 'AssetHubPolkadot',
  txHash: `0x${randomBytes(32).toString('hex')}`,
  blockHash: `0x${randomBytes(32).toString('hex')}`,
  options: { development: true, apiOverrides: overrides },
  webhook: { url, secret },
});

/** A receiver that accepts and never answers; `close` ends the tries running on it with their sockets. */
async function startHungHost(): Promise<{ port: number; sockets: Set<Socket>; close: () => void }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    socket.on('error', () => undefined);
    socket.resume();
    sockets.add(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const close = (): void => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  return { port: (server.address() as AddressInfo).port, sockets, close };
}

/** The first deliveries of alpha's watches that were cut (WATCH_DELIVERY_CUT_MS), as GET shows them. */
async function cutTries(app: App, watches: { id: string }[]): Promise<{ lastError?: string }[]> {
  const shown = await Promise.all(watches.map(async ({ id }) => (await request(app).get(`/v5/x-transfer/watch/${id}`).set('x-api-key', 'alpha-key')).body.deliveries[0] as { lastError?: string }));
  return shown.filter((d) => d.lastError?.includes('(cut: '));
}

type App = typeof a.app;
type Shown = { deliveries?: { state: string }[] };

/** GET the watch until `done` holds of its body (a delivery is recorded just after the receiver answered). */
async function shownWhen(app: App, path: string, done: (body: Shown) => boolean) {
  let res = await request(app).get(path);
  const end = Date.now() + 10_000;
  while (!done(res.body as Shown) && Date.now() < end) res = await request(app).get(path);
  return res;
}

async function watch(app: App, body: object, family: string = 'v5', key?: string): Promise<{ id: string; secret: string; status: { status: string } }> {
  const req = request(app).post(`/${family}/x-transfer/watch`);
  if (key) req.set('x-api-key', key);
  const res = await req.send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(openApiViolation('post', `/${family}/x-transfer/watch`, 201, 'application/json', res.body)).toBeUndefined();
  return res.body as { id: string; secret: string; status: { status: string } };
}

const fileBegan = Date.now();

describe('POST /x-transfer/watch', () => {
  it('answers 201 with the id, the secret and the status now; each change is POSTed once, in order, signed (both families)', async () => {
    for (const family of FAMILIES) {
      const { tx, origin, body, arrive } = await teleport();
      const made = await watch(a.app, watchBody(body), family);
      expect(made).toMatchObject({ id: expect.stringMatching(/^[\w-]{24}$/), secret: receiver.secret, status: { status: 'in-flight', final: false } });
      const [first] = await receiver.eventsOf(made.id, 1);
      expect(first!.id).toBe(`${made.id}.0`);
      expect(first!.event).toMatchObject({ type: 'transfer.in-flight', data: { status: 'in-flight', legs: [{ chain: 'Polkadot', state: 'success', blockHash: origin!.hash }, { state: 'pending' }] } });

      const dest = arrive();
      const events = await receiver.eventsOf(made.id, 2);
      expect(events.map((e) => [e.id, e.event.type])).toEqual([
        [`${made.id}.0`, 'transfer.in-flight'],
        [`${made.id}.1`, 'transfer.delivered'],
      ]);
      expect(events[1]!.event.data).toMatchObject({ status: 'delivered', final: true, messageId: tx.topic, legs: [{}, { chain: 'AssetHubPolkadot', state: 'success', blockHash: dest.hash }] });
      expect(new Date(events[1]!.event.timestamp).getTime()).not.toBeNaN();

      // GET shows the end and each delivery (asked in the other family: the same watch).
      const other = family === 'v5' ? 'v2' : 'v5';
      const shown = await shownWhen(a.app, `/${other}/x-transfer/watch/${made.id}`, (b) => b.deliveries?.length === 2 && b.deliveries.every((d) => d.state === 'delivered'));
      expect(shown.status).toBe(200);
      expect(openApiViolation('get', `/${other}/x-transfer/watch/{id}`, 200, 'application/json', shown.body)).toBeUndefined();
      expect(shown.body).toMatchObject({ id: made.id, state: 'final', status: { status: 'delivered' }, webhook: { url: receiver.url } });
      expect(shown.body).not.toHaveProperty('secret');
      expect(shown.body.deliveries).toMatchObject([
        { eventId: `${made.id}.0`, type: 'transfer.in-flight', state: 'delivered', attempts: 1, lastCode: 204 },
        { eventId: `${made.id}.1`, type: 'transfer.delivered', state: 'delivered', attempts: 1, lastCode: 204 },
      ]);
    }
    expect(receiver.forged).toBe(0);
    const ids = receiver.accepted.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);

    const metrics = (await request(a.app).get('/metrics')).text;
    expect(metrics).toMatch(/^xcm_gateway_webhook_deliveries_total\{outcome="delivered"\} [1-9]/m);
    expect(metrics).toMatch(/^xcm_gateway_webhook_delivery_latency_seconds_count [1-9]/m);
    // The test chains' block timestamps are far from now: a latency starts no earlier than its watch,
    // made after this file began.
    const sum = Number(/^xcm_gateway_webhook_delivery_latency_seconds_sum (\S+)$/m.exec(metrics)![1]);
    const count = Number(/^xcm_gateway_webhook_delivery_latency_seconds_count (\S+)$/m.exec(metrics)![1]);
    expect(sum / count).toBeLessThanOrEqual((Date.now() - fileBegan) / 1000);
    expect(metrics).toMatch(/^xcm_gateway_watches_open \d+$/m);
    expect(metrics).toMatch(/^xcm_gateway_webhook_queue_depth \d+$/m);
  });

  it('made before the extrinsic is in a block: nothing is sent until a block includes it, then each change', async () => {
    const { body, include, arrive } = await teleport(false);
    const made = await watch(a.app, watchBody(body, { secret: undefined }));
    expect(made.status).toMatchObject({ status: 'not-found', final: false });
    expect(made.secret).toMatch(/^whsec_/);
    receiver.secrets.set(made.id, made.secret);
    const origin = include();
    const [first] = await receiver.eventsOf(made.id, 1);
    expect(first!.event).toMatchObject({ type: 'transfer.in-flight', data: { legs: [{ state: 'success', blockHash: origin.hash }, {}] } });
    arrive();
    expect((await receiver.eventsOf(made.id, 2)).map((e) => e.event.type)).toEqual(['transfer.in-flight', 'transfer.delivered']);
  });

  it('a receiver that is down gets every event when it comes back, in order, with the ids it refused', async () => {
    const { body, arrive } = await teleport();
    receiver.down = true;
    try {
      const made = await watch(a.app, watchBody(body));
      await until(() => receiver.refused.some((p) => p.id === `${made.id}.0`), 'a refused try');
      arrive();
      // The second event waits behind the first: nothing of it is tried while the first is not delivered.
      const shown = await request(a.app).get(`/v5/x-transfer/watch/${made.id}`);
      expect(shown.body.deliveries[0]).toMatchObject({ eventId: `${made.id}.0`, attempts: expect.any(Number), lastCode: 503 });
      // (Other tests' watches may be refused meanwhile: the receiver is shared.)
      expect(receiver.refused.filter((p) => p.id.startsWith(`${made.id}.`)).every((p) => p.id === `${made.id}.0`)).toBe(true);
      receiver.down = false;
      const events = await receiver.eventsOf(made.id, 2);
      expect(events.map((e) => e.id)).toEqual([`${made.id}.0`, `${made.id}.1`]);
      // A retry carries the same id and body as the refused try.
      const refusedFirst = receiver.refused.find((p) => p.id === `${made.id}.0`)!;
      expect(events[0]!.body).toBe(refusedFirst.body);
    } finally {
      receiver.down = false;
    }
  });

  it('DELETE ends the watch (204): its events are not delivered, and it is gone (404)', async () => {
    const { body, arrive } = await teleport();
    receiver.down = true;
    let ended: string;
    try {
      const made = await watch(a.app, watchBody(body));
      ended = made.id;
      await until(() => receiver.refused.some((p) => p.id === `${made.id}.0`), 'a refused try');
      expect((await request(a.app).delete(`/v2/x-transfer/watch/${made.id}`)).status).toBe(204);
      expectErrorBody((await request(a.app).get(`/v5/x-transfer/watch/${made.id}`)).body, 404, 'WatchNotFoundError');
      expectErrorBody((await request(a.app).delete(`/v5/x-transfer/watch/${made.id}`)).body, 404, 'WatchNotFoundError');
    } finally {
      receiver.down = false;
    }
    // A watch of the same transfer made now is told everything; the ended one nothing more.
    const control = await watch(a.app, watchBody(body));
    arrive();
    await receiver.eventsOf(control.id, 2);
    expect(receiver.accepted.filter((p) => p.id.startsWith(`${ended}.`))).toEqual([]);
  });

  it('watches of one chain share one finalized-head subscription, released when the last ends', async () => {
    const { body, arrive } = await teleport();
    const made = [await watch(a.app, watchBody(body)), await watch(a.app, watchBody(body, {}), 'v2'), await watch(a.app, watchBody(body))];
    await until(() => a.services.status.watching().some((w) => w.chain === 'AssetHubPolkadot' && w.listeners === 3), 'three watches following');
    expect(assetHub.openSubscriptionsOf('chain_finalizedHead')).toBe(1);
    arrive();
    for (const m of made) await receiver.eventsOf(m.id, 2);
    await until(() => a.services.status.watching().length === 0 && assetHub.openSubscriptionsOf('chain_finalizedHead') === 0, 'the head subscription to go');
  });

  it('a waiting watch holds no connection of its own: while three wait on AssetHubPolkadot, only its head watcher holds it', async () => {
    const { body, arrive } = await teleport();
    const made = [await watch(a.app, watchBody(body)), await watch(a.app, watchBody(body)), await watch(a.app, watchBody(body))];
    await until(() => a.services.status.watching().some((w) => w.chain === 'AssetHubPolkadot' && w.listeners === 3), 'three watches waiting');
    const leases = () => a.services.pool.stats().reduce((n, e) => n + (e.chain === 'AssetHubPolkadot' ? e.leases : 0), 0);
    // Each used to keep the reader of its last read (and its lease) for as long as it waited.
    await until(() => leases() === 1, `AssetHubPolkadot lent once, not ${leases()} times`);
    arrive();
    for (const m of made) await receiver.eventsOf(m.id, 2);
  });

  it('a chain that fails while a watch follows it does not end the watch: it is read again later, and delivers', async () => {
    const hostile = await startHostileNode({ upstream: assetHub.url });
    try {
      const { tx, body } = await teleport();
      const made = await watch(a.app, watchBody({ ...body, options: { development: true, apiOverrides: { ...overrides, AssetHubPolkadot: hostile.url } } }));
      await receiver.eventsOf(made.id, 1);
      let refused = 0;
      hostile.setBehaviour(() => (refused++, 'close'));
      // A new block makes the watch read from the node, which now closes on every request.
      assetHub.produceBlock();
      // Several tries of the follower met a closed connection.
      await until(() => refused >= 3, 'the follower to try the failing node again');
      hostile.setBehaviour(() => 'forward');
      assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });
      expect((await receiver.eventsOf(made.id, 2)).map((e) => e.event.type)).toEqual(['transfer.in-flight', 'transfer.delivered']);
    } finally {
      await hostile.close();
    }
  });

  it('watches whose transfers settled in one origin block share one timestamp search on the next chain', async () => {
    const hostile = await startHostileNode({ upstream: assetHub.url });
    try {
      const txs: Awaited<ReturnType<typeof signedTransfer>>[] = [];
      for (let i = 0; i < 3; i++) txs.push(await signedTransfer(a.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(amount++ * DOT) } }, overrides));
      // The destination 4 blocks ahead of the origin block to come (blocks are stamped by number), whatever the
      // tests before left (they run in any order): the search takes several steps.
      while (assetHub.head() < polkadot.head() + 5) assetHub.produceBlock();
      while (polkadot.head() + 5 < assetHub.head()) polkadot.produceBlock();
      polkadot.produceBlock({ extrinsics: txs.map((tx) => tx.hex), events: txs.flatMap((tx, i) => [sent('XcmPallet', i, child(1000), tx.topic), extrinsicSuccess(i)]) });
      let stamps = 0;
      hostile.setBehaviour((frame) => {
        if (frame.method === 'state_getStorage' && Array.isArray(frame.params) && frame.params[0] === TIMESTAMP_KEY) stamps++;
        return 'forward';
      });
      const options = { development: true, apiOverrides: { ...overrides, AssetHubPolkadot: hostile.url } };
      const body = (tx: (typeof txs)[number]) => watchBody({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, options });
      const first = await watch(a.app, body(txs[0]!));
      const searched = stamps;
      expect(searched, 'a search reads Timestamp.Now at several blocks').toBeGreaterThan(1);
      const made = [first, await watch(a.app, body(txs[1]!)), await watch(a.app, body(txs[2]!))];
      expect(stamps, 'the later watches search no more').toBe(searched);
      assetHub.produceBlock({ events: txs.map((tx) => processed(tx.topic, { Parent: null }, true)) });
      for (const m of made) expect((await receiver.eventsOf(m.id, 2)).map((e) => e.event.type)).toEqual(['transfer.in-flight', 'transfer.delivered']);
    } finally {
      // The chains back in step for the tests after this one.
      for (let i = 0; i < 4; i++) polkadot.produceBlock();
      await hostile.close();
    }
  });

  it('watches made at once on transfers of one origin block read that block once (its events and timestamp, as its extrinsics)', async () => {
    const txs: Awaited<ReturnType<typeof signedTransfer>>[] = [];
    for (let i = 0; i < 4; i++) txs.push(await signedTransfer(a.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(amount++ * DOT) } }, overrides));
    const origin = polkadot.produceBlock({ extrinsics: txs.map((tx) => tx.hex), events: txs.flatMap((tx, i) => [sent('XcmPallet', i, child(1000), tx.topic), extrinsicSuccess(i)]) });
    const readsBefore = polkadot.storageReads.filter((r) => r.at === origin.hash).length;
    const options = { development: true, apiOverrides: overrides };
    const made = await Promise.all(txs.map((tx) => watch(a.app, watchBody({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash, options }))));
    expect(made.map((m) => m.status.status)).toEqual(txs.map(() => 'in-flight'));
    const reads = polkadot.storageReads.filter((r) => r.at === origin.hash).slice(readsBefore);
    // System.Events and Timestamp.Now, once each for the four watches.
    expect(reads.map((r) => r.key).sort()).toEqual([...new Set(reads.map((r) => r.key))].sort());
    expect(reads).toHaveLength(2);
    assetHub.produceBlock({ events: txs.map((tx) => processed(tx.topic, { Parent: null }, true)) });
    for (const m of made) expect((await receiver.eventsOf(m.id, 2)).map((e) => e.event.type)).toEqual(['transfer.in-flight', 'transfer.delivered']);
  });

  it("a read carried on from a watch's record leaves the record as it was: the read shares its legs and changes none in place", async () => {
    const { body, arrive } = await teleport();
    const req = statusBody('v5').parse(body);
    const signal = new AbortController().signal;
    const made = await a.services.status.track(req, signal);
    const answer = made.answer();
    // Frozen: a read that changed the record in place throws (ES modules are strict).
    const record = deepFreeze(compactProgress({ status: answer, resume: resumeOf(made, answer), events: 1 }));
    made.release();
    const before = JSON.stringify(record);
    expect(record.status.status).toBe('in-flight');
    arrive();
    const next = await a.services.status.track(req, signal, record.resume as JourneySnapshot);
    try {
      expect(next.answer().status).toBe('delivered');
      expect((next.snapshot().legs[1] as Leg).state).toBe('success');
    } finally {
      next.release();
    }
    expect(JSON.stringify(record)).toBe(before);
  });

  it('a malformed id is a 400 at params.id; an unknown one a 404', async () => {
    for (const family of FAMILIES) {
      const bad = await request(a.app).get(`/${family}/x-transfer/watch/not-an-id`);
      expectErrorBody(bad.body, 400, 'ValidationError');
      expect(bad.body.details).toMatchObject([{ path: 'params.id' }]);
      expectErrorBody((await request(a.app).get(`/${family}/x-transfer/watch/${'A'.repeat(24)}`)).body, 404, 'WatchNotFoundError');
      expectErrorBody((await request(a.app).delete(`/${family}/x-transfer/watch/${'A'.repeat(24)}`)).body, 404, 'WatchNotFoundError');
    }
  });
});

describe('POST /x-transfer/watch: TRACK_MAX_BLOCKS', () => {
  const few = testApp({ IDLE_TIMEOUT_MS: '200', TRACK_MAX_BLOCKS: '8', WATCH_RETRY_FIRST_MS: '20', WATCH_RETRY_MAX_MS: '100' });
  afterAll(() => few.services.close());

  it('bounds each read, not the watch: past it the watch reads on from where it stopped', async () => {
    const { body, arrive } = await teleport();
    const made = await watch(few.app, watchBody(body));
    await receiver.eventsOf(made.id, 1);
    for (let i = 0; i < 12; i++) assetHub.produceBlock();
    arrive();
    const events = await receiver.eventsOf(made.id, 2);
    expect(events[1]!.event).toMatchObject({ type: 'transfer.delivered', data: { status: 'delivered', final: true } });
    expect(events[1]!.body).not.toContain('TRACK_MAX_BLOCKS');
  });
});

describe('POST /x-transfer/watch: REQUEST_MAX_CHAIN_ITEMS', () => {
  // 16 event records (25 items each): a block of 8 reads, three such blocks would not in one request.
  const tight = testApp({ REQUEST_MAX_CHAIN_ITEMS: '400', WATCH_RETRY_FIRST_MS: '60000', WATCH_RETRY_MAX_MS: '60000' });
  afterAll(() => tight.services.close());

  it('bounds each block the head watcher reads, not the sum of the blocks a watch follows', async () => {
    // A watch joining a head watcher that has checked no block yet reads up to the head itself, and
    // could read the busy blocks below in one request: an earlier watch starts the head watcher,
    // which checks a block before the watch under test joins (and reads nothing itself).
    const earlier = await watch(tight.app, watchBody((await teleport()).body));
    await receiver.eventsOf(earlier.id, 1);
    const headWatch = () => tight.services.status.watching().find((w) => w.chain === 'AssetHubPolkadot');
    await until(() => headWatch()?.listeners === 1 && assetHub.openSubscriptionsOf('chain_finalizedHead') >= 1, 'the head watcher subscribed');
    assetHub.produceBlock();
    await until(() => headWatch()?.checked !== undefined, 'the head watcher checking blocks');
    const { body, arrive } = await teleport();
    const made = await watch(tight.app, watchBody(body));
    await receiver.eventsOf(made.id, 1);
    await until(() => headWatch()?.listeners === 2, 'the watch following');
    const others = (n: number) => Array.from({ length: 8 }, (_, i) => processed(`0x${(n * 8 + i + 1).toString(16).padStart(64, '0')}` as `0x${string}`, { Parent: null }, true));
    for (let n = 0; n < 4; n++) assetHub.produceBlock({ events: others(n) });
    arrive();
    // A chain failure would have the follower wait WATCH_RETRY_FIRST_MS (a minute) before reading again.
    const events = await receiver.eventsOf(made.id, 2);
    expect(events.map((e) => e.event.type)).toEqual(['transfer.in-flight', 'transfer.delivered']);
  });
});

describe('POST /x-transfer/watch: the timeout', () => {
  const short = testApp({ IDLE_TIMEOUT_MS: '200', WATCH_TIMEOUT_MS: '1500', WATCH_RETRY_FIRST_MS: '20', WATCH_RETRY_MAX_MS: '100' });
  afterAll(() => short.services.close());

  it('nothing settles within WATCH_TIMEOUT_MS: a transfer.timeout event with the status as last read, and the watch ends', async () => {
    const { body } = await teleport();
    const made = await watch(short.app, watchBody(body));
    const events = await receiver.eventsOf(made.id, 2);
    expect(events.map((e) => e.event.type)).toEqual(['transfer.in-flight', 'transfer.timeout']);
    expect(events[1]!.event.data).toMatchObject({ status: 'in-flight', final: false });
    expect((await request(short.app).get(`/v5/x-transfer/watch/${made.id}`)).body).toMatchObject({ state: 'timeout' });
  });
});

describe('POST /x-transfer/watch: the webhook URL', () => {
  // Private addresses refused (the default); `hooks.example` resolves to a private address.
  const config = testConfig({ ALLOW_PRIVATE_OVERRIDES: 'false' });
  const logger = pino({ level: 'silent' });
  const services = createServices(config, logger, { resolve: async (host) => (host === 'hooks.example.com' ? ['10.1.2.3'] : ['93.184.215.14']) });
  const app = createApp({ config, logger, services });
  afterAll(() => services.close());

  const body = (url: unknown) => ({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'ab'.repeat(32)}`, webhook: { url } });

  it.each([
    ['a private address', 'http://127.0.0.1:9/hook', /127\.0\.0\.1/],
    ['a name that resolves to a private address', 'https://hooks.example.com/hook', /10\.1\.2\.3/],
    ['credentials in the URL', 'https://user:hunter2@example.com/hook', /credentials/],
    ['another scheme', 'ftp://example.com/hook', /http/],
    ['no URL at all', 'not a url', /http/],
  ])('%s: 400 at body.webhook.url that does not echo a password (both families)', async (_what, url, says) => {
    for (const family of FAMILIES) {
      const res = await request(app).post(`/${family}/x-transfer/watch`).send(body(url));
      expectErrorBody(res.body, 400, 'ValidationError');
      expect(res.body.details).toMatchObject([{ path: 'body.webhook.url' }]);
      expect(`${res.body.message} ${res.body.details[0].message}`).toMatch(says);
      expect(res.text).not.toContain('hunter2');
    }
  });

  it('the refusal of a private receiver names the setting that allows it, ALLOW_PRIVATE_OVERRIDES', async () => {
    const res = await request(app).post('/v5/x-transfer/watch').send(body('http://127.0.0.1:9/hook'));
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(res.body.message).toMatch(/ALLOW_PRIVATE_OVERRIDES=true/);
  });

  it('/status says only public receivers are called', async () => {
    expect((await request(app).get('/status')).body.watches).toMatchObject({ localReceivers: false });
  });

  it('a secret not in the whsec_ form is a 400 at body.webhook.secret', async () => {
    const res = await request(app)
      .post('/v5/x-transfer/watch')
      .send({ ...body('https://example.com/hook'), webhook: { url: 'https://example.com/hook', secret: 'plain' } });
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(res.body.details).toMatchObject([{ path: 'body.webhook.secret' }]);
  });
});

describe('POST /x-transfer/watch: whose watch, and the bounds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'xcm-watch-keys-'));
  const file = join(dir, 'keys.json');
  const keys = ['alpha', 'beta', 'gamma'];
  writeFileSync(file, JSON.stringify(keys.map((name) => ({ name, sha256: hashApiKey(`${name}-key`), perMinute: 0, chainPerMinute: 0 }))));
  const bounded = testApp({ IDLE_TIMEOUT_MS: '200', API_KEYS_FILE: file, MAX_WATCHES: '2', MAX_WATCHES_PER_CLIENT: '1' });
  afterAll(() => bounded.services.close());

  it('only the key that made a watch sees or ends it (404 to anyone else); a client holds MAX_WATCHES_PER_CLIENT (429), the service MAX_WATCHES (503)', async () => {
    const { body } = await teleport();
    const mine = await watch(bounded.app, watchBody(body), 'v5', 'alpha-key');
    for (const key of ['beta-key', undefined]) {
      const get = request(bounded.app).get(`/v5/x-transfer/watch/${mine.id}`);
      const del = request(bounded.app).delete(`/v5/x-transfer/watch/${mine.id}`);
      if (key) [get, del].forEach((r) => r.set('x-api-key', key));
      expectErrorBody((await get).body, 404, 'WatchNotFoundError');
      expectErrorBody((await del).body, 404, 'WatchNotFoundError');
    }
    expect((await request(bounded.app).get(`/v2/x-transfer/watch/${mine.id}`).set('x-api-key', 'alpha-key')).status).toBe(200);

    const again = await request(bounded.app).post('/v5/x-transfer/watch').set('x-api-key', 'alpha-key').send(watchBody(body));
    expectErrorBody(again.body, 429, 'TooManyWatchesError');
    expect(again.body.message).toContain('MAX_WATCHES_PER_CLIENT');
    expect(openApiViolation('post', '/v5/x-transfer/watch', 429, 'application/json', again.body)).toBeUndefined();

    await watch(bounded.app, watchBody(body), 'v2', 'beta-key');
    const full = await request(bounded.app).post('/v5/x-transfer/watch').set('x-api-key', 'gamma-key').send(watchBody(body));
    expectErrorBody(full.body, 503, 'TooManyWatchesError');
    expect(full.body.message).toContain('MAX_WATCHES');
    expect(openApiViolation('post', '/v5/x-transfer/watch', 503, 'application/json', full.body)).toBeUndefined();

    // Ending one makes room.
    expect((await request(bounded.app).delete(`/v5/x-transfer/watch/${mine.id}`).set('x-api-key', 'alpha-key')).status).toBe(204);
    await watch(bounded.app, watchBody(body), 'v5', 'gamma-key');
  });

  it('a watch already final when made counts against MAX_WATCHES_PER_CLIENT until its webhook is delivered (both families)', async () => {
    const owed = await startReceiver();
    owed.down = true;
    const app = testApp({ IDLE_TIMEOUT_MS: '200', MAX_WATCHES_PER_CLIENT: '2', WATCH_RETRY_FIRST_MS: '20', WATCH_RETRY_MAX_MS: '100' });
    try {
      // Any block hash with a random txHash: final (not-found) at once, one webhook owed.
      const final = () => finalWatch(owed.url, owed.secret);
      const made = [];
      for (const family of FAMILIES) {
        const watched = await watch(app.app, final(), family);
        expect(watched.status).toMatchObject({ status: 'not-found', final: true });
        made.push(watched);
      }
      for (const family of FAMILIES) {
        const third = await request(app.app).post(`/${family}/x-transfer/watch`).send(final());
        expectErrorBody(third.body, 429, 'TooManyWatchesError');
      }
      // Delivered: they no longer count, and stay readable.
      owed.down = false;
      for (const { id } of made) await owed.eventsOf(id, 1);
      for (const { id } of made) await shownWhen(app.app, `/v5/x-transfer/watch/${id}`, (b) => b.deliveries?.[0]?.state === 'delivered');
      await watch(app.app, final(), 'v2');
      expect((await request(app.app).get(`/v5/x-transfer/watch/${made[0]!.id}`)).body).toMatchObject({ state: 'final', deliveries: [{ state: 'delivered' }] });
    } finally {
      await app.services.close();
      await owed.close();
    }
  });

  it('another client\'s webhook goes out while one client\'s receivers hang in every delivery slot: their tries are cut (WATCH_DELIVERY_CUT_MS), shown as unanswered (both families)', async () => {
    // A receiver that accepts and never answers, named localhost (a host of its own: tests stay on 127.0.0.1); the deadline is far off.
    const hung = await startHungHost();
    const { port, sockets: hungSockets } = hung;
    const app = testApp({ API_KEYS_FILE: file, WATCH_MAX_DELIVERIES: '2', WATCH_DELIVERY_TIMEOUT_MS: '600000', WATCH_DELIVERY_CUT_MS: '200', WATCH_RETRY_FIRST_MS: '60000' });
    try {
      const final = (url: string) => finalWatch(url, receiver.secret);
      const stuck = [];
      for (const path of ['a', 'b']) stuck.push(await watch(app.app, final(`http://localhost:${port}/${path}`), 'v5', 'alpha-key'));
      await until(() => hungSockets.size === 2, 'both slots held by hung tries');
      for (const family of FAMILIES) {
        const mine = await watch(app.app, final(receiver.url), family, 'beta-key');
        await receiver.eventsOf(mine.id, 1);
      }
      // A slot was freed for beta by cutting a hung try (recorded before its slot was given back): shown as unanswered, retried later.
      const cut = await cutTries(app.app, stuck);
      expect(cut.length).toBeGreaterThan(0);
      for (const d of cut) expect(d).toMatchObject({ state: 'retrying', attempts: 1, lastError: expect.stringMatching(/^no answer from localhost:\d+ within \d+ ms \(cut: /) as string });
    } finally {
      hung.close();
      await app.services.close();
    }
  });

  it("another client's webhook to a host whose cap one client's hung receivers hold goes out, with slots free: a hung try is cut (both families)", async () => {
    // Two clients' receivers on one host (localhost): alpha's two hang and hold its cap of 2; the process has 8 slots.
    const hung = await startHungHost();
    const { port, sockets: hungSockets } = hung;
    const app = testApp({ API_KEYS_FILE: file, WATCH_MAX_DELIVERIES: '8', WATCH_MAX_DELIVERIES_PER_HOST: '2', WATCH_DELIVERY_TIMEOUT_MS: '600000', WATCH_DELIVERY_CUT_MS: '200', WATCH_RETRY_FIRST_MS: '60000' });
    try {
      const final = (url: string) => finalWatch(url, receiver.secret);
      const stuck = [];
      for (const path of ['a', 'b']) stuck.push(await watch(app.app, final(`http://localhost:${port}/${path}`), 'v5', 'alpha-key'));
      await until(() => hungSockets.size === 2, "the host's cap held by hung tries");
      const sameHost = new URL(receiver.url);
      sameHost.hostname = 'localhost';
      for (const family of FAMILIES) {
        const mine = await watch(app.app, final(sameHost.href), family, 'beta-key');
        await receiver.eventsOf(mine.id, 1);
      }
      const cut = await cutTries(app.app, stuck);
      expect(cut).toHaveLength(1);
      expect(cut[0]).toMatchObject({ state: 'retrying', attempts: 1 });
    } finally {
      hung.close();
      await app.services.close();
    }
  });

  it('/status says where watches are kept and how many', async () => {
    const res = await request(bounded.app).get('/status');
    expect(res.body.watches).toMatchObject({ backend: 'memory', kept: expect.stringMatching(/end with the process/), counts: { open: expect.any(Number), ended: expect.any(Number), queued: expect.any(Number) } });
  });
});

describe('POST /x-transfer/watch: the chain-dialling rate limit', () => {
  const limited = testApp({ RATE_LIMIT_CHAIN_PER_MINUTE: '1' });
  afterAll(() => limited.services.close());

  it('each POST counts against it; reading a watch does not', async () => {
    const { body } = await teleport();
    const made = await watch(limited.app, watchBody(body));
    expectErrorBody((await request(limited.app).post('/v5/x-transfer/watch').send(watchBody(body))).body, 429, 'RateLimitExceededError');
    expect((await request(limited.app).get(`/v5/x-transfer/watch/${made.id}`)).status).toBe(200);
  });
});
