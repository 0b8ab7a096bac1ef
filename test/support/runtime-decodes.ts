// The set-up of the test files that count a client's runtime decodes: Polkadot's test chain twice,
// the second serving metadata v14 only (the same runtime version, other answers: a decode of its
// own), the services a test made closed before the chains, and /metrics's count of Polkadot's
// connections by where their runtime came from.
import request from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import { startTestChain, type TestChain } from './test-chain';

export interface PolkadotTwice {
  /** Polkadot's test chain (polkadot.js reads metadata v16 from it), once `beforeAll` ran. */
  polkadot: TestChain;
  /** The same chain and runtime version serving metadata v14 only: other bytes. */
  olderMetadata: TestChain;
  /** Closes `services` after the file's tests, before the chains. */
  closeAfter(services: { close(): Promise<void> }): void;
}

export function polkadotTwice(): PolkadotTwice {
  const services: { close(): Promise<void> }[] = [];
  const chains = { closeAfter: (s: { close(): Promise<void> }) => void services.push(s) } as PolkadotTwice;
  beforeAll(async () => {
    [chains.polkadot, chains.olderMetadata] = await Promise.all([startTestChain('Polkadot'), startTestChain('Polkadot', { metadataVersions: [14] })]);
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.close()));
    await Promise.all([chains.polkadot?.close(), chains.olderMetadata?.close()]);
  });
  return chains;
}

/** Polkadot's connections by where their runtime came from (decoded, cached), as /metrics counts them. */
export async function polkadotRuntimes(app: Parameters<typeof request>[0]): Promise<Record<string, number>> {
  const text = (await request(app).get('/metrics').expect(200)).text;
  const counts: Record<string, number> = {};
  for (const [, runtime, count] of text.matchAll(/^xcm_gateway_chain_runtimes_total\{chain="Polkadot",runtime="(\w+)"\} (\d+)$/gm)) counts[runtime!] = Number(count);
  return counts;
}
