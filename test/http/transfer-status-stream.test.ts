// POST /x-transfer/status/stream, and /x-transfer/status with `Accept: text/event-stream`: legs as they change, read from new
// finalized blocks the test chains produce while the client listens; one head subscription per
// chain shared by every stream, released (with the chain connection) when the last client goes;
// the stream bound; chains that answer what does not decode.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, SHIPPED_CLIENT_IDLE, expectErrorBody, testApp } from '../helpers/app';
import { openApiViolation } from '../helpers/openapi-responses';
import { DOT, listen, openStream, signedTransfer, until, type OpenStream, type StreamEvent } from '../helpers/transfer-status';
import { answerTo, startHostileNode, type HostileNode } from '../support/hostile-node';
import { rawStream } from '../support/raw-stream';
import { EVENTS_KEY } from '../support/test-blocks';
import { startTestChain, type TestChain } from '../support/test-chain';
import { child, extrinsicSuccess, processed, sent } from '../support/xcm-events';

let polkadot: TestChain;
let assetHub: TestChain;
let overrides: Record<string, string>;
// Idle connections close quickly, so a test can see every connection a stream held go away.
const a = testApp({ IDLE_TIMEOUT_MS: '200', TRACK_MAX_STREAMS: '3' });
const shortLived = testApp({ IDLE_TIMEOUT_MS: '2000', TRACK_TIMEOUT_MS: '1000' });
let server: Awaited<ReturnType<typeof listen>>;
let shortServer: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  polkadot = await startTestChain('Polkadot', { partialFee: 1_000_000n });
  assetHub = await startTestChain('AssetHubPolkadot');
  overrides = { Polkadot: polkadot.url, AssetHubPolkadot: assetHub.url };
  server = await listen(a.app);
  shortServer = await listen(shortLived.app);
});

afterAll(async () => {
  await Promise.all([server.close(), shortServer.close()]);
  await Promise.all([a.services.close(), shortLived.services.close()]);
  await Promise.all([polkadot.close(), assetHub.close()]);
});

/** A teleport Polkadot -> AssetHubPolkadot, signed and included in a new Polkadot block. */
async function includedTeleport(amount: bigint) {
  const tx = await signedTransfer(a.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(amount) } }, overrides);
  const origin = polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
  const body = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, blockHash: origin.hash, options: { development: true, apiOverrides: overrides } };
  return { tx, origin, body };
}

const legOf = (e: StreamEvent | undefined) => e?.data as { chain: string; role: string; state: string; blockHash?: string };

/** The status event's data is a TransferStatus as openapi.yaml documents it. */
function expectDocumentedStatus(family: string, e: StreamEvent | undefined): void {
  expect(e?.event).toBe('status');
  expect(openApiViolation('post', `/${family}/x-transfer/status`, 200, 'application/json', e?.data)).toBeUndefined();
}

async function openBoth(url: string, body: unknown): Promise<[OpenStream, OpenStream]> {
  return [await openStream(`${url}/v5/x-transfer/status`, body), await openStream(`${url}/v2/x-transfer/status`, body)];
}

