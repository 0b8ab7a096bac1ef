// What both live suites share: where each chain's endpoints come from, and one short probe that
// decides whether the suite can run at all.
import WebSocket from 'ws';
import type { TSubstrateChain } from '@paraspell/sdk-pjs';
import { sdk } from '../../src/sdk';

export const PROBE_MS = 5_000;

/** LIVE_WS_<CHAIN> (comma-separated, e.g. a chopsticks fork) or the registry's public endpoints. */
export function endpointsOf(chain: TSubstrateChain): string[] {
  const env = process.env[`LIVE_WS_${chain.toUpperCase()}`];
  return env ? env.split(',').map((u) => u.trim()).filter(Boolean) : sdk.getChainProviders(chain);
}

/** The first endpoint whose WebSocket handshake completes within PROBE_MS. */
function probe(urls: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    let pending = urls.length;
    let done = false;
    const sockets: WebSocket[] = [];
    const finish = (url: string | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sockets.forEach((s) => s.terminate());
      resolve(url);
    };
    const timer = setTimeout(() => finish(undefined), PROBE_MS);
    if (pending === 0) finish(undefined);
    for (const url of urls) {
      const ws = new WebSocket(url, { handshakeTimeout: PROBE_MS });
      sockets.push(ws);
      ws.on('open', () => finish(url));
      ws.on('error', () => {
        if (--pending === 0) finish(undefined);
      });
    }
  });
}

/** Probes every chain at once: chain -> the endpoint that answered (absent when none did). */
export async function probeChains<C extends TSubstrateChain>(chains: readonly C[]): Promise<Partial<Record<C, string>>> {
  const found = await Promise.all(chains.map(async (c) => [c, await probe(endpointsOf(c))] as const));
  return Object.fromEntries(found.filter(([, url]) => url !== undefined)) as Partial<Record<C, string>>;
}
