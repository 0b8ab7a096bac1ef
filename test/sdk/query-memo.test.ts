import { createRequire } from 'node:module';
import { afterEach, expect, it, vi } from 'vitest';
import { patchSdk, withQueryMemo } from '../../src/sdk';
import { sdkAssetLookups } from '../../src/sdk/load';

// patches/query-memo.ts: within one pre-flight query an asset is looked up in the registry once.
// A lookup by location compares the location with every asset of the chain (sdk-common's deepEqual).
const fromAssets = createRequire(createRequire(__filename).resolve('@paraspell/sdk-core'));
const sdkCommon = createRequire(fromAssets.resolve('@paraspell/assets'))('@paraspell/sdk-common') as { deepEqual(a: unknown, b: unknown): boolean };
const findAssetInfo = (...args: [string, object, string | null]) => (sdkAssetLookups['findAssetInfo'] as (...a: typeof args) => { symbol: string } | null)(...args);

const USDT = { location: { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] } } };

patchSdk();

afterEach(() => {
  vi.restoreAllMocks();
});

it('inside one query a lookup asked again is answered without searching the registry again; outside, each lookup searches', async () => {
  const compared = vi.spyOn(sdkCommon, 'deepEqual');
  const found = await withQueryMemo(async () => {
    const first = findAssetInfo('AssetHubPolkadot', USDT, null);
    const searched = compared.mock.calls.length;
    expect(searched).toBeGreaterThan(0);
    expect(findAssetInfo('AssetHubPolkadot', { ...USDT }, null)).toBe(first);
    expect(compared.mock.calls.length).toBe(searched);
    // Another selector, chain or destination is another lookup.
    findAssetInfo('AssetHubPolkadot', USDT, 'Hydration');
    expect(compared.mock.calls.length).toBeGreaterThan(searched);
    return first;
  });
  expect(found?.symbol).toBe('USDt');
  compared.mockClear();
  expect(findAssetInfo('AssetHubPolkadot', USDT, null)).toBe(found);
  expect(compared).toHaveBeenCalled();
});

it('findAssetInfoOrThrow, which sdk-core calls through the same exports, shares the memo; an asset it cannot find still throws', async () => {
  const findOrThrow = (...args: [string, object, string | null]) => (sdkAssetLookups['findAssetInfoOrThrow'] as (...a: typeof args) => { symbol: string })(...args);
  const compared = vi.spyOn(sdkCommon, 'deepEqual');
  await withQueryMemo(async () => {
    const first = findAssetInfo('AssetHubPolkadot', USDT, null);
    const searched = compared.mock.calls.length;
    expect(findOrThrow('AssetHubPolkadot', { ...USDT }, null)).toBe(first);
    expect(findOrThrow('AssetHubPolkadot', USDT, null)).toBe(first);
    expect(compared.mock.calls.length).toBe(searched);
    const missing = { location: { parents: 1, interior: { X1: [{ Parachain: 4242 }] } } };
    expect(findAssetInfo('AssetHubPolkadot', missing, null)).toBeNull();
    expect(() => findOrThrow('AssetHubPolkadot', missing, null)).toThrow(/not found on AssetHubPolkadot/);
  });
});
