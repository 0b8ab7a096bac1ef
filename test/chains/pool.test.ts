import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asClient, namedBy } from '../../src/chains/clients';
import { ConnectionPool, OwnBudgetSpentError, type ClientBudget, type Lease } from '../../src/chains/pool';
import { createChainScope, type ChainScope } from '../../src/chains/chain-scope';
import { withDeadline } from '../../src/chains/deadline';
import { polkadotApi, sdk } from '../../src/sdk';
import { ApiError, DeadlineExceededError, ProviderUnavailableError } from '../../src/errors';
import {
  decodeCall,
  refusedUrl,
  startBlackHole,
  startTestChain,
  type BlackHole,
  type TestChain,
  type TestChainName,
} from '../support/test-chain';
import { never, until } from '../hostile/helpers';

// Short, for the unreachable cases; reachable chains get a roomy deadline so a busy machine
// (metadata decoding takes a few hundred ms) cannot make them flaky.
const CONNECT_TIMEOUT_MS = 800;
const ROOMY_CONNECT_MS = 10_000;
// Each connection dialled is a metadata download and decode: about 0.4 s idle, 5-7 s at load 17 on
// this 2-core machine. Tests that dial three or more chains one after another get this long (a hang
// still fails, later); the suite's 30 s is for the others.
const SERIAL_DIALS_MS = 90_000;
const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';


const pools: ConnectionPool[] = [];
function newPool(options: Partial<ConstructorParameters<typeof ConnectionPool>[0]> = {}): ConnectionPool {
  const pool = new ConnectionPool({ connectTimeoutMs: ROOMY_CONNECT_MS, idleTimeoutMs: 60_000, maxChains: 10, ...options });
  pools.push(pool);
  return pool;
}

const servers: Array<TestChain | BlackHole> = [];
async function chain(name: TestChainName, options?: { silent?: boolean }): Promise<TestChain> {
  const started = await startTestChain(name, options);
  servers.push(started);
  return started;
}
async function blackHole(): Promise<BlackHole> {
  const started = await startBlackHole();
  servers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  // Clients first: a chain closed before a client's close reaches it closes with 1001 itself,
  // which polkadot.js reports on stderr as a lost subscription.
  // Closing takes a turn of each client's socket: seconds when the machine is busy (load 17).
  await until(() => servers.every((server) => server.openConnections === 0), 'every client to finish closing', 25_000);
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A pool whose connect deadline is the short one the unreachable cases are held to. */
const strictPool = (): ConnectionPool => newPool({ connectTimeoutMs: CONNECT_TIMEOUT_MS });

/**
 * Runs `acquire` expecting the 503 a caller sees: ProviderUnavailableError with Retry-After.
 * (A hang fails on the test timeout; how fast it gives up is measured in bench/, not here.)
 */
async function expectUnavailable(acquire: () => Promise<unknown>): Promise<ProviderUnavailableError> {
  const error = await acquire().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderUnavailableError);
  expect(error).toMatchObject({ status: 503, kind: 'ProviderUnavailableError', headers: { 'Retry-After': '5' } });
  return error as ProviderUnavailableError;
}

describe('ConnectionPool sharing', () => {
  it('serves 100 concurrent acquires over exactly one connection', async () => {
    const polkadot = await chain('Polkadot');
    const pool = newPool();
    const leases = await Promise.all(Array.from({ length: 100 }, () => pool.acquire('Polkadot', [polkadot.url])));
    expect(polkadot.connectionsOpened).toBe(1);
    expect(polkadot.openConnections).toBe(1);
    expect(pool.openCount).toBe(1);
    expect(new Set(leases.map((lease) => lease.api)).size).toBe(1);
    expect((await leases[0].api.rpc.system.chain()).toString()).toBe('Polkadot');
    leases.forEach((lease) => lease.release());
  });

  it('ignores disconnect() from borrowers, forced or not', async () => {
    const polkadot = await chain('Polkadot');
    const pool = newPool();
    const lease = await pool.acquire('Polkadot', [polkadot.url]);
    await lease.api.disconnect();
    lease.release();
    const again = await pool.acquire('Polkadot', [polkadot.url]);
    expect(again.api.isConnected).toBe(true);
    expect(again.api).toBeInstanceOf(polkadotApi.ApiPromise);
    expect(again.api.registry.chainSS58).toBe(0);
    expect(polkadot.connectionsOpened).toBe(1);
    expect(polkadot.openConnections).toBe(1);
    again.release();
  });
});

