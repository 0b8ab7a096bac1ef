import { afterAll, describe, expect, it } from 'vitest';
import { ConnectionPool } from '../../src/chains/pool';
import { createChainScope } from '../../src/chains/chain-scope';
import { patchSdk, sdk } from '../../src/sdk';
import { endpointResolver } from '../../src/service/sdk-calls/override-endpoints';
import { until } from '../hostile/helpers';
import { startTestChain } from '../support/test-chain';

interface SdkChainApi {
  createApiForChain(chain: string): Promise<{ getApi(): { runtimeVersion: { specName: { toString(): string } } } }>;
}

const pool = new ConnectionPool({ connectTimeoutMs: 10_000, idleTimeoutMs: 60_000, maxChains: 8 });
afterAll(() => pool.close());

// sdk-pjs opens AssetHubPolkadot with createApiForChain on Hydration/Bifrost/Moonbeam -> Ethereum
// transfers; unpatched, it ignores the caller's config and dials the public endpoints.
describe('createApiForChain goes through the caller\'s overrides', () => {
  patchSdk();
  const sdkApi = (apiOverrides: Record<string, unknown>) => (sdk.Builder({ apiOverrides }) as unknown as { api: SdkChainApi }).api;

  it('borrows the chain from the pool', async () => {
    const assetHub = await startTestChain('AssetHubPolkadot');
    try {
      const scope = createChainScope(pool, endpointResolver({ apiOverrides: { AssetHubPolkadot: [assetHub.url] }, development: true }, {}));
      const opened = await sdkApi(scope.apiOverrides).createApiForChain('AssetHubPolkadot');
      expect(opened.getApi().runtimeVersion.specName.toString()).toBe('statemint');
      expect(assetHub.connectionsOpened).toBe(1);
      scope.release();
    } finally {
      await pool.close();
      // The chain closes once the pool's close has reached it (else it closes with 1001 itself,
      // which polkadot.js reports on stderr as a lost subscription).
      await until(() => assetHub.openConnections === 0, 'the pooled connection to close');
      await assetHub.close();
    }
  });

  it('honours development mode instead of dialling public endpoints', async () => {
    const scope = createChainScope(new ConnectionPool({ connectTimeoutMs: 1_000, idleTimeoutMs: 1_000, maxChains: 1 }), endpointResolver({ apiOverrides: {}, development: true }, {}));
    await expect(sdkApi(scope.apiOverrides).createApiForChain('AssetHubPolkadot')).rejects.toMatchObject({ kind: 'MissingChainApiError' });
  });
});
