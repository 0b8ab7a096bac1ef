// The set-up most HTTP test files share: the named test chains started before the file's tests,
// each chain's URL as an `apiOverrides` entry, and, after the tests, the services closed before
// the chains (so no connection outlives its node).
import { afterAll, beforeAll } from 'vitest';
import { startTestChain, type TestChain, type TestChainName, type TestChainOptions } from './test-chain';

export interface FileChains {
  /** Each chain by name, once `beforeAll` ran. */
  chains: Record<TestChainName, TestChain>;
  /** chain -> its URL, for `options.apiOverrides`. */
  overrides: Record<string, string>;
}

export function chainsForFile(names: readonly TestChainName[], services: { close(): Promise<void> }, options: TestChainOptions = { partialFee: 1_000_000n }): FileChains {
  const chains = {} as Record<TestChainName, TestChain>;
  const overrides: Record<string, string> = {};
  beforeAll(async () => {
    await Promise.all(
      names.map(async (name) => {
        chains[name] = await startTestChain(name, options);
        overrides[name] = chains[name].url;
      }),
    );
  });
  afterAll(async () => {
    await services.close();
    await Promise.all(names.map((n) => chains[n]?.close()));
  });
  return { chains, overrides };
}
