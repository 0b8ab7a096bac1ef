import { startHostileNode, type HostileNode, type HostileNodeOptions } from '../support/hostile-node';
import { startTestChain, type TestChain, type TestChainName } from '../support/test-chain';

export const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

/** A /v5/router body: DOT from Polkadot swapped to HDX on Hydration, with these chain overrides. */
export const swapBody = (apiOverrides: Record<string, string>, senderAddress = ADDRESS) => ({
  from: 'Polkadot',
  to: 'Hydration',
  exchange: 'HydrationDex',
  currencyFrom: { symbol: 'DOT' },
  currencyTo: { symbol: 'HDX' },
  amount: '10000000000',
  slippagePct: '1',
  recipientAddress: ADDRESS,
  senderAddress,
  options: { development: true, apiOverrides },
});

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Bounded wait for a condition seen from a node's side (a state, not a speed). */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * Watches for `ms` for the state that would show a fault (a connection opened or closed, a request
 * sent) and fails as soon as it shows; passes when the bound is over without it. The bound is the
 * time the fault would take to show, said where it is used.
 */
export async function never(fault: () => boolean, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  do {
    if (fault()) throw new Error(`${what} (within ${ms} ms)`);
    await sleep(10);
  } while (Date.now() < end);
  if (fault()) throw new Error(`${what} (within ${ms} ms)`);
}

/** Servers started by a test file, closed together. */
export function serverSet() {
  const started: Array<{ close(): Promise<void> }> = [];
  return {
    async chain(name: TestChainName): Promise<TestChain> {
      const chain = await startTestChain(name);
      started.push(chain);
      return chain;
    },
    async hostile(options: HostileNodeOptions): Promise<HostileNode> {
      const node = await startHostileNode(options);
      started.push(node);
      return node;
    },
    async closeAll(): Promise<void> {
      await Promise.all(started.splice(0).map((s) => s.close()));
    },
  };
}

/** RPC methods that read storage: the request "in flight" once the connection is ready. */
export const STORAGE_METHODS = new Set(['state_getStorage', 'state_getStorageAt', 'state_queryStorageAt', 'state_subscribeStorage']);
