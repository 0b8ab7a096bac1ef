import { merkleizeMetadata } from '@polkadot-api/merkleize-metadata';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { decodeCallPapi } from '../helpers/papi-call';
import { withSpecVersion } from '../support/metadata-versions';
import { readWithProof, toHex } from '../support/metadata-proof';
import { refusedUrl, startTestChain, type TestChain, type TestChainName } from '../support/test-chain';

// What a Ledger needs to sign what we build (RFC-0078): the metadata hash CheckMetadataHash commits
// to, and a proof of the metadata one transaction uses, checked the way a device checks them.
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const DOT = '10000000000';

/** The chains' token as their nodes publish it (system_properties), which RFC-0078 hashes. */
const TOKEN: Partial<Record<TestChainName, { decimals: number; tokenSymbol: string }>> = {
  Polkadot: { decimals: 10, tokenSymbol: 'DOT' },
  AssetHubPolkadot: { decimals: 10, tokenSymbol: 'DOT' },
  Hydration: { decimals: 12, tokenSymbol: 'HDX' },
  Moonbeam: { decimals: 18, tokenSymbol: 'GLMR' },
  BridgeHubPolkadot: { decimals: 10, tokenSymbol: 'DOT' },
};
const SIGNABLE: TestChainName[] = ['Polkadot', 'AssetHubPolkadot', 'Hydration'];
const NAMES: TestChainName[] = [...SIGNABLE, 'Moonbeam', 'BridgeHubPolkadot'];

/** A transfer starting on each chain that builds offline. */
const TRANSFER: Partial<Record<TestChainName, Record<string, unknown>>> = {
  Polkadot: { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: DOT } },
  AssetHubPolkadot: { from: 'AssetHubPolkadot', to: 'Hydration', currency: { id: 1984, amount: '2500000' } },
  Hydration: { from: 'Hydration', to: 'Hydration', currency: { symbol: 'HDX', amount: '1000000000000' } },
};

const chains = {} as Record<TestChainName, TestChain>;
const overrides: Record<string, string> = {};
const { app, services } = testApp();
const options = { development: true, apiOverrides: overrides };
/** A BridgeHubPolkadot node that serves no metadata v15 (every sandbox chain serves it, as real nodes do). */
let withoutV15: TestChain;
/** `options`, with BridgeHubPolkadot's endpoint the node without metadata v15. */
const noV15 = () => ({ ...options, apiOverrides: { ...overrides, BridgeHubPolkadot: withoutV15.url } });

beforeAll(async () => {
  for (const name of NAMES) {
    chains[name] = await startTestChain(name);
    overrides[name] = chains[name].url;
  }
  withoutV15 = await startTestChain('BridgeHubPolkadot', { metadataVersions: [14, 16] });
});
afterAll(async () => {
  await services.close();
  await Promise.all([...NAMES.map((n) => chains[n]?.close()), withoutV15?.close()]);
});

const bytesOfHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));

/** The library's digest of the metadata the chain serves, with the chain's own token: computed here, not by the service. */
function expectedHash(chain: TestChain, metadataHex: string = chain.metadataHex): string {
  return toHex(merkleizeMetadata(bytesOfHex(metadataHex), TOKEN[chain.chain]!).digest());
}

const post = (path: string, body: unknown, family: 'v5' | 'v2' = 'v5') => request(app).post(`/${family}${path}`).send(body as object);

function transferBody(name: TestChainName, family: 'v5' | 'v2', extra: Record<string, unknown> = {}): Record<string, unknown> {
  const recipient = family === 'v5' ? 'address' : 'recipient';
  // Base units in both families: /v2 would scale a whole-unit amount.
  return { ...TRANSFER[name], [recipient]: ALICE, options: { ...options, abstractDecimals: false, ...extra } };
}

interface SigningParts {
  payload: string;
  callData: string;
  includedInExtrinsic: string;
  includedInSignedData: string;
}

/**
 * The signing payload a polkadot.js wallet assembles for `callData` with CheckMetadataHash on
 * (mode 1, the hash in the signed data), and its three parts.
 */
