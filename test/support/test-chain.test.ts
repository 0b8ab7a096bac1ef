// Proof that the fake node in ./test-chain works with ApiPromise and the SDK's build().
// Hydration's metadata comes from the pinned devDependency @galacticcouncil/descriptors@2.6.0,
// Moonbeam's and BridgeHubPolkadot's from test/fixtures/metadata: when they do not load, those
// cases fail (they never skip).
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { polkadotApi, sdk } from '../../src/sdk';
import type { ApiPromise } from '../../src/sdk';
import type { TCurrencyInputWithAmount, TDestination } from '@paraspell/sdk-pjs';
import {
  TEST_CHAIN_NAMES,
  decodeCall,
  refusedUrl,
  startBlackHole,
  startTestChain,
  type TestChain,
  type TestChainName,
} from './test-chain';
import { never, until } from '../hostile/helpers';

const ALICE_POLKADOT = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** polkadot.js logs failed RPC calls with console.error: expected noise in some tests. */
function muteConsoleError(): void {
  const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  cleanups.push(async () => spy.mockRestore());
}

async function start(chain: TestChainName, silent = false): Promise<TestChain> {
  const c = await startTestChain(chain, { silent });
  cleanups.push(() => c.close());
  return c;
}

function connect(url: string): ApiPromise {
  const api = new polkadotApi.ApiPromise({ provider: new polkadotApi.WsProvider(url), noInitWarn: true });
  // a chain that goes away before the API is ready rejects this promise: not a test failure here
  api.isReadyOrError.catch(() => undefined);
  cleanups.push(() => api.disconnect().catch(() => undefined));
  return api;
}

// api-augment is not loaded in this project, so storage results are plain Codecs to TypeScript
interface AccountInfo {
  nonce: { toNumber(): number };
  data: { free: { toString(): string; isZero(): boolean } };
}

const SPEC_NAMES: Record<TestChainName, string> = {
  Polkadot: 'polkadot',
  AssetHubPolkadot: 'statemint',
  Kusama: 'kusama',
  AssetHubKusama: 'statemine',
  Hydration: 'hydradx',
  Moonbeam: 'moonbeam',
  BridgeHubPolkadot: 'bridge-hub-polkadot',
};

// Moonbeam's accounts are 20-byte Ethereum addresses; the others take SS58.
const ALICE_MOONBEAM = '0xf24FF3a9CF04c71Dbc94D0b566f7A27B94566cac';
const accountOf = (name: TestChainName): string => (name === 'Moonbeam' ? ALICE_MOONBEAM : ALICE_POLKADOT);

describe('test chain: ApiPromise', () => {
  for (const name of TEST_CHAIN_NAMES) {
    it(`${name}: ApiPromise gets ready, empty storage`, async () => {
      const chain = await start(name);
      expect(chain.url).toBe(`ws://127.0.0.1:${chain.port}`);
      expect(chain.metadataHex.startsWith('0x6d657461')).toBe(true);
      const api = connect(chain.url);
      await api.isReady;
      expect(api.runtimeVersion.specName.toString()).toBe(SPEC_NAMES[name]);
      expect(api.runtimeVersion.specName.toString()).toBe(chain.runtimeVersion.specName);
      expect(api.runtimeVersion.specVersion.toNumber()).toBe(chain.runtimeVersion.specVersion);
      expect(api.tx['xcmPallet'] ?? api.tx['polkadotXcm']).toBeDefined();
      expect(api.call['dryRunApi']).toBeDefined();
      const account = (await api.query.system.account(accountOf(name))) as unknown as AccountInfo;
      expect(account.data.free.toString()).toBe('0');
      expect(account.nonce.toNumber()).toBe(0);
      const [a, b] = (await api.query.system.account.multi([accountOf(name), accountOf(name)])) as unknown as AccountInfo[];
      expect(a?.data.free.isZero()).toBe(true);
      expect(b?.data.free.isZero()).toBe(true);
      expect(chain.connectionsOpened).toBe(1);
      expect(chain.openConnections).toBe(1);
      await api.disconnect();
      await until(() => chain.openConnections === 0, 'the api\'s socket to close');
      expect(chain.connectionsOpened).toBe(1);
    });
  }

  it('answers unknown methods with -32601', async () => {
    const chain = await start('Polkadot');
    const provider = new polkadotApi.WsProvider(chain.url);
    cleanups.push(() => provider.disconnect());
    await provider.isReady;
    await expect(provider.send('foo_bar', [])).rejects.toThrow(/-32601/);
    expect(await provider.send('state_getStorage', ['0x1234'])).toBeNull();
    expect(await provider.send('system_chain', [])).toBe('Polkadot');
  });
});