describe('POST /x-transfer/status as a stream', () => {
  it('sends each leg, then the destination leg when the chain produces its block, then the final status', async () => {
    const { tx, origin, body } = await includedTeleport(11n * DOT);
    const streams = await openBoth(server.url, body);
    for (const s of streams) {
      expect(s.status).toBe(200);
      expect(s.contentType).toMatch(/^text\/event-stream/);
      const [first, second] = [await s.next(), await s.next()];
      expect([first?.event, second?.event]).toEqual(['leg', 'leg']);
      expect(legOf(first)).toMatchObject({ chain: 'Polkadot', role: 'origin', state: 'success', blockHash: origin.hash });
      expect(legOf(second)).toEqual({ chain: 'AssetHubPolkadot', role: 'destination', state: 'pending', events: [] });
    }
    const dest = assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });
    for (const [i, s] of streams.entries()) {
      const leg = await s.next();
      expect(leg?.event).toBe('leg');
      expect(legOf(leg)).toMatchObject({ chain: 'AssetHubPolkadot', role: 'destination', state: 'success', blockHash: dest.hash });
      const status = await s.next();
      expectDocumentedStatus(FAMILIES[i]!, status);
      expect(status?.data).toMatchObject({ status: 'delivered', final: true, messageId: tx.topic });
      expect(await s.next()).toBeUndefined();
    }
  });

  it('/x-transfer/status/stream streams whatever the client accepts, as /x-transfer/status does when asked for a stream', async () => {
    const { tx, body } = await includedTeleport(16n * DOT);
    const streams = [
      await openStream(`${server.url}/v5/x-transfer/status`, body),
      await openStream(`${server.url}/v5/x-transfer/status/stream`, body, undefined),
      await openStream(`${server.url}/v2/x-transfer/status/stream`, body, 'application/json'),
    ];
    const firstLegs = [];
    for (const s of streams) {
      expect([s.status, s.contentType]).toEqual([200, expect.stringMatching(/^text\/event-stream/)]);
      firstLegs.push([await s.next(), await s.next()]);
    }
    expect(firstLegs[1]).toEqual(firstLegs[0]);
    expect(firstLegs[2]).toEqual(firstLegs[0]);
    assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });
    const seen = await Promise.all(streams.map((s) => s.until('status')));
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
    expectDocumentedStatus('v2', seen[2]!.at(-1));
    expect(seen[0]!.at(-1)?.data).toMatchObject({ status: 'delivered', final: true, messageId: tx.topic });
    for (const s of streams) expect(await s.next()).toBeUndefined();
    // Before the stream begins, a bad body is the usual JSON error naming the field.
    const bad = await request(a.app).post('/v2/x-transfer/status/stream').send({ ...body, txHash: '0x1234' });
    expectErrorBody(bad.body, 400, 'ValidationError');
    expect(bad.body.message).toMatch(/txHash/);
  });

  it('follows an extrinsic not yet included: the origin leg appears when a block includes it', async () => {
    const tx = await signedTransfer(a.app, polkadot, { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: String(12n * DOT) } }, overrides);
    const body = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: tx.hash, options: { development: true, apiOverrides: overrides } };
    const streams = await openBoth(server.url, body);
    for (const s of streams) expect(legOf(await s.next())).toEqual({ chain: 'Polkadot', role: 'origin', state: 'not-found', events: [] });
    const origin = polkadot.produceBlock({ extrinsics: [tx.hex], events: [sent('XcmPallet', 0, child(1000), tx.topic), extrinsicSuccess(0)] });
    for (const s of streams) {
      expect(legOf(await s.next())).toMatchObject({ chain: 'Polkadot', state: 'success', blockHash: origin.hash });
      expect(legOf(await s.next())).toMatchObject({ chain: 'AssetHubPolkadot', state: 'pending' });
    }
    assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });
    for (const s of streams) {
      const seen = await s.until('status');
      expect(seen.at(-1)?.data).toMatchObject({ status: 'delivered', final: true });
    }
  });

  it('streams watching one chain share one head subscription and one read of each new block; beyond TRACK_MAX_STREAMS a 503 with Retry-After', async () => {
    const { tx, body } = await includedTeleport(13n * DOT);
    const streams = [...(await openBoth(server.url, body)), await openStream(`${server.url}/v5/x-transfer/status`, body)];
    for (const s of streams) expect((await s.until('leg')).length + (await s.until('leg')).length).toBe(2);
    expect(a.services.status.watching()).toMatchObject([{ chain: 'AssetHubPolkadot', listeners: 3 }]);
    expect(assetHub.openSubscriptionsOf('chain_finalizedHead')).toBe(1);

    for (const family of FAMILIES) {
      const refused = await request(a.app).post(`/${family}/x-transfer/status`).set('accept', 'text/event-stream').send(body);
      expectErrorBody(refused.body, 503, 'TooManyStreamsError');
      expect(refused.headers['retry-after']).toBe('5');
      expectErrorBody((await request(a.app).post(`/${family}/x-transfer/status/stream`).send(body)).body, 503, 'TooManyStreamsError');
      // Asking without a stream still works.
      expect((await request(a.app).post(`/${family}/x-transfer/status`).send(body)).body).toMatchObject({ status: 'in-flight', final: false });
    }

    const empty = assetHub.produceBlock();
    const dest = assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });
    for (const s of streams) expect((await s.until('status')).at(-1)?.data).toMatchObject({ status: 'delivered' });
    const eventReads = (hash: string) => assetHub.storageReads.filter((r) => r.key === EVENTS_KEY && r.at === hash).length;
    expect([eventReads(empty.hash), eventReads(dest.hash)]).toEqual([1, 1]);
    await until(() => a.services.status.openStreams === 0 && assetHub.openSubscriptionsOf('chain_finalizedHead') === 0, 'the streams and their watch to end');
  });

  it('a client that goes away releases its subscription at once, and its connections (counted at the test chains)', async () => {
    const { body } = await includedTeleport(14n * DOT);
    const streams = await openBoth(server.url, body);
    for (const s of streams) expect([(await s.next())?.event, (await s.next())?.event]).toEqual(['leg', 'leg']);
    expect(assetHub.openSubscriptionsOf('chain_finalizedHead')).toBe(1);
    expect(a.services.status.openStreams).toBe(2);
    for (const s of streams) s.close();
    await until(() => a.services.status.openStreams === 0 && a.services.status.watching().length === 0, 'the stream to end');
    await until(() => assetHub.openSubscriptionsOf('chain_finalizedHead') === 0, 'the head subscription to go');
    await until(() => assetHub.openConnections === 0 && polkadot.openConnections === 0 && assetHub.openSubscriptions === 0, 'the idle connections to close');
  });

  /** The nodes' open connections and subscriptions (Polkadot, then the asset hub). */
  const atNodes = () => JSON.stringify({ polkadot: [polkadot.openConnections, polkadot.openSubscriptions], assetHub: [assetHub.openConnections, assetHub.openSubscriptions] });

  /**
   * A service with the idle times as shipped (IDLE_TIMEOUT_MS, CLIENT_IDLE_TIMEOUT_MS), an in-flight
   * transfer it has read once, and the nodes' counts once nothing is held: every connection in this
   * file is to endpoints a client named, closed soon after its last use.
   */
  async function quietNodes(amount: bigint, work: (run: { service: ReturnType<typeof testApp>; url: string; body: unknown; before: string }) => Promise<void>): Promise<void> {
    // Clients told apart by X-Forwarded-For; every request here without it is 127.0.0.1's.
    const service = testApp({ TRUST_PROXY: 'loopback', ...SHIPPED_CLIENT_IDLE });
    const local = await listen(service.app);
    try {
      const { body } = await includedTeleport(amount);
      expect((await request(service.app).post('/v5/x-transfer/status').send(body)).body).toMatchObject({ status: 'in-flight' });
      const pools = [a, shortLived, service].map((app) => app.services.pool);
      await until(() => pools.every((pool) => pool.size === 0) && polkadot.openConnections === 0 && assetHub.openConnections === 0, 'the idle connections to close');
      await work({ service, url: local.url, body, before: atNodes() });
    } finally {
      await local.close();
      await service.services.close();
    }
  }

  const streamsGone = (service: ReturnType<typeof testApp>) =>
    until(() => service.services.status.openStreams === 0 && service.services.status.watching().length === 0, 'the streams and their watch to end');
  // Bounded well past CLIENT_IDLE_TIMEOUT_MS for a busy machine; before it, what a client held stayed IDLE_TIMEOUT_MS (300 s).
  const nodesBack = (before: string) => until(() => atNodes() === before, `the nodes back to ${before} (now ${atNodes()})`, 5_000);

  it('six clients that each destroy their socket mid-stream leave each node\'s connections and subscriptions where they were before, in both families: the issue\'s case', async () => {
    await quietNodes(18n * DOT, async ({ service, url, body, before }) => {
      for (let round = 0; round < 2; round++) {
        const streams = Array.from({ length: 6 }, (_, i) => rawStream(`${url}/${FAMILIES[i % 2]}/x-transfer/status`, body));
        await Promise.all(streams.map((s) => s.legs(2)));
        expect(assetHub.openSubscriptionsOf('chain_finalizedHead')).toBe(1);
        // Blocks keep coming while the clients leave one after another: the watch is reading when the last goes.
        for (const s of streams) {
          assetHub.produceBlock();
          s.destroy();
        }
        await streamsGone(service);
        // The head subscription goes with the last listener; the client's connections CLIENT_IDLE_TIMEOUT_MS later.
        await nodesBack(before);
      }
    });
  });

  it('the head subscription stays while one stream of an in-flight transfer listens and goes when the last client destroys its socket (no timer does it), in both families', async () => {
    await quietNodes(19n * DOT, async ({ service, url, body, before }) => {
      const streams = FAMILIES.flatMap((family) => [rawStream(`${url}/${family}/x-transfer/status`, body), rawStream(`${url}/${family}/x-transfer/status/stream`, body)]);
      await Promise.all(streams.map((s) => s.legs(2)));
      expect(service.services.status.watching()).toMatchObject([{ chain: 'AssetHubPolkadot', listeners: 4 }]);
      const last = streams.pop()!;
      for (const s of streams) s.destroy();
      await until(() => service.services.status.openStreams === 1, 'three streams to end');
      // One still listens: the watch, its subscription and the connections stay, and it still reads.
      expect(service.services.status.watching()).toMatchObject([{ chain: 'AssetHubPolkadot', listeners: 1 }]);
      expect(assetHub.openSubscriptionsOf('chain_finalizedHead')).toBe(1);
      assetHub.produceBlock();
      last.destroy();
      await streamsGone(service);
      await nodesBack(before);
      expect(service.services.pool.size).toBe(0);
    });
  });

  it('streams of another client, over endpoints it names, leave the nodes\' counts where they were while the first client still listens, in both families', async () => {
    await quietNodes(20n * DOT, async ({ service, url, body, before }) => {
      const first = rawStream(`${url}/v5/x-transfer/status`, body);
      await first.legs(2);
      // What the first client holds while it listens: its connections in use (a read's idle one closed).
      const { pool } = service.services;
      await until(() => pool.stats().every((e) => e.leases > 0) && polkadot.openConnections + assetHub.openConnections === pool.openCount, 'the first client\'s idle connections to close');
      const listening = atNodes();
      const others = Array.from({ length: 6 }, (_, i) => rawStream(`${url}/${FAMILIES[i % 2]}/x-transfer/status`, body, { 'X-Forwarded-For': '203.0.113.10' }));
      await Promise.all(others.map((s) => s.legs(2)));
      // They share the first client's head subscription, over connections of their client's own.
      expect(assetHub.openSubscriptionsOf('chain_finalizedHead')).toBe(1);
      for (const s of others) s.destroy();
      await until(() => service.services.status.openStreams === 1, 'the other client\'s streams to end');
      await nodesBack(listening);
      expect(service.services.status.watching()).toMatchObject([{ chain: 'AssetHubPolkadot', listeners: 1 }]);
      first.destroy();
      await streamsGone(service);
      await nodesBack(before);
    });
  });

  it('a client\'s streams over its own connection on the operator\'s shared runtime subscribe and unsubscribe on that connection: the operator\'s connections are all that stays at the nodes', async () => {
    const service = testApp({ CHAIN_ENDPOINTS: JSON.stringify(overrides), ...SHIPPED_CLIENT_IDLE });
    const local = await listen(service.app);
    try {
      const { tx, body } = await includedTeleport(21n * DOT);
      const shared = { from: body.from, to: body.to, txHash: body.txHash, blockHash: body.blockHash };
      // Read over the operator's endpoints: its shared connections stay open and offer their runtime.
      expect((await request(service.app).post('/v5/x-transfer/status').send(shared)).body).toMatchObject({ status: 'in-flight' });
      const { pool } = service.services;
      await until(() => polkadot.openConnections + assetHub.openConnections === pool.openCount && pool.openCount === 2, 'only the operator\'s connections to stay');
      const before = atNodes();
      // Another spelling of the same nodes: the client's own connections, decoding with the shared runtime.
      const own = { ...body, options: { development: true, apiOverrides: { Polkadot: `${polkadot.url}/mine`, AssetHubPolkadot: `${assetHub.url}/mine` } } };
      const streams = FAMILIES.map((family) => rawStream(`${local.url}/${family}/x-transfer/status`, own));
      await Promise.all(streams.map((s) => s.legs(2)));
      expect(assetHub.openSubscriptionsOf('chain_finalizedHead')).toBe(1);
      // The destination's block reaches them through that subscription (before, the watch failed: no provider).
      assetHub.produceBlock({ events: [processed(tx.topic, { Parent: null }, true)] });
      await Promise.all(streams.map((s) => s.legs(3)));
      for (const s of streams) s.destroy();
      await streamsGone(service);
      await nodesBack(before);
      expect(assetHub.openSubscriptionsOf('chain_finalizedHead')).toBe(0);
    } finally {
      await local.close();
      await service.services.close();
    }
  });

  it('when the service drains, open streams end with what they know, and new ones are refused (503)', async () => {
    const draining = testApp({ IDLE_TIMEOUT_MS: '200' });
    const local = await listen(draining.app);
    try {
      const { body } = await includedTeleport(17n * DOT);
      const streams = await openBoth(local.url, body);
      for (const s of streams) await s.until('leg');
      draining.services.drain();
      for (const s of streams) {
        const status = (await s.until('status')).at(-1);
        expect(status?.data).toMatchObject({ status: 'in-flight', final: false, note: expect.stringMatching(/shutting down/) });
        expect(await s.next()).toBeUndefined();
      }
      for (const family of FAMILIES) {
        const refused = await request(draining.app).post(`/${family}/x-transfer/status`).set('accept', 'text/event-stream').send(body);
        expectErrorBody(refused.body, 503, 'ShuttingDownError');
        expect(refused.headers['retry-after']).toBe('1');
      }
    } finally {
      await local.close();
      await draining.services.close();
    }
  });

  it('after TRACK_TIMEOUT_MS the stream ends with what it knows, not final', async () => {
    const { body } = await includedTeleport(15n * DOT);
    // Connected first, so that the second is spent waiting for the destination, not dialling.
    expect((await request(shortLived.app).post('/v5/x-transfer/status').send(body)).body).toMatchObject({ status: 'in-flight' });
    for (const s of await openBoth(shortServer.url, body)) {
      const seen = await s.until('status');
      expect(seen.map((e) => e.event)).toEqual([...seen.slice(0, -1).map(() => 'leg'), 'status']);
      expect(seen.at(-1)?.data).toMatchObject({ final: false, note: expect.stringMatching(/TRACK_TIMEOUT_MS/) });
      expect(await s.next()).toBeUndefined();
    }
  });
});

