import { expect, it } from 'vitest';
import { sdk } from '../../src/sdk';

// patches/chain-instances-once.ts: sdk-core's getChain made all of its chain objects on every call.
it('the SDK hands out one object per chain, the same on every call', () => {
  const getChain = (sdk as unknown as { getChain(chain: string): object }).getChain;
  const first = getChain('AssetHubPolkadot');
  expect(getChain('AssetHubPolkadot')).toBe(first);
  expect(getChain('Hydration')).toBe(getChain('Hydration'));
  expect(getChain('Hydration')).not.toBe(first);
  // What the chain objects answer is unchanged.
  expect(sdk.getRelayChainOf('Hydration')).toBe('Polkadot');
  expect(sdk.getTChain(2034, 'Polkadot')).toBe('Hydration');
});