describe('test chain: seeded storage and configured runtime calls', () => {
  it('storage set by a test is read back through ApiPromise, and removed again', async () => {
    const chain = await start('Polkadot');
    const api = connect(chain.url);
    await api.isReady;
    const key = api.query.system.account.key(ALICE_POLKADOT);
    const info = chain.registry.createType('AccountInfo', { nonce: 7, data: { free: 123_456_789_000n } });
    chain.setStorage(key, info.toHex());
    const account = (await api.query.system.account(ALICE_POLKADOT)) as unknown as AccountInfo;
    expect(account.data.free.toString()).toBe('123456789000');
    expect(account.nonce.toNumber()).toBe(7);
    expect(await api.rpc.state.getKeysPaged(key.slice(0, 66), 10)).toHaveLength(1);
    chain.setStorage(key, null);
    const after = (await api.query.system.account(ALICE_POLKADOT)) as unknown as AccountInfo;
    expect(after.data.free.toString()).toBe('0');
  });

  it('BridgeHubPolkadot: the Snowbridge outbound queue mode a test seeds is what ApiPromise reads', async () => {
    const chain = await start('BridgeHubPolkadot');
    const api = connect(chain.url);
    await api.isReady;
    const query = api.query['ethereumOutboundQueue']!['operatingMode']!;
    expect(((await query()) as unknown as { type: string }).type).toBe('Normal');
    chain.setStorage(query.key(), chain.registry.createType('SnowbridgeCoreOperatingModeBasicOperatingMode', 'Halted').toHex());
    expect(((await query()) as unknown as { type: string }).type).toBe('Halted');
  });

  it('a runtime call answers what the test configured, encoded with the metadata output type; a throw is an RPC error', async () => {
    muteConsoleError();
    const chain = await start('AssetHubPolkadot');
    const api = connect(chain.url);
    await api.isReady;
    const seen: number[] = [];
    chain.setRuntimeCall('XcmPaymentApi_query_xcm_weight', (args) => {
      seen.push(args.length);
      return { Ok: { refTime: 1_234_567, proofSize: 890 } };
    });
    const xcm = { V4: [{ ClearOrigin: null }] };
    const weight = (await api.call['xcmPaymentApi']!['queryXcmWeight']!(xcm)) as unknown as { isOk: boolean; asOk: { refTime: { toString(): string } } };
    expect(weight.isOk).toBe(true);
    expect(weight.asOk.refTime.toString()).toBe('1234567');
    expect(seen[0]).toBeGreaterThan(0);
    chain.setRuntimeCall('XcmPaymentApi_query_xcm_weight', () => {
      throw new Error('weight unknown');
    });
    await expect(api.call['xcmPaymentApi']!['queryXcmWeight']!(xcm)).rejects.toThrow(/weight unknown/);
    chain.setRuntimeCall('XcmPaymentApi_query_xcm_weight', undefined);
    await expect(api.call['xcmPaymentApi']!['queryXcmWeight']!(xcm)).rejects.toThrow(/cannot execute runtime call XcmPaymentApi_query_xcm_weight/);
  });
});

/** Builds `from` -> `to` against a test chain for `from`; checks the builder dialled it once and let go. */
async function buildAndDecode(from: TestChainName, to: TDestination, currency: TCurrencyInputWithAmount) {
  const chain = await start(from);
  const builder = sdk
    .Builder({ development: true, apiOverrides: { [from]: chain.url } })
    .from(from)
    .to(to)
    .currency(currency)
    .address(ALICE_POLKADOT);
  cleanups.push(() => builder.disconnect());
  const tx = await builder.build();
  expect(chain.connectionsOpened).toBe(1);
  await builder.disconnect();
  await until(() => chain.openConnections === 0, 'the builder\'s socket to close');
  return { chain, tx, decoded: await decodeCall(chain, tx.method.toHex()) };
}