describe('POST /x-transfer/status against a chain that answers what does not decode', () => {
  let hostile: HostileNode;
  // Its connections close when idle too: the hostile node's own connection to Polkadot goes with them.
  const { app, services } = testApp({ IDLE_TIMEOUT_MS: '200' });

  beforeAll(async () => {
    hostile = await startHostileNode({ upstream: polkadot.url });
  });

  afterAll(async () => {
    await services.close();
    await hostile.close();
  });

  it.each([
    ['a block whose extrinsics are not a list', 'chain_getBlock', { block: { header: { number: '0x65' }, extrinsics: 'not a list' } }],
    ['System.Events that do not decode', 'state_getStorage', '0x0c0102'],
  ])('%s: 502 naming the chain, in both families', async (_what, method, garbage) => {
    const { body } = await includedTeleport(16n * DOT);
    hostile.setBehaviour((frame) => (frame.method === method && (method !== 'state_getStorage' || (frame.params as string[])[0] === EVENTS_KEY) ? { send: answerTo(frame, garbage) } : 'forward'));
    for (const family of FAMILIES) {
      const res = await request(app)
        .post(`/${family}/x-transfer/status`)
        .send({ ...body, options: { development: true, apiOverrides: { ...overrides, Polkadot: hostile.url } } });
      expectErrorBody(res.body, 502, 'ChainResponseError');
      expect(res.body.message).toMatch(/^Chain Polkadot /);
    }
  });
});