function signingPayload(chain: TestChain, callData: string, metadataHash: string): SigningParts {
  const { registry } = chain;
  const genesisHash = { Polkadot: '0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3', AssetHubPolkadot: '0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f', Hydration: '0xafdc188f45c71dacbaa0b62e16a91f726c7b8699a9748cdf715459de6b7f366d' }[chain.chain as 'Polkadot'];
  const payload = registry.createType(
    'ExtrinsicPayload',
    { method: callData, era: '0x00', nonce: 7, tip: 0, specVersion: chain.runtimeVersion.specVersion, transactionVersion: chain.runtimeVersion['transactionVersion'], genesisHash, blockHash: genesisHash, mode: 1, metadataHash },
    { version: 4 },
  );
  const inner = (payload as unknown as { inner: { get(key: string): { toU8a(): Uint8Array } } }).inner;
  const encode = (keys: string[]) => toHex(new Uint8Array(keys.flatMap((k) => [...inner.get(k).toU8a()])));
  const parts = {
    payload: toHex(payload.toU8a({ method: true })),
    callData,
    includedInExtrinsic: encode(Object.keys(registry.getSignedExtensionTypes())),
    includedInSignedData: encode(Object.keys(registry.getSignedExtensionExtra())),
  };
  expect(parts.payload).toBe(parts.callData + parts.includedInExtrinsic.slice(2) + parts.includedInSignedData.slice(2));
  return parts;
}

/** The pallet, call and argument names of a call read with a proof (`{Pallet: {call: {...args}}}`). */
function callNames(call: unknown): [string, string, string[]] {
  const [pallet, inner] = Object.entries(call as Record<string, Record<string, Record<string, unknown>>>)[0];
  const [name, args] = Object.entries(inner)[0];
  return [pallet, name, Object.keys(args)];
}

describe.each(FAMILIES)('/%s/metadata-hash', (family) => {
  it.each(NAMES)('%s: the library\'s digest of the chain\'s metadata, with its decimals and symbol', async (name) => {
    const chain = chains[name];
    const res = await post('/metadata-hash', { chain: name, options }, family);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      chain: name,
      specName: chain.runtimeVersion.specName,
      specVersion: chain.runtimeVersion.specVersion,
      metadataHash: expectedHash(chain),
      ...TOKEN[name],
      base58Prefix: expect.any(Number),
    });
  });

  it('a chain that serves no metadata v15 is a 400 that says so', async () => {
    const res = await post('/metadata-hash', { chain: 'BridgeHubPolkadot', options: noV15() }, family);
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 400, 'UnsupportedOperationError');
    expect(res.body.message).toMatch(/BridgeHubPolkadot serves no metadata v15/);
  });

  it('bad input is a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ options }, 'body.chain'],
      [{ chain: 'Polkadott', options }, 'body.chain'],
      [{ chain: 'Ethereum', options }, 'body.chain'],
      [{ chain: 'Polkadot', options: { ...options, abstractDecimals: true } }, 'body.options'],
      [{ chain: 'Polkadot', options: { development: true } }, 'options.apiOverrides has no endpoint for Polkadot'],
    ];
    for (const [body, named] of cases) {
      const res = await post('/metadata-hash', body, family);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expectErrorBody(res.body, 400);
      expect(`${res.body.message as string} ${JSON.stringify(res.body.details ?? [])}`).toContain(named);
    }
  });
});