describe('SDK over the pool', () => {
  let polkadot: TestChain;
  let assetHub: TestChain;
  let pool: ConnectionPool;
  const endpoints = (name: string): readonly string[] => {
    if (name === 'Polkadot') return [polkadot.url];
    if (name === 'AssetHubPolkadot') return [assetHub.url];
    throw new ApiError(400, 'MissingChainApi', `no endpoint for ${name} in this test`);
  };
  const build = (scope: ChainScope) =>
    sdk
      .Builder({ apiOverrides: scope.apiOverrides, development: true })
      .from('Polkadot')
      .to('AssetHubPolkadot')
      .currency({ symbol: 'DOT', amount: '10000000000' })
      .address(ADDRESS);

  // Fresh chains for each test (closed after its pools): the tests count connections, in any order.
  beforeEach(async () => {
    [polkadot, assetHub] = await Promise.all([chain('Polkadot'), chain('AssetHubPolkadot')]);
  });

  it('builds 100 transfers concurrently over one connection that survives the SDK', async () => {
    pool = newPool();
    const scopes = Array.from({ length: 100 }, () => createChainScope(pool, endpoints));
    const builders = scopes.map(build);
    const hexes = await Promise.all(builders.map(async (builder) => (await builder.build()).method.toHex()));
    // The SDK's own disconnect attempts land on the protected api.
    await Promise.all(builders.map((builder) => builder.disconnect()));
    scopes.forEach((scope) => scope.release());

    expect(new Set(hexes).size).toBe(1);
    const call = await decodeCall(polkadot, hexes[0]);
    expect(`${call.section}.${call.method}`).toBe('xcmPallet.limitedTeleportAssets');
    expect(polkadot.connectionsOpened).toBe(1);
    expect(polkadot.openConnections).toBe(1);
    expect(assetHub.connectionsOpened).toBeLessThanOrEqual(1);

    const scope = createChainScope(pool, endpoints);
    await build(scope).build();
    scope.release();
    expect(polkadot.connectionsOpened).toBe(1);
    expect(polkadot.openConnections).toBe(1);
  });

  it('surfaces an error thrown by resolveEndpoints as the SDK call rejection', async () => {
    pool = newPool();
    const scope = createChainScope(pool, endpoints);
    const kusamaBuild = sdk
      .Builder({ apiOverrides: scope.apiOverrides, development: true })
      .from('Kusama')
      .to('AssetHubKusama')
      .currency({ symbol: 'KSM', amount: '10000000000' })
      .address(ADDRESS)
      .build();
    await expect(kusamaBuild).rejects.toMatchObject({ kind: 'MissingChainApi' });
    scope.release();
  });

  it('returns every lease of a scope on release, so the connection can go idle', async () => {
    pool = newPool({ idleTimeoutMs: 50 });
    const scope = createChainScope(pool, endpoints);
    await build(scope).build();
    expect(polkadot.openConnections).toBeGreaterThanOrEqual(1);
    scope.release();
    await until(() => pool.openCount === 0, 'the released connections to go idle and close');
    await until(() => polkadot.openConnections === 0 && assetHub.openConnections === 0, 'sockets to close');
  });
});