describe('test chain: SDK build', () => {
  it('Polkadot -> AssetHubPolkadot: xcmPallet.limitedTeleportAssets', async () => {
    const { chain, tx, decoded } = await buildAndDecode('Polkadot', 'AssetHubPolkadot', { symbol: 'DOT', amount: '10000000000' });
    expect(decoded.section).toBe('xcmPallet');
    expect(decoded.method).toBe('limitedTeleportAssets');
    expect(JSON.stringify(decoded.args['dest'])).toContain('"parachain":1000');
    expect(JSON.stringify(decoded.args['assets'])).toContain('10000000000');
    // only call data decodes: the unsigned extrinsic (length + version byte + call) is refused
    await expect(decodeCall(chain, tx.toHex())).rejects.toThrow('Unable to find Call');
  });

  it('AssetHubPolkadot -> Hydration {id: 1984}: polkadotXcm.limitedReserveTransferAssets', async () => {
    const { decoded } = await buildAndDecode('AssetHubPolkadot', 'Hydration', { id: 1984, amount: '1000000' });
    expect(decoded.section).toBe('polkadotXcm');
    expect(decoded.method).toBe('limitedReserveTransferAssets');
    expect(JSON.stringify(decoded.args['dest'])).toContain('"parachain":2034');
    expect(JSON.stringify(decoded.args['assets'])).toContain('"generalIndex":1984');
  });

  it('Moonbeam -> Hydration GLMR: built against Moonbeam\'s real metadata', async () => {
    const { decoded } = await buildAndDecode('Moonbeam', 'Hydration', { symbol: 'GLMR', amount: '1000000000000000000' });
    expect(decoded.section).toBe('polkadotXcm');
    expect(decoded.method).toBe('transferAssets');
    expect(decoded.args['dest']).toEqual({ v4: { parents: 1, interior: { x1: [{ parachain: 2034 }] } } });
    expect(decoded.args['assets']).toEqual({
      v4: [{ id: { parents: 0, interior: { x1: [{ palletInstance: 10 }] } }, fun: { fungible: '1000000000000000000' } }],
    });
  });

  it('BridgeHubPolkadot -> AssetHubPolkadot DOT: built against BridgeHub\'s real metadata', async () => {
    const { decoded } = await buildAndDecode('BridgeHubPolkadot', 'AssetHubPolkadot', { symbol: 'DOT', amount: '10000000000' });
    expect(decoded.section).toBe('polkadotXcm');
    expect(decoded.method).toBe('limitedTeleportAssets');
    expect(decoded.args['dest']).toEqual({ v5: { parents: 1, interior: { x1: [{ parachain: 1000 }] } } });
    expect(decoded.args['assets']).toEqual({ v5: [{ id: { parents: 1, interior: { here: null } }, fun: { fungible: 10000000000 } }] });
  });
});

describe('test chain: SDK build across chains (opt-in partialFee)', () => {
  // Three chains dialled (each a metadata download and decode, Hydration's the largest), a dry run
  // refused and a fee quote: 5 s at load 11, over 30 s at load 17. A hang still fails, at 90 s.
  it('Polkadot -> Hydration DOT goes through Asset Hub and needs a fee quote', { timeout: 90_000 }, async () => {
    muteConsoleError(); // the SDK tries DryRunApi first, which the test chain cannot execute
    const names: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration'];
    const chains = await Promise.all(names.map((n) => startTestChain(n, { partialFee: 150_000_000n })));
    for (const c of chains) cleanups.push(() => c.close());
    const apiOverrides = Object.fromEntries(chains.map((c) => [c.chain, c.url]));
    const builder = sdk
      .Builder({ development: true, apiOverrides })
      .from('Polkadot')
      .to('Hydration')
      .currency({ symbol: 'DOT', amount: '10000000000' })
      .address(ALICE_POLKADOT)
      .senderAddress(ALICE_POLKADOT);
    cleanups.push(() => builder.disconnect());
    const tx = await builder.build();
    const [polkadot] = chains as [TestChain, ...TestChain[]];
    const decoded = await decodeCall(polkadot, tx.method.toHex());
    expect(decoded.section).toBe('xcmPallet');
    expect(decoded.method).toBe('transferAssetsUsingTypeAndThen');
    expect(JSON.stringify(decoded.args['custom_xcm_on_dest'])).toContain('"parachain":2034');
  });
});

describe('test chain: failure modes', () => {
  it('silent chain: connection accepted, never ready', async () => {
    muteConsoleError(); // polkadot.js logs the pending init calls failing on disconnect
    const chain = await start('Polkadot', true);
    const api = connect(chain.url);
    await until(() => chain.openConnections === 1, 'the silent chain to be dialled');
    // A chain that answered would make the api ready in a few ms (its metadata is local).
    await never(() => (api as unknown as { _isReady: boolean })._isReady, 'the api became ready', 500);
    expect(api.isConnected).toBe(true);
    await api.disconnect();
    await until(() => chain.openConnections === 0, 'the api\'s socket to close');
    expect(chain.connectionsOpened).toBe(1);
  });

  it('black hole: counts sockets, never completes the handshake', async () => {
    const hole = await startBlackHole();
    cleanups.push(() => hole.close());
    const provider = new polkadotApi.WsProvider(hole.url, false);
    const connecting = provider.connect().catch(() => undefined);
    await until(() => hole.openConnections === 1, 'the black hole to be dialled');
    // A completed handshake would connect the provider at once.
    await never(() => provider.isConnected, 'the provider connected', 200);
    expect(hole.connectionsOpened).toBe(1);
    await hole.close();
    await connecting;
    await provider.disconnect().catch(() => undefined);
    expect(hole.openConnections).toBe(0);
  });

  it('refused url: nothing listens', async () => {
    const url = await refusedUrl();
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    const provider = new polkadotApi.WsProvider(url, false);
    const errors: unknown[] = [];
    provider.on('error', (e) => errors.push(e));
    await provider.connect().catch(() => undefined);
    await until(() => errors.length > 0, 'the provider\'s connect error');
    expect(provider.isConnected).toBe(false);
    await provider.disconnect().catch(() => undefined);
  });
});

