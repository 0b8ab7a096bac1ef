// Any client connects to the sandbox's chains, as to real nodes: polkadot.js 14 (which Hydration's
// transfer libraries pin, and which reads metadata v14 from state_getMetadata) and 16 (which reads
// the latest version, v16) on every chain, and polkadot-api 2.2 (also v16) over the new JSON-RPC spec
// (chainHead_v1, transaction_v1, transactionWatch_v1, chainSpec_v1), reading every chain and signing and submitting call
// data the service built.
import { createRequire } from 'node:module';
import request from 'supertest';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CHAINS, startChainNode, type ChainNode, type SandboxChainName } from '../../src/sandbox/chain-node';
import { startSandbox, type Sandbox } from '../../src/sandbox/network';
import { testApp } from '../helpers/app';
import { until } from '../helpers/transfer-status';
import { devKeyPair, devSigner, loadPapi } from '../support/papi';

const load = createRequire(__filename);
const api14 = load('polkadot-api-14') as typeof import('@polkadot/api');
const api16 = load('@polkadot/api') as typeof import('@polkadot/api');
const { blake2AsHex } = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
const { Keyring } = load('@polkadot/keyring') as typeof import('@polkadot/keyring');

describe('polkadot.js 14 and 16 on every sandbox chain', () => {
  const nodes = new Map<SandboxChainName, ChainNode>();
  beforeAll(async () => {
    for (const chain of SANDBOX_CHAINS) nodes.set(chain, await startChainNode(chain));
  }, 60_000);
  afterAll(async () => {
    await Promise.all([...nodes.values()].map((n) => n.close()));
  });

  it.each(SANDBOX_CHAINS)('%s: both start, read the same runtime and extrinsic shape, and encode the same call', async (chain) => {
    const node = nodes.get(chain)!;
    const [older, newer] = await Promise.all(
      [api14, api16].map((lib) => lib.ApiPromise.create({ provider: new lib.WsProvider(node.url), noInitWarn: true, throwOnConnect: true })),
    );
    try {
      for (const api of [older!, newer!]) expect(api.runtimeVersion.specVersion.toNumber()).toBe(node.runtimeVersion.specVersion);
      // 16 reads the latest version served; 14 falls back to state_getMetadata (v14) when the latest is one it does not know.
      expect([older!.runtimeMetadata.version, newer!.runtimeMetadata.version]).toEqual([14, 16]);
      expect(older!.registry.signedExtensions).toEqual(newer!.registry.signedExtensions);
      const remark = (api: typeof older) => api!.tx.system!.remark!('0x1234').method.toHex();
      expect(remark(older)).toBe(remark(newer));
    } finally {
      await Promise.all([older?.disconnect(), newer?.disconnect()]);
    }
  }, 60_000);

  it('state_getMetadata answers v14, as a real node does (later versions come through Metadata_metadata_at_version); :code changes with the runtime version', async () => {
    const node = await startChainNode('Hydration');
    const provider = new api16.WsProvider(node.url);
    const api = await api16.ApiPromise.create({ provider, noInitWarn: true });
    try {
      const raw = await provider.send<string>('state_getMetadata', []);
      // `meta`, then the version byte.
      expect(raw.slice(0, 12)).toBe('0x6d6574610e');
      expect(api.runtimeMetadata.version).toBe(16);
      // `:code` is a stand-in (no wasm), whose hash changes with the runtime version.
      const code = await provider.send<string | null>('state_getStorage', ['0x3a636f6465']);
      expect(code).toMatch(/^0x[0-9a-f]+$/);
      node.setSpecVersion(node.runtimeVersion.specVersion + 1);
      expect(await provider.send<string | null>('state_getStorage', ['0x3a636f6465'])).not.toBe(code);
    } finally {
      await api.disconnect();
      await node.close();
    }
  });
});

