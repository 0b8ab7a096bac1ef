// Any client connects to the sandbox's chains, as to real nodes: polkadot.js 14 (which Hydration's
// transfer libraries pin, and which reads metadata v14 from state_getMetadata) and 16 on every
// chain, and polkadot-api 2.2 over the new JSON-RPC spec (chainHead_v1, transaction_v1,
// chainSpec_v1), signing and submitting call data the service built.
import { createRequire } from 'node:module';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CHAINS, startChainNode, type ChainNode, type SandboxChainName } from '../../src/sandbox/chain-node';
import { startSandbox, type Sandbox } from '../../src/sandbox/network';
import { testApp } from '../helpers/app';
import { until } from '../helpers/transfer-status';

const load = createRequire(__filename);
const api14 = load('polkadot-api-14') as typeof import('@polkadot/api');
const api16 = load('@polkadot/api') as typeof import('@polkadot/api');
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

// polkadot-api 2 ships as ES modules only: loaded with import(), typed here for what the test uses.
interface PapiEvent {
  type: string;
  value: { type: string };
}
interface PapiClient {
  getChainSpecData(): Promise<{ name: string; genesisHash: string; properties: Record<string, unknown> }>;
  getUnsafeApi(): { txFromCallData(data: unknown): Promise<{ signAndSubmit(signer: unknown): Promise<{ ok: boolean; events: PapiEvent[]; block: { hash: string; index: number } }> }> };
  destroy(): void;
}
interface Papi {
  createClient(provider: unknown): PapiClient;
  Binary: { fromHex(hex: string): unknown };
}
const importEsm = <T>(specifier: string): Promise<T> => import(specifier) as Promise<T>;

/** The secret seed of the development phrase ("bottom drive obey ..."), the root of //Alice ... //Ferdie. */
const DEV_MINI_SECRET = '0xfac7959dbfe72f052e5a0c3c8d6530f202b02fd8f9f5ca3580ec8deb7797479e';

describe('polkadot-api 2 on the sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ chains: ['Polkadot', 'AssetHubPolkadot'], blockMs: 200, basePort: 0 });
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
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

    const { createClient, Binary } = await importEsm<Papi>('polkadot-api-2');
    const { getWsProvider } = await importEsm<{ getWsProvider(url: string): unknown }>('polkadot-api-2/ws');
    const { getPolkadotSigner } = await importEsm<{ getPolkadotSigner(publicKey: Uint8Array, type: 'Sr25519', sign: (m: Uint8Array) => Uint8Array): unknown }>('polkadot-api-2/signer');
    const { sr25519CreateDerive } = await importEsm<{ sr25519CreateDerive(seed: Uint8Array): (path: string) => { publicKey: Uint8Array; sign(m: Uint8Array): Uint8Array } }>('@polkadot-labs/hdkd');
    const keyPair = sr25519CreateDerive(Buffer.from(DEV_MINI_SECRET.slice(2), 'hex'))('//Ferdie');
    expect(Buffer.from(keyPair.publicKey)).toEqual(Buffer.from(ferdie.publicKey));
    const signer = getPolkadotSigner(keyPair.publicKey, 'Sr25519', (message) => keyPair.sign(message));

    const relay = sandbox.nodes.Polkadot!;
    const client = createClient(getWsProvider(relay.url));
    try {
      const spec = await client.getChainSpecData();
      expect(spec).toMatchObject({ name: 'Polkadot', genesisHash: relay.blockHash(0), properties: { tokenSymbol: 'DOT' } });
      const tx = await client.getUnsafeApi().txFromCallData(Binary.fromHex(hex));
      const result = await tx.signAndSubmit(signer);
      expect(result.ok).toBe(true);
      expect(result.events.map((e) => `${e.type}.${e.value.type}`)).toEqual(['XcmPallet.Sent', 'System.ExtrinsicSuccess']);
    } finally {
      client.destroy();
    }
    // Its follow subscription ends with the socket.
    await until(() => relay.openSubscriptions === 0, 'the follow subscription to end');
  }, 60_000);
});