describe.each(FAMILIES)('/%s/x-transfer with options.metadataHash', (family) => {
  it.each(SIGNABLE)('%s: the call data, the hash of the runtime it is for, and a proof that reads back to the same call', async (name) => {
    const chain = chains[name];
    const plain = await post('/x-transfer', transferBody(name, family), family);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body).toMatch(/^0x[0-9a-f]+$/);

    const res = await post('/x-transfer', transferBody(name, family, { metadataHash: true }), family);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ callData: plain.body, metadataHash: expectedHash(chain), specVersion: chain.runtimeVersion.specVersion });
    const { callData, metadataHash } = res.body as { callData: string; metadataHash: string };

    const parts = signingPayload(chain, callData, metadataHash);
    const byParts = await post('/metadata-proof', { chain: name, callData, includedInExtrinsic: parts.includedInExtrinsic, includedInSignedData: parts.includedInSignedData, options }, family);
    expect(byParts.status, JSON.stringify(byParts.body)).toBe(200);
    const byPayload = await post('/metadata-proof', { chain: name, payload: parts.payload, options }, family);
    expect(byPayload.status, JSON.stringify(byPayload.body)).toBe(200);
    expect(byPayload.body).toEqual(byParts.body);
    expect(byParts.body.metadataHash).toBe(metadataHash);

    // The device's side: the proof's types hash to the metadata hash and read the whole payload.
    const reading = readWithProof(byParts.body.proof as string, parts.payload);
    expect(reading.metadataHash).toBe(metadataHash);
    expect(reading.info).toMatchObject({ specName: chain.runtimeVersion.specName, specVersion: chain.runtimeVersion.specVersion, ...TOKEN[name] });
    const papi = decodeCallPapi(chain, callData);
    expect(callNames(reading.call)).toEqual([papi.pallet, papi.call, Object.keys(papi.args)]);
    expect(reading.extensions.CheckMetadataHash).toEqual({ inExtrinsic: { mode: { Enabled: {} } }, inSignedData: { Some: metadataHash.slice(2).match(/../g)!.map((b) => String(parseInt(b, 16))) } });
    expect(reading.extensions.CheckNonce?.inExtrinsic).toEqual('7');
  });

  it('x-transfer-batch takes the option too; the default answers stay bare hex', async () => {
    const recipient = family === 'v5' ? 'address' : 'recipient';
    const transfer = { ...TRANSFER.Polkadot, [recipient]: ALICE };
    const body = { transfers: [transfer, transfer], options: { ...options, abstractDecimals: false } };
    const plain = await post('/x-transfer-batch', body, family);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body).toMatch(/^0x[0-9a-f]+$/);
    const res = await post('/x-transfer-batch', { ...body, options: { ...body.options, metadataHash: true } }, family);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ callData: plain.body, metadataHash: expectedHash(chains.Polkadot), specVersion: chains.Polkadot.runtimeVersion.specVersion });
    expect(decodeCallPapi(chains.Polkadot, plain.body as string).pallet).toBe('Utility');
  });

  it('from a chain without metadata v15 it is a 400 that says so; a malformed option is a 400 naming it', async () => {
    const recipient = family === 'v5' ? 'address' : 'recipient';
    const fromBridgeHub = { from: 'BridgeHubPolkadot', to: 'Polkadot', currency: { symbol: 'DOT', amount: DOT }, [recipient]: ALICE, options: { ...noV15(), abstractDecimals: false } };
    const plain = await post('/x-transfer', fromBridgeHub, family);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    const res = await post('/x-transfer', { ...fromBridgeHub, options: { ...fromBridgeHub.options, metadataHash: true } }, family);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(/BridgeHubPolkadot serves no metadata v15/);

    const bad = await post('/x-transfer', transferBody('Polkadot', family, { metadataHash: 'yes' }), family);
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'body.options.metadataHash', message: 'must be true or false' }]);
  });

  it('/evm-x-transfer refuses it: an EVM transaction carries no metadata hash', async () => {
    const [sender, recipient] = family === 'v5' ? ['senderAddress', 'address'] : ['sender', 'recipient'];
    const res = await post(
      '/evm-x-transfer',
      { from: 'Moonbeam', to: 'Hydration', currency: { symbol: 'GLMR', amount: '1' }, [sender]: '0x1501C1413e4178c38567Ada8945A80351F7B8496', [recipient]: ALICE, options: { metadataHash: true } },
      family,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.details).toContainEqual({ path: 'body.options.metadataHash', message: expect.stringMatching(/EVM transaction/) });
  });
});