describe('ConnectionPool lifetime', () => {
  it('closes a connection once it has been idle for idleTimeoutMs, never while leased', async () => {
    const polkadot = await chain('Polkadot');
    const pool = newPool({ idleTimeoutMs: 100 });
    const lease = await pool.acquire('Polkadot', [polkadot.url]);
    // Three idle timeouts: an idle timer running on a leased connection would have closed it.
    await never(() => polkadot.openConnections === 0, 'the leased connection closed', 300);
    lease.release();
    await until(() => polkadot.openConnections === 0, 'the idle connection to close');
    expect(pool.openCount).toBe(0);

    const again = await pool.acquire('Polkadot', [polkadot.url]);
    expect(polkadot.connectionsOpened).toBe(2);
    again.release();
  });

  it('evicts the least recently used idle connection beyond maxChains', async () => {
    const [polkadot, kusama, assetHubKusama] = await Promise.all([
      chain('Polkadot'),
      chain('Kusama'),
      chain('AssetHubKusama'),
    ]);
    const pool = newPool({ maxChains: 2 });
    const use = async (name: string, url: string): Promise<void> => (await pool.acquire(name, [url])).release();

    await use('Polkadot', polkadot.url);
    await use('Kusama', kusama.url);
    const kusamaUsed = Date.now();
    await until(() => Date.now() > kusamaUsed, 'a later lastUsed stamp than Kusama\'s');
    await use('Polkadot', polkadot.url); // Kusama is now the least recently used
    await use('AssetHubKusama', assetHubKusama.url);

    await until(() => kusama.openConnections === 0, 'Kusama to be evicted');
    expect(polkadot.openConnections).toBe(1);
    expect(assetHubKusama.openConnections).toBe(1);
    expect(pool.openCount).toBe(2);
  }, SERIAL_DIALS_MS);

  it('evicts with maxChains=1, but never a leased connection: over the cap a request is refused at once', async () => {
    const [polkadot, kusama] = await Promise.all([chain('Polkadot'), chain('Kusama')]);
    const pool = newPool({ maxChains: 1 });

    (await pool.acquire('Polkadot', [polkadot.url])).release();
    const kusamaLease = await pool.acquire('Kusama', [kusama.url]);
    await until(() => polkadot.openConnections === 0, 'Polkadot to be evicted');

    // Kusama is leased: no room, and a 503 at once rather than a queue that misses its deadline.
    const refused = pool.acquire('Polkadot', [polkadot.url]);
    await expect(refused).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(refused).rejects.toThrow(/MAX_CHAINS/);
    expect(polkadot.openConnections).toBe(0);
    kusamaLease.release();
    // Once Kusama is idle it can be evicted for Polkadot.
    (await pool.acquire('Polkadot', [polkadot.url])).release();
    await until(() => kusama.openConnections === 0, 'Kusama to be evicted');
  }, SERIAL_DIALS_MS);

  it('close() disconnects everything, rejects pending acquires and later ones', async () => {
    const [polkadot, silent] = await Promise.all([chain('Polkadot'), chain('Kusama', { silent: true })]);
    const pool = newPool({ connectTimeoutMs: 10_000 });
    const lease: Lease = await pool.acquire('Polkadot', [polkadot.url]);
    const pending = pool.acquire('Kusama', [silent.url]);
    await until(() => silent.openConnections === 1, 'the silent chain to be dialled');

    await pool.close();
    await expect(pending).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(pending).rejects.toThrow(/unreachable: the connection pool is closed \(endpoints tried/);
    await until(() => polkadot.openConnections === 0 && silent.openConnections === 0, 'every socket to close');
    expect(pool.openCount).toBe(0);
    lease.release(); // late release after close is harmless
    await expect(pool.acquire('Polkadot', [polkadot.url])).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('forgets a connection that drops, so the next acquire dials again', async () => {
    const polkadot = await chain('Polkadot');
    const pool = newPool();
    (await pool.acquire('Polkadot', [polkadot.url])).release();
    await polkadot.close();
    await until(() => pool.openCount === 0, 'the pool to notice the drop');
    const error = await expectUnavailable(() => pool.acquire('Polkadot', [polkadot.url]));
    expect(error.chain).toBe('Polkadot');
  });
});

describe('ConnectionPool: connections clients name', () => {
  /** A pool whose registry is `registry` (endpoint sets); every other set is named by the client of the work in progress. */
  const clientPool = (registry: string[], clientBudget: ClientBudget, maxChains = 1) =>
    newPool({ maxChains, clientBudget, namedBy: (chain, endpoints) => (registry.includes(endpoints.join(' ')) ? undefined : namedBy(chain, endpoints)) });
  const as = <T>(client: string, work: () => Promise<T>): Promise<T> => asClient(client, work);
  const outcome = (attempt: Promise<Lease>): Promise<string> =>
    attempt.then(
      (lease) => {
        lease.release();
        return 'connected';
      },
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );

  it('connects at 8/s to endpoints a client names never evict the registry\'s idle connection, whatever maxChains, and never meet MAX_CHAINS', async () => {
    const [polkadot, silent] = await Promise.all([chain('Polkadot'), chain('Kusama', { silent: true })]);
    const pool = clientPool([polkadot.url], { total: 8, perClient: 4, perHost: 4 });
    (await pool.acquire('Polkadot', [polkadot.url])).release();

    const attempts: Promise<string>[] = [];
    for (let i = 1; i <= 16; i++) {
      attempts.push(outcome(as('mallory', () => pool.acquire('Kusama', [`${silent.url}/${i}`]))));
      await new Promise((resolve) => setTimeout(resolve, 125));
    }
    const lease = await pool.acquire('Polkadot', [polkadot.url]);
    expect(polkadot.connectionsOpened).toBe(1);
    expect(polkadot.openConnections).toBe(1);
    lease.release();
    await pool.close();
    const messages = await Promise.all(attempts);
    expect(messages.filter((m) => m.includes('MAX_CHAINS'))).toEqual([]);
    expect(messages.filter((m) => m.includes('MAX_OVERRIDE_CONNECTIONS_PER_CLIENT'))).toHaveLength(12);
  });

  it('a connection a client named closes clientIdleTimeoutMs after its last lease, the registry\'s stays for idleTimeoutMs; back-to-back borrows share one connection', async () => {
    const [polkadot, kusama] = await Promise.all([chain('Polkadot'), chain('Kusama')]);
    const pool = newPool({ maxChains: 1, clientIdleTimeoutMs: 300, namedBy: (chain, endpoints) => (endpoints.join(' ') === polkadot.url ? undefined : namedBy(chain, endpoints)) });
    (await pool.acquire('Polkadot', [polkadot.url])).release();
    // Released and borrowed again at once, leased meanwhile for longer than the client's idle time: one connection.
    (await as('alice', () => pool.acquire('Kusama', [kusama.url]))).release();
    const again = await as('alice', () => pool.acquire('Kusama', [kusama.url]));
    await never(() => kusama.openConnections === 0, 'the leased connection closed', 600);
    again.release();
    (await as('alice', () => pool.acquireOwn('Kusama', [kusama.url]))).release();
    expect([kusama.connectionsOpened, kusama.openConnections]).toEqual([1, 1]);
    await until(() => kusama.openConnections === 0 && kusama.openSubscriptions === 0, 'the client\'s idle connection to close at the node');
    expect([polkadot.openConnections, pool.stats()]).toEqual([1, [expect.objectContaining({ chain: 'Polkadot', state: 'open', leases: 0 })]]);
  });

  it('two clients naming the same endpoints get a connection each', async () => {
    const polkadot = await chain('Polkadot');
    const pool = clientPool([], { total: 8, perClient: 4, perHost: 4 });
    (await as('alice', () => pool.acquire('Polkadot', [polkadot.url]))).release();
    (await as('bob', () => pool.acquire('Polkadot', [polkadot.url]))).release();
    (await as('alice', () => pool.acquire('Polkadot', [polkadot.url]))).release();
    expect(polkadot.connectionsOpened).toBe(2);
  });

  it('a client makes room by closing the least recently used idle connection, its own or another client\'s; with every one in use it is refused (503 naming MAX_OVERRIDE_CONNECTIONS)', async () => {
    const [polkadot, kusama, assetHubKusama] = await Promise.all([chain('Polkadot'), chain('Kusama'), chain('AssetHubKusama')]);
    const pool = clientPool([], { total: 2, perClient: 2, perHost: 2 });
    (await as('alice', () => pool.acquire('Polkadot', [polkadot.url]))).release();
    const bobsKusama = await as('bob', () => pool.acquire('Kusama', [kusama.url]));

    // Alice's idle Polkadot (the only idle one) makes room for Bob's Asset Hub; Bob's Kusama in use stays.
    const bobsAssetHub = await as('bob', () => pool.acquire('AssetHubKusama', [assetHubKusama.url]));
    await until(() => polkadot.openConnections === 0, 'Alice\'s idle Polkadot to be closed');
    expect(kusama.openConnections).toBe(1);
    // Both in use: nobody's connection is closed for Alice, who is refused.
    const refused = await as('alice', () => pool.acquire('Polkadot', [polkadot.url])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProviderUnavailableError);
    expect(refused).toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
    expect((refused as Error).message).toContain('(MAX_OVERRIDE_CONNECTIONS)');
    expect(kusama.openConnections + assetHubKusama.openConnections).toBe(2);
    bobsKusama.release();
    bobsAssetHub.release();
  }, SERIAL_DIALS_MS);

  it('two clients leaving their budget of idle connections each do not lock a third out: the least recently used idle one makes room', async () => {
    const polkadot = await chain('Polkadot');
    // Budgets of two: five connections, each a metadata download and decode (about 1 s at load 12,
    // one after another), where budgets of four (nine) took 16-17 s of the 30 s timeout.
    const pool = clientPool([], { total: 4, perClient: 2, perHost: 4 });
    for (const client of ['alice', 'bob']) {
      for (let i = 1; i <= 2; i++) (await as(client, () => pool.acquire('Polkadot', [`${polkadot.url}/${client}/${i}`]))).release();
    }
    expect(polkadot.openConnections).toBe(4);
    const carols = await as('carol', () => pool.acquire('Polkadot', [`${polkadot.url}/carol`]));
    expect(await carols.api.rpc.system.chain().then(String)).toBe('Polkadot');
    expect(polkadot.connectionsOpened).toBe(5);
    await until(() => polkadot.openConnections === 4, 'one idle connection to be closed');
    // The one closed is the least recently used: Alice's first (asking for it again dials again).
    (await as('alice', () => pool.acquire('Polkadot', [`${polkadot.url}/alice/2`]))).release();
    expect(polkadot.connectionsOpened).toBe(5);
    carols.release();
  }, SERIAL_DIALS_MS);

  it('acquireOwn borrows an open shared connection; else dials one of the client\'s own, closing only the client\'s own idle ones, never a shared one or another client\'s (OwnBudgetSpentError)', async () => {
    const [polkadot, kusama, assetHubKusama] = await Promise.all([chain('Polkadot'), chain('Kusama'), chain('AssetHubKusama')]);
    const registry = [polkadot.url, kusama.url, assetHubKusama.url];
    const pool = clientPool(registry, { total: 3, perClient: 1, perHost: 3 });
    (await pool.acquire('Polkadot', [polkadot.url])).release();
    (await as('bob', () => pool.acquire('AssetHubKusama', [`${assetHubKusama.url}/bob`]))).release();
    // The shared Polkadot is open: borrowed as it is. Kusama is not: a connection of Alice's own, which
    // the shared side (maxChains 1, Polkadot idle) does not make room for.
    (await as('alice', () => pool.acquireOwn('Polkadot', [polkadot.url]))).release();
    const alicesKusama = await as('alice', () => pool.acquireOwn('Kusama', [kusama.url]));
    expect([polkadot.connectionsOpened, kusama.connectionsOpened, polkadot.openConnections]).toEqual([1, 1, 1]);
    // Her one connection in use: she is refused rather than Bob's idle one closed.
    const refused = await as('alice', () => pool.acquireOwn('AssetHubKusama', [assetHubKusama.url])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OwnBudgetSpentError);
    expect((refused as Error).message).toContain('(MAX_OVERRIDE_CONNECTIONS_PER_CLIENT)');
    // Idle, her own makes room for her next: still one of hers, Bob's untouched.
    alicesKusama.release();
    (await as('alice', () => pool.acquireOwn('AssetHubKusama', [assetHubKusama.url]))).release();
    await until(() => kusama.openConnections === 0, 'Alice\'s idle Kusama to be closed');
    expect([polkadot.openConnections, assetHubKusama.openConnections, assetHubKusama.connectionsOpened]).toEqual([1, 2, 2]);
    // The total spent by others' idle connections: refused too, nothing of theirs closed.
    (await as('carol', () => pool.acquire('Kusama', [`${kusama.url}/carol`]))).release();
    expect(await as('dave', () => pool.acquireOwn('Kusama', [kusama.url])).catch((error: unknown) => error)).toBeInstanceOf(OwnBudgetSpentError);
    expect([kusama.openConnections, kusama.connectionsOpened]).toEqual([1, 2]);
  }, SERIAL_DIALS_MS);

  it('every path on one host is that host: /1 ... /32 take MAX_OVERRIDE_CONNECTIONS_PER_HOST connections, another host still connects', async () => {
    const [silent, polkadot] = await Promise.all([chain('Kusama', { silent: true }), chain('Polkadot')]);
    const pool = clientPool([], { total: 32, perClient: 32, perHost: 2 });
    const attempts = Array.from({ length: 32 }, (_, i) => outcome(as('mallory', () => pool.acquire('Kusama', [`${silent.url}/${i + 1}`]))));
    const lease = await as('mallory', () => pool.acquire('Polkadot', [polkadot.url]));
    lease.release();
    expect(silent.connectionsOpened).toBe(2);
    await pool.close();
    const messages = await Promise.all(attempts);
    expect(messages.filter((m) => m.includes('MAX_OVERRIDE_CONNECTIONS_PER_HOST'))).toHaveLength(30);
  });
});

describe('ConnectionPool failover and unreachable chains', () => {
  it('moves past a refused endpoint to a good one', async () => {
    const polkadot = await chain('Polkadot');
    const refused = await refusedUrl();
    const pool = newPool();
    const lease = await pool.acquire('Polkadot', [refused, polkadot.url]);
    expect(polkadot.connectionsOpened).toBe(1);
    expect((await lease.api.rpc.system.chain()).toString()).toBe('Polkadot');
    lease.release();
  });

  it('moves past a black hole to a good one: the hole gets its share of the connect deadline, not all of it', async () => {
    const [polkadot, hole] = await Promise.all([chain('Polkadot'), blackHole()]);
    // The black hole gets half of the deadline, the good endpoint the rest (had the hole taken it
    // all, the good endpoint would never be dialled and the acquire would fail). Half is 6 s: the
    // good endpoint's metadata decode took more than 2 s at load 17.
    const pool = newPool({ connectTimeoutMs: 12_000 });
    const lease = await pool.acquire('Polkadot', [hole.url, polkadot.url]);
    expect(hole.connectionsOpened).toBe(1);
    expect(polkadot.connectionsOpened).toBe(1);
    await until(() => hole.openConnections === 0, 'the abandoned black-hole socket to close');
    lease.release();
  });

  it('rejects a refused port with ProviderUnavailableError naming chain and endpoints', async () => {
    const refused = await refusedUrl();
    const pool = strictPool();
    const error = await expectUnavailable(() => pool.acquire('Polkadot', [refused]));
    expect(error.status).toBe(503);
    expect(error.chain).toBe('Polkadot');
    expect(error.endpoints).toEqual([refused]);
    expect(error.message).toContain(refused);
    expect(pool.openCount).toBe(0);
  });

  it('rejects a black hole and leaves no socket open; a failure is not cached', async () => {
    const hole = await blackHole();
    const pool = strictPool();
    await expectUnavailable(() => pool.acquire('Polkadot', [hole.url]));
    await until(() => hole.openConnections === 0, 'the black-hole socket to close');
    await expectUnavailable(() => pool.acquire('Polkadot', [hole.url]));
    expect(hole.connectionsOpened).toBe(2);
    await until(() => hole.openConnections === 0, 'the second black-hole socket to close');
  });

  it('rejects a chain that accepts but never answers and leaves no socket open', async () => {
    const silent = await chain('Polkadot', { silent: true });
    const pool = strictPool();
    const error = await expectUnavailable(() => pool.acquire('Polkadot', [silent.url]));
    expect(error.endpoints).toEqual([silent.url]);
    expect(silent.connectionsOpened).toBe(1);
    await until(() => silent.openConnections === 0, 'the silent-chain socket to close');
    expect(pool.openCount).toBe(0);
  });

  it('tries several dead endpoints in one connect deadline, each in its share, and names them all', async () => {
    const [hole, silent] = await Promise.all([blackHole(), chain('Polkadot', { silent: true })]);
    const refused = await refusedUrl();
    const pool = strictPool();
    const error = await expectUnavailable(() => pool.acquire('Polkadot', [refused, hole.url, silent.url]));
    // Every endpoint was dialled: the hole did not take the deadline, and the last one ran out of its share.
    expect(error.endpoints).toEqual([refused, hole.url, silent.url]);
    expect(error.message).toMatch(/unreachable: no ready answer within \d+ ms/);
    await until(() => hole.openConnections === 0 && silent.openConnections === 0, 'abandoned sockets to close');
  });

  it('stops waiting when the caller aborts, while others keep the shared attempt', async () => {
    const polkadot = await chain('Polkadot');
    const pool = newPool();
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(pool.acquire('Polkadot', [polkadot.url], controller.signal)).rejects.toBe(reason);

    const late = new AbortController();
    const aborted = pool.acquire('Polkadot', [polkadot.url], late.signal);
    const patient = pool.acquire('Polkadot', [polkadot.url]);
    late.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    const lease = await patient;
    expect(polkadot.connectionsOpened).toBe(1);
    lease.release();
  });
});

describe('withDeadline', () => {
  it('rejects an overrun with DeadlineExceededError and aborts the signal', async () => {
    let seen: AbortSignal | undefined;
    const work = withDeadline(
      (signal) => {
        seen = signal;
        return new Promise<never>(() => undefined);
      },
      50,
      'a hanging call',
    );
    await expect(work).rejects.toBeInstanceOf(DeadlineExceededError);
    await expect(work).rejects.toMatchObject({ status: 504, message: expect.stringContaining('a hanging call') });
    expect(seen?.aborted).toBe(true);
  });

  it('passes results and ApiErrors through', async () => {
    await expect(withDeadline(async () => 42, 1_000, 'quick')).resolves.toBe(42);
    const error = new ApiError(400, 'InvalidInput', 'bad input');
    await expect(withDeadline(async () => Promise.reject(error), 1_000, 'failing')).rejects.toBe(error);
  });

  it('bounds a pool acquire on a silent chain', async () => {
    const silent = await chain('Polkadot', { silent: true });
    const pool = newPool({ connectTimeoutMs: 10_000 });
    await expect(
      withDeadline((signal) => pool.acquire('Polkadot', [silent.url], signal), 200, 'connecting to Polkadot'),
    ).rejects.toBeInstanceOf(DeadlineExceededError);
  });
});
