// Connections to endpoints a client named share the decoded runtime (metadata, type registry) of a
// registry connection whose node runs the same runtime, else one decoded from the very same node
// answers (src/chains/runtime-cache.ts), and read through it as any connection.
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeOrigin } from '../../src/chains/connect';
import { ConnectionPool, type Lease } from '../../src/chains/pool';
import { startTestChain, type TestChain, type TestChainOptions } from '../support/test-chain';
import { until } from '../hostile/helpers';

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const pools: ConnectionPool[] = [];
const nodes: TestChain[] = [];
const leases: Lease[] = [];

/** A pool whose registry is `registry` (each chain's endpoint there); any other endpoint is client `client-<path>`'s. */
function poolWith(registry: string[], origins: RuntimeOrigin[] = []): ConnectionPool {
  const pool = new ConnectionPool({
    observer: { acquired: () => undefined, failed: () => undefined, connected: (_chain, _api, runtime) => void origins.push(runtime) },
    connectTimeoutMs: 10_000,
    idleTimeoutMs: 60_000,
    maxChains: 10,
    namedBy: (_chain, endpoints) => (registry.includes(endpoints[0]!) ? undefined : `client-${new URL(endpoints[0]!).pathname}`),
  });
  pools.push(pool);
  return pool;
}

async function node(name: 'Polkadot' | 'Hydration', options?: TestChainOptions): Promise<TestChain> {
  const started = await startTestChain(name, options);
  nodes.push(started);
  return started;
}

async function lease(pool: ConnectionPool, chain: string, url: string): Promise<Lease> {
  const taken = await pool.acquire(chain, [url], new AbortController().signal);
  leases.push(taken);
  return taken;
}

const freeBalance = async (taken: Lease): Promise<string> => ((await taken.api.query.system.account(ADDRESS)) as unknown as { data: { free: { toString(): string } } }).data.free.toString();

afterEach(async () => {
  leases.splice(0).forEach((taken) => taken.release());
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
  await until(() => nodes.every((n) => n.openConnections === 0), 'every client to finish closing');
  await Promise.all(nodes.splice(0).map((n) => n.close()));
});

describe('shared runtimes', () => {
  it('a client-named connection to a runtime a registry connection decoded shares its registry, and reads as well', async () => {
    const polkadot = await node('Polkadot');
    const pool = poolWith([polkadot.url]);
    const registry = await lease(pool, 'Polkadot', polkadot.url);
    const client = await lease(pool, 'Polkadot', `${polkadot.url}/mine`);
    expect(client.api).not.toBe(registry.api);
    expect(client.api.registry).toBe(registry.api.registry);
    expect(client.api.runtimeVersion.specVersion.toNumber()).toBe(registry.api.runtimeVersion.specVersion.toNumber());
    expect(await freeBalance(client)).toBe(await freeBalance(registry));
    // A read at a block (the status service's) is decoded with the shared runtime too.
    const head = await client.api.rpc.chain.getFinalizedHead();
    const events = await (await client.api.at(head)).query.system.events();
    expect(events.toHex()).toBe((await (await registry.api.at(head)).query.system.events()).toHex());
    // Its socket is its own: the node sees two connections.
    expect(polkadot.openConnections).toBe(2);
  });

  it('it keeps reading once the registry connection is gone', async () => {
    const polkadot = await node('Polkadot');
    const pool = poolWith([polkadot.url]);
    const registry = await pool.acquire('Polkadot', [polkadot.url], new AbortController().signal);
    const client = await lease(pool, 'Polkadot', `${polkadot.url}/mine`);
    const expected = await freeBalance(registry);
    registry.release();
    await registry.api.disconnect();
    expect(await freeBalance(client)).toBe(expected);
  });

  it('a node of another runtime gets a registry of its own', async () => {
    const [polkadot, hydration] = await Promise.all([node('Polkadot'), node('Hydration')]);
    const pool = poolWith([polkadot.url]);
    const registry = await lease(pool, 'Polkadot', polkadot.url);
    // A client names a Hydration node as Polkadot's endpoint: its runtime is not Polkadot's.
    const other = await lease(pool, 'Polkadot', `${hydration.url}/as-polkadot`);
    expect(other.api.registry).not.toBe(registry.api.registry);
    expect(other.api.genesisHash.toHex()).not.toBe(registry.api.genesisHash.toHex());
  });

  it('with no registry connection, a client\'s nodes that give the same answers share one decode; other metadata bytes or a runtime upgrade decode their own, and the shared one never changes', async () => {
    const [polkadot, older] = await Promise.all([node('Polkadot'), node('Polkadot', { metadataVersions: [14] })]);
    const origins: RuntimeOrigin[] = [];
    const alone = poolWith([], origins);
    const first = await lease(alone, 'Polkadot', `${polkadot.url}/a`);
    const second = await lease(alone, 'Polkadot', `${polkadot.url}/b`);
    expect(origins).toEqual(['decoded', 'cached']);
    expect(second.api.registry).toBe(first.api.registry);
    expect(await freeBalance(second)).toBe(await freeBalance(first));

    // The same genesis and runtime version, metadata v14 (polkadot.js reads v16 from the other).
    const otherBytes = await lease(alone, 'Polkadot', `${older.url}/c`);
    expect(otherBytes.api.runtimeVersion.specVersion.toNumber()).toBe(first.api.runtimeVersion.specVersion.toNumber());
    expect(otherBytes.api.registry).not.toBe(first.api.registry);
    expect(otherBytes.api.runtimeMetadata.version).toBe(14);
    expect(await freeBalance(otherBytes)).toBe(await freeBalance(first));

    // The node upgrades: a new connection decodes the new runtime; the shared one stays as decoded.
    const specVersion = first.api.runtimeVersion.specVersion.toNumber();
    const metadataHex = first.api.runtimeMetadata.toHex();
    polkadot.setSpecVersion(specVersion + 1);
    const upgraded = await lease(alone, 'Polkadot', `${polkadot.url}/d`);
    expect(origins).toEqual(['decoded', 'cached', 'decoded', 'decoded']);
    expect(upgraded.api.runtimeVersion.specVersion.toNumber()).toBe(specVersion + 1);
    expect(upgraded.api.registry).not.toBe(first.api.registry);
    expect(second.api.runtimeVersion.specVersion.toNumber()).toBe(specVersion);
    expect(second.api.runtimeMetadata.toHex()).toBe(metadataHex);
  });
});