describe.each(FAMILIES)('/%s/metadata-proof refuses what a device would refuse', (family) => {
  /** A valid payload of a Polkadot transfer, in parts. */
  async function polkadotParts(): Promise<SigningParts> {
    const res = await post('/x-transfer', transferBody('Polkadot', family, { metadataHash: true }), family);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return signingPayload(chains.Polkadot, res.body.callData as string, res.body.metadataHash as string);
  }

  it('each part must end where its types end, and the payload must read to its last byte', async () => {
    const p = await polkadotParts();
    const cases: [Record<string, string>, string][] = [
      [{ callData: `${p.callData}00`, includedInExtrinsic: p.includedInExtrinsic, includedInSignedData: p.includedInSignedData }, 'body.callData'],
      [{ callData: '0xff00', includedInExtrinsic: p.includedInExtrinsic, includedInSignedData: p.includedInSignedData }, 'body.callData'],
      [{ callData: p.callData, includedInExtrinsic: `${p.includedInExtrinsic}00`, includedInSignedData: p.includedInSignedData }, 'body.includedInExtrinsic'],
      [{ callData: p.callData, includedInExtrinsic: p.includedInExtrinsic, includedInSignedData: `${p.includedInSignedData}00` }, 'body.includedInSignedData'],
      [{ callData: p.callData, includedInExtrinsic: p.includedInExtrinsic, includedInSignedData: p.includedInSignedData.slice(0, -2) }, 'body.includedInSignedData'],
      [{ payload: `${p.payload}00` }, 'body.payload'],
      [{ payload: p.payload.slice(0, -2) }, 'body.payload'],
    ];
    for (const [fields, path] of cases) {
      const res = await post('/metadata-proof', { chain: 'Polkadot', ...fields, options }, family);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
      expectErrorBody(res.body, 400, 'ValidationError');
      expect(res.body.details.map((d: { path: string }) => d.path), JSON.stringify(res.body)).toContain(path);
    }
  });

  it('hex inputs are bounded and checked, parts and payload exclusive', async () => {
    const p = await polkadotParts();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ callData: p.callData, includedInExtrinsic: p.includedInExtrinsic }, 'body.includedInSignedData', 'MissingParameterError'],
      [{}, 'body.callData', 'MissingParameterError'],
      [{ payload: p.payload, callData: p.callData }, 'body.callData', 'ValidationError'],
      [{ payload: 'abcd' }, 'body.payload', 'ValidationError'],
      [{ payload: '0xabc' }, 'body.payload', 'ValidationError'],
      [{ payload: 42 }, 'body.payload', 'ValidationError'],
      [{ payload: `0x${'00'.repeat(40 * 1024)}` }, 'body.payload', 'ValidationError'],
      [{ callData: p.callData, includedInExtrinsic: `0x${'00'.repeat(4096)}`, includedInSignedData: p.includedInSignedData }, 'body.includedInExtrinsic', 'ValidationError'],
    ];
    for (const [fields, path, kind] of cases) {
      const res = await post('/metadata-proof', { chain: 'Polkadot', ...fields, options }, family);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
      expectErrorBody(res.body, 400, kind);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('a chain without metadata v15 is a 400 here too', async () => {
    const res = await post('/metadata-proof', { chain: 'BridgeHubPolkadot', payload: '0x0000', options: noV15() }, family);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/serves no metadata v15/);
  });
});

describe('a runtime upgrade', () => {
  it('changes the answer: the spec version is read on every request', async () => {
    // Its own chain: the upgrade must not reach the other tests (they run shuffled).
    const chain = await startTestChain('AssetHubPolkadot');
    const own = { development: true, apiOverrides: { AssetHubPolkadot: chain.url } };
    try {
      const before = await post('/metadata-hash', { chain: 'AssetHubPolkadot', options: own });
      expect(before.status, JSON.stringify(before.body)).toBe(200);
      expect(before.body.metadataHash).toBe(expectedHash(chain));

      const upgraded = chain.runtimeVersion.specVersion + 1;
      chain.setSpecVersion(upgraded);
      const after = await post('/metadata-hash', { chain: 'AssetHubPolkadot', options: own });
      expect(after.status, JSON.stringify(after.body)).toBe(200);
      expect(after.body.specVersion).toBe(upgraded);
      expect(after.body.metadataHash).not.toBe(before.body.metadataHash);
      expect(after.body.metadataHash).toBe(expectedHash(chain, toHex(withSpecVersion(bytesOfHex(chain.metadataHex), upgraded))));

      const body = { ...TRANSFER.AssetHubPolkadot, address: ALICE, options: { ...own, metadataHash: true } };
      const built = await post('/x-transfer', body);
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      expect(built.body).toMatchObject({ metadataHash: after.body.metadataHash, specVersion: upgraded });
    } finally {
      await chain.close();
    }
  });
});

describe('chains', () => {
  it('one pooled connection serves every request to a chain, and an unreachable chain is a fast 503 naming it', async () => {
    const chain = await startTestChain('Polkadot');
    const own = { development: true, apiOverrides: { Polkadot: chain.url } };
    const second = testApp();
    try {
      for (const path of ['/metadata-hash', '/metadata-hash']) expect((await request(second.app).post(`/v5${path}`).send({ chain: 'Polkadot', options: own })).status).toBe(200);
      const built = await request(second.app).post('/v5/x-transfer').send({ ...TRANSFER.Polkadot, address: ALICE, options: { ...own, metadataHash: true } });
      expect(built.status).toBe(200);
      expect(chain.connectionsOpened).toBe(1);
      await second.services.close();
      await expect.poll(() => chain.openConnections).toBe(0);
    } finally {
      await second.services.close();
      await chain.close();
    }

    const nowhere = { development: true, apiOverrides: { Polkadot: await refusedUrl() } };
    const res = await post('/metadata-hash', { chain: 'Polkadot', options: nowhere });
    expect(res.status).toBe(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toMatch(/^Chain Polkadot is unreachable/);
  });
});