describe('polkadot-api 2 on the sandbox', () => {
  // No listening service here (test/support/sandbox-service.ts): its connections would hold subscriptions of their own on the chains.
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ chains: ['Polkadot', 'AssetHubPolkadot'], blockMs: 200, basePort: 0 });
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it.each(SANDBOX_CHAINS)('%s: reads the runtime from the latest metadata served (v16), and encodes the call polkadot.js 16 encodes', async (chain) => {
    const node = await startChainNode(chain);
    const { createClient, Binary, getWsProvider } = await loadPapi('polkadot-api-2');
    const client = createClient(getWsProvider(node.url));
    const api = await api16.ApiPromise.create({ provider: new api16.WsProvider(node.url), noInitWarn: true, throwOnConnect: true });
    try {
      const versions = api.createType('Vec<u32>', await api.rpc.state.call('Metadata_metadata_versions', '0x'));
      // Every version a real node serves.
      expect(versions.map((v) => v.toNumber())).toEqual([14, 15, 16]);
      const statics = await client.getUnsafeApi().getStaticApis!();
      expect(statics.constants.System.Version.spec_version).toBe(node.runtimeVersion.specVersion);
      const remark = Buffer.from(statics.tx.System.remark.getEncodedData({ remark: Binary.fromHex('0x1234') })).toString('hex');
      expect(`0x${remark}`).toBe(api.tx.system!.remark!('0x1234').method.toHex());
    } finally {
      client.destroy();
      await api.disconnect();
      await node.close();
    }
  });

  it('connects over chainHead_v1, signs the call data /x-transfer built, submits it with transaction_v1 and sees it included', async () => {
    const ferdie = new Keyring({ type: 'sr25519', ss58Format: 0 }).addFromUri('//Ferdie');
    const { app, services } = testApp({ CHAIN_ENDPOINTS: JSON.stringify(sandbox.endpoints) });
    let hex: string;
    try {
      const built = await request(app)
        .post('/v5/x-transfer')
        .send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ferdie.address });
      expect(built.status).toBe(200);
      hex = built.body as string;
    } finally {
      await services.close();
    }

    const papi = await loadPapi('polkadot-api-2');
    const { createClient, Binary, getWsProvider } = papi;
    expect(Buffer.from((await devKeyPair('Ferdie')).publicKey)).toEqual(Buffer.from(ferdie.publicKey));
    const signer = await devSigner(papi, 'Ferdie');

    const relay = sandbox.nodes.Polkadot!;
    const client = createClient(getWsProvider(relay.url));
    try {
      const spec = await client.getChainSpecData();
      expect(spec).toMatchObject({ name: 'Polkadot', genesisHash: relay.blockHash(0), properties: { tokenSymbol: 'DOT' } });
      const tx = await client.getUnsafeApi().txFromCallData(Binary.fromHex(hex));
      const result = await tx.signAndSubmit(signer);
      expect(result.ok).toBe(true);
      // The fee's withdrawal and payment events come with it, as on a real chain.
      const events = result.events.map((e) => `${e.type}.${e.value.type}`);
      expect(events.filter((e) => e === 'XcmPallet.Sent' || e.startsWith('System.'))).toEqual(['XcmPallet.Sent', 'System.ExtrinsicSuccess']);
      expect(events).toContain('TransactionPayment.TransactionFeePaid');
    } finally {
      client.destroy();
    }
    // Its follow subscription ends with the socket.
    await until(() => relay.openSubscriptions === 0, 'the follow subscription to end');
  }, 60_000);
});