describe('test chain: metadata versions', () => {
  /**
   * The chain lists `served` in Metadata_metadata_versions and answers each of 14, 15, 16 that it
   * lists, and only those: its own metadata as it is, the others with the same pallets. Asked over a
   * bare provider, and each version read as itself: an ApiPromise's decode and decoration, or
   * converting each answer to the latest version, cost more than the check (time-outs at load 17).
   */
  async function expectServed(chain: TestChain, served: number[]): Promise<void> {
    const provider = new polkadotApi.WsProvider(chain.url);
    cleanups.push(() => provider.disconnect());
    await provider.isReady;
    const call = async (fn: string, args: string): Promise<Uint8Array> => Buffer.from(((await provider.send('state_call', [fn, args])) as string).slice(2), 'hex');
    const { Metadata, TypeRegistry } = createRequire(__filename)('@polkadot/types') as typeof import('@polkadot/types');
    const registry = new TypeRegistry();
    const versions = registry.createType('Vec<u32>', await call('Metadata_metadata_versions', '0x'));
    expect(versions.map((v) => v.toNumber())).toEqual(served);
    const palletsOf = (metadata: InstanceType<typeof Metadata>): string[] =>
      (metadata.version === 14 ? metadata.asV14 : metadata.version === 15 ? metadata.asV15 : metadata.asV16).pallets.map((p) => p.name.toString());
    const own = new Metadata(new TypeRegistry(), chain.metadataHex);
    for (const version of [14, 15, 16]) {
      const answer = registry.createType('Option<Bytes>', await call('Metadata_metadata_at_version', `0x${Buffer.from(Uint32Array.of(version).buffer).toString('hex')}`));
      expect(answer.isSome, `v${version}`).toBe(served.includes(version));
      if (answer.isNone) continue;
      const bytes = answer.unwrap().toU8a(true);
      if (version === own.version) {
        expect(Buffer.from(bytes).toString('hex'), `v${version}`).toBe(chain.metadataHex.slice(2));
        continue;
      }
      // The bytes are that version of this runtime: polkadot.js reads the same pallets from them.
      const metadata = new Metadata(new TypeRegistry(), bytes);
      expect(metadata.version).toBe(version);
      expect(palletsOf(metadata)).toEqual(palletsOf(own));
    }
  }

  // As real nodes do (Moonbeam 4401 and BridgeHubPolkadot 2003000 included). Three metadata decodes
  // (and the node's first projections of its chain): 1.5-3 s idle, Hydration's over 30 s at load 24.
  it.each(TEST_CHAIN_NAMES)(
    '%s: serves v14, v15 and v16 through Metadata_metadata_at_version',
    async (name) => {
      await expectServed(await start(name), [14, 15, 16]);
    },
    90_000,
  );

  it('metadataVersions: a node that serves fewer (here no v15) lists and answers only those; v14 is always served', async () => {
    const chain = await startTestChain('BridgeHubPolkadot', { metadataVersions: [14, 16] });
    cleanups.push(() => chain.close());
    await expectServed(chain, [14, 16]);
    await expect(startTestChain('BridgeHubPolkadot', { metadataVersions: [15, 16] })).rejects.toThrow(/serves metadata v14/);
  });

  it('setSpecVersion: the runtime version and the metadata say the new spec version', async () => {
    const chain = await start('Hydration');
    chain.setSpecVersion(chain.runtimeVersion.specVersion + 5);
    const api = connect(chain.url);
    await api.isReady;
    expect((await api.rpc.state.getRuntimeVersion()).specVersion.toNumber()).toBe(chain.runtimeVersion.specVersion + 5);
    expect(api.consts.system['version']?.toJSON()).toMatchObject({ specVersion: chain.runtimeVersion.specVersion + 5 });
  });
});
