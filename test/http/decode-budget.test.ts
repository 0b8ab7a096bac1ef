// A client makes the service decode at most METADATA_DECODES_PER_CLIENT_PER_MINUTE runtimes a
// minute (each decode holds every client's requests 170-250 ms): past it, a node whose runtime is
// not decoded yet is a 429 naming the bound, while another client's decode and the same client's
// kept runtimes go on. Through the real app over local test chains, clients told apart by
// X-Forwarded-For from a trusted loopback proxy; decodes counted by /metrics.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody, FAMILIES, SHIPPED_CLIENT_IDLE, testApp } from '../helpers/app';
import { until } from '../helpers/transfer-status';
import { callData } from '../support/hostile-programs';
import { startTestChain, type TestChain } from '../support/test-chain';

const ALICE = '198.51.100.1';
const MALLORY = '203.0.113.66';

let polkadot: TestChain;
/** The same chain and runtime version serving metadata v14 only: other answers, so a decode of its own. */
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

describe.each(FAMILIES)('/%s: metadata decodes per client per minute', (family) => {
  it('past its decodes a client gets 429 TooManyDecodesError for a new runtime; another client decodes, and the first reuses what was kept', async () => {
    const service = testApp({ ...SHIPPED_CLIENT_IDLE, TRUST_PROXY: 'loopback', METADATA_DECODES_PER_CLIENT_PER_MINUTE: '1' });
    apps.push(service);
    const remark = callData(polkadot.registry, 'System', 'remark', { remark: '0x1234' });
    const explain = (client: string, url: string) =>
      request(service.app)
        .post(`/${family}/explain`)
        .set('X-Forwarded-For', client)
        .send({ chain: 'Polkadot', hex: remark, options: { development: true, apiOverrides: { Polkadot: url } } });

    expect((await explain(MALLORY, polkadot.url)).status).toBe(200);
    expect(await runtimes(service.app)).toEqual({ decoded: 1 });

    const refused = await explain(MALLORY, olderMetadata.url);
    expect(refused.status).toBe(429);
    expectErrorBody(refused.body, 429, 'TooManyDecodesError');
    expect(refused.body.message).toContain('METADATA_DECODES_PER_CLIENT_PER_MINUTE');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await runtimes(service.app)).toEqual({ decoded: 1 });

    const alice = await explain(ALICE, olderMetadata.url);
    expect(alice.status).toBe(200);
    expect(alice.body.call).toMatchObject({ pallet: 'system', method: 'remark' });
    expect(await runtimes(service.app)).toEqual({ decoded: 2 });

    // A runtime kept costs no decode: the spent client still reads both nodes once its connections closed.
    await until(() => service.services.pool.size === 0, 'the idle connections to close');
    expect((await explain(MALLORY, polkadot.url)).status).toBe(200);
    expect((await explain(MALLORY, olderMetadata.url)).status).toBe(200);
    expect(await runtimes(service.app)).toEqual({ decoded: 2, cached: 2 });
  });
});