describe('the new JSON-RPC spec, as a client reads it off the socket', () => {
  let node: ChainNode;
  let socket: WebSocket;
  const inbox: { id?: number; result?: unknown; error?: { code: number }; method?: string; params?: { subscription: string; result: Record<string, unknown> } }[] = [];
  let nextId = 1;
  beforeAll(async () => {
    node = await startChainNode('Polkadot');
    socket = new WebSocket(node.url);
    socket.on('message', (data) => inbox.push(JSON.parse(String(data)) as (typeof inbox)[number]));
    await new Promise((resolve) => socket.once('open', resolve));
  });
  afterAll(async () => {
    socket?.close();
    await node?.close();
  });

  const call = async (method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number } }> => {
    const id = nextId++;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    await until(() => inbox.some((m) => m.id === id), method);
    return inbox.find((m) => m.id === id)!;
  };
  /** The follow events of `subscription` with `event` (and `operationId`), once there is one. */
  const events = async (subscription: string, event: string, operationId?: string) => {
    const of = () => inbox.filter((m) => m.params?.subscription === subscription && m.params.result['event'] === event && (operationId === undefined || m.params.result['operationId'] === operationId)).map((m) => m.params!.result);
    await until(() => of().length > 0, event);
    return of();
  };

  it('follows blocks (initialized, newBlock, bestBlockChanged, finalized) and answers header, body, storage and call operations', async () => {
    expect(((await call('rpc_methods')).result as { methods: string[] }).methods).toEqual(expect.arrayContaining(['chainHead_v1_follow', 'transaction_v1_broadcast', 'chainSpec_v1_genesisHash']));
    expect((await call('chainSpec_v1_genesisHash')).result).toBe(node.blockHash(0));
    const follow = String((await call('chainHead_v1_follow', [true])).result);
    const [initialized] = await events(follow, 'initialized');
    expect(initialized).toMatchObject({ finalizedBlockHashes: [node.blockHash(node.head())], finalizedBlockRuntime: { type: 'valid', spec: { specName: 'polkadot', specVersion: node.runtimeVersion.specVersion } } });

    const block = node.produceBlock({ extrinsics: ['0x10deadbeef'] });
    expect((await events(follow, 'newBlock'))[0]).toMatchObject({ blockHash: block.hash, parentBlockHash: node.blockHash(block.number - 1), newRuntime: null });
    expect((await events(follow, 'bestBlockChanged'))[0]).toMatchObject({ bestBlockHash: block.hash });
    expect((await events(follow, 'finalized'))[0]).toMatchObject({ finalizedBlockHashes: [block.hash], prunedBlockHashes: [] });

    const header = String((await call('chainHead_v1_header', [follow, block.hash])).result);
    expect(blake2AsHex(Buffer.from(header.slice(2), 'hex'), 256)).toBe(block.hash);

    const body = (await call('chainHead_v1_body', [follow, block.hash])).result as { result: string; operationId: string };
    expect(body.result).toBe('started');
    expect((await events(follow, 'operationBodyDone', body.operationId))[0]).toMatchObject({ value: ['0x10deadbeef'] });

    const storage = (await call('chainHead_v1_storage', [follow, block.hash, [{ key: '0x3a636f6465', type: 'hash' }, { key: '0x3a636f6465', type: 'value' }, { key: '0x00', type: 'value' }], null])).result as { operationId: string };
    const [items] = await events(follow, 'operationStorageItems', storage.operationId);
    expect(items!['items']).toEqual([
      { key: '0x3a636f6465', hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
      { key: '0x3a636f6465', value: expect.stringMatching(/^0x[0-9a-f]+$/) },
    ]);
    await events(follow, 'operationStorageDone', storage.operationId);

    const versions = (await call('chainHead_v1_call', [follow, block.hash, 'Metadata_metadata_versions', '0x'])).result as { operationId: string };
    // Vec<u32> [14, 15, 16]
    expect((await events(follow, 'operationCallDone', versions.operationId))[0]).toMatchObject({ output: '0x0c0e0000000f00000010000000' });
    const unknown = (await call('chainHead_v1_call', [follow, block.hash, 'Nothing_here', '0x'])).result as { operationId: string };
    expect((await events(follow, 'operationError', unknown.operationId))[0]).toMatchObject({ error: expect.stringMatching(/Nothing_here/) });

    expect((await call('chainHead_v1_header', [follow, `0x${'00'.repeat(32)}`])).error).toMatchObject({ code: -32801 });
    expect((await call('chainHead_v1_unpin', [follow, [block.hash]])).result).toBeNull();
    expect((await call('transaction_v1_stop', ['no-such-operation'])).error).toMatchObject({ code: -32602 });
    expect(node.openSubscriptions).toBe(1);
    expect((await call('chainHead_v1_unfollow', [follow])).result).toBeNull();
    expect(node.openSubscriptions).toBe(0);
    // A stale subscription: null, as the spec answers.
    expect((await call('chainHead_v1_header', [follow, block.hash])).result).toBeNull();
  });

  it('watches a submitted transaction (validated, broadcasted, bestChainBlockIncluded, finalized), and tells a refused one why (invalid, dropped)', async () => {
    /** The watch events of `subscription`, once there are `count`. */
    const watchEvents = async (subscription: string, count: number) => {
      const of = () => inbox.filter((m) => m.method === 'transactionWatch_v1_watchEvent' && m.params?.subscription === subscription).map((m) => m.params!.result);
      await until(() => of().length >= count, `${count} events of ${subscription}`);
      return of();
    };
    expect(((await call('rpc_methods')).result as { methods: string[] }).methods).toEqual(expect.arrayContaining(['transactionWatch_v1_submitAndWatch', 'transactionWatch_v1_unwatch']));
    // Without a taker the node takes no transactions: dropped, with the node's error.
    const untaken = String((await call('transactionWatch_v1_submitAndWatch', ['0x10cafe0001'])).result);
    expect(await watchEvents(untaken, 1)).toEqual([{ event: 'dropped', error: 'Method not found' }]);

    const stale = '0x10cafe0002';
    node.onSubmit((hex) => {
      if (hex === stale) throw new Error("Transaction is outdated (nonce 0, the account's next is 1)");
    });
    try {
      const refused = String((await call('transactionWatch_v1_submitAndWatch', [stale])).result);
      expect(await watchEvents(refused, 1)).toEqual([{ event: 'invalid', error: "Invalid Transaction: Transaction is outdated (nonce 0, the account's next is 1)" }]);
      expect((await call('transactionWatch_v1_submitAndWatch', ['not hex'])).error).toMatchObject({ code: -32602 });

      const taken = String((await call('transactionWatch_v1_submitAndWatch', ['0x10cafe0003'])).result);
      const unwatched = String((await call('transactionWatch_v1_submitAndWatch', ['0x10cafe0004'])).result);
      expect(await watchEvents(taken, 2)).toEqual([{ event: 'validated' }, { event: 'broadcasted' }]);
      expect((await call('transactionWatch_v1_unwatch', [unwatched])).result).toBeNull();
      expect((await call('transactionWatch_v1_unwatch', [unwatched])).error).toMatchObject({ code: -32602 });
      const block = node.produceBlock({ extrinsics: ['0x10deadbeef', '0x10cafe0003', '0x10cafe0004'] });
      expect(await watchEvents(taken, 4)).toEqual([
        { event: 'validated' },
        { event: 'broadcasted' },
        { event: 'bestChainBlockIncluded', block: { hash: block.hash, index: 1 } },
        { event: 'finalized', block: { hash: block.hash, index: 1 } },
      ]);
      // Finalized ends the subscription; the unwatched one heard nothing after its validation.
      expect((await call('transactionWatch_v1_unwatch', [taken])).error).toMatchObject({ code: -32602 });
      expect((await watchEvents(unwatched, 0)).map((e) => e['event'])).toEqual(['validated', 'broadcasted']);
      expect([untaken, refused].map((id) => inbox.filter((m) => m.params?.subscription === id).length)).toEqual([1, 1]);
    } finally {
      node.onSubmit(undefined);
    }
  });
});
