// A client's node's decoded runtime outlives the client's connection: a client who comes back after
// its connection closed when idle (CLIENT_IDLE_TIMEOUT_MS as shipped) does not make the service
// decode the node's metadata again, while a node that sends other metadata bytes for the same
// runtime version never gets another node's runtime. Decodes are counted by /metrics
// (xcm_gateway_chain_runtimes_total), through the real app over local test chains.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, SHIPPED_CLIENT_IDLE, testApp } from '../helpers/app';
import { until } from '../helpers/transfer-status';
import { callData } from '../support/hostile-programs';
import { startTestChain, type TestChain } from '../support/test-chain';

let polkadot: TestChain;
/** The same chain and runtime version, serving metadata v14 only: other bytes (polkadot.js reads v16 from `polkadot`). */
let olderMetadata: TestChain;
const apps: ReturnType<typeof testApp>[] = [];

beforeAll(async () => {
  [polkadot, olderMetadata] = await Promise.all([startTestChain('Polkadot'), startTestChain('Polkadot', { metadataVersions: [14] })]);
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.services.close()));
  await Promise.all([polkadot.close(), olderMetadata.close()]);
});

/** Connects by where their runtime came from, as /metrics counts them for Polkadot. */
async function runtimes(app: ReturnType<typeof testApp>['app']): Promise<Record<string, number>> {
  const text = (await request(app).get('/metrics').expect(200)).text;
  const counts: Record<string, number> = {};
  for (const [, runtime, count] of text.matchAll(/^xcm_gateway_chain_runtimes_total\{chain="Polkadot",runtime="(\w+)"\} (\d+)$/gm)) counts[runtime!] = Number(count);
  return counts;
}

describe.each(FAMILIES)('/%s: a client-named node\'s metadata is decoded once', (family) => {
  it('a client who comes back after its connection closed when idle reuses the decode; a node sending other metadata bytes decodes its own', async () => {
    const service = testApp(SHIPPED_CLIENT_IDLE);
    apps.push(service);
    const remark = callData(polkadot.registry, 'System', 'remark', { remark: '0x1234' });
    const explain = async (url: string) => {
      const res = await request(service.app).post(`/${family}/explain`).send({ chain: 'Polkadot', hex: remark, options: { development: true, apiOverrides: { Polkadot: url } } });
      expect(res.status).toBe(200);
      expect(res.body.call).toMatchObject({ pallet: 'system', method: 'remark' });
    };
    const opened = polkadot.connectionsOpened;

    await explain(polkadot.url);
    expect(await runtimes(service.app)).toEqual({ decoded: 1 });
    await until(() => service.services.pool.size === 0 && polkadot.openConnections === 0, 'the client\'s idle connection to close');

    await explain(polkadot.url);
    expect(polkadot.connectionsOpened).toBe(opened + 2);
    expect(await runtimes(service.app)).toEqual({ decoded: 1, cached: 1 });

    // Same genesis and spec version, other metadata bytes: its own decode, and it reads its own.
    expect(olderMetadata.runtimeVersion.specVersion).toBe(polkadot.runtimeVersion.specVersion);
    await explain(olderMetadata.url);
    expect(await runtimes(service.app)).toEqual({ decoded: 2, cached: 1 });
  });
});
