// A client makes the service decode at most METADATA_DECODES_PER_CLIENT_PER_MINUTE runtimes a
// minute (each decode holds every client's requests 170-250 ms): past it, a node whose runtime is
// not decoded yet is a 429 naming the bound, while another client's decode and the same client's
// kept runtimes go on. Through the real app over local test chains, clients told apart by
// X-Forwarded-For from a trusted loopback proxy; decodes counted by /metrics.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { expectErrorBody, FAMILIES, SHIPPED_CLIENT_IDLE, testApp } from '../helpers/app';
import { until } from '../helpers/transfer-status';
import { callData } from '../support/hostile-programs';
import { polkadotRuntimes, polkadotTwice } from '../support/runtime-decodes';

const ALICE = '198.51.100.1';
const MALLORY = '203.0.113.66';

const chains = polkadotTwice();

describe.each(FAMILIES)('/%s: metadata decodes per client per minute', (family) => {
  it('past its decodes a client gets 429 TooManyDecodesError for a new runtime; another client decodes, and the first reuses what was kept', async () => {
    const service = testApp({ ...SHIPPED_CLIENT_IDLE, TRUST_PROXY: 'loopback', METADATA_DECODES_PER_CLIENT_PER_MINUTE: '1' });
    chains.closeAfter(service.services);
    const remark = callData(chains.polkadot.registry, 'System', 'remark', { remark: '0x1234' });
    const explain = (client: string, url: string) =>
      request(service.app)
        .post(`/${family}/explain`)
        .set('X-Forwarded-For', client)
        .send({ chain: 'Polkadot', hex: remark, options: { development: true, apiOverrides: { Polkadot: url } } });

    expect((await explain(MALLORY, chains.polkadot.url)).status).toBe(200);
    expect(await polkadotRuntimes(service.app)).toEqual({ decoded: 1 });

    const refused = await explain(MALLORY, chains.olderMetadata.url);
    expect(refused.status).toBe(429);
    expectErrorBody(refused.body, 429, 'TooManyDecodesError');
    expect(refused.body.message).toContain('METADATA_DECODES_PER_CLIENT_PER_MINUTE');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await polkadotRuntimes(service.app)).toEqual({ decoded: 1 });

    const alice = await explain(ALICE, chains.olderMetadata.url);
    expect(alice.status).toBe(200);
    expect(alice.body.call).toMatchObject({ pallet: 'system', method: 'remark' });
    expect(await polkadotRuntimes(service.app)).toEqual({ decoded: 2 });

    // A runtime kept costs no decode: the spent client still reads both nodes once its connections closed.
    await until(() => service.services.pool.size === 0, 'the idle connections to close');
    expect((await explain(MALLORY, chains.polkadot.url)).status).toBe(200);
    expect((await explain(MALLORY, chains.olderMetadata.url)).status).toBe(200);
    expect(await polkadotRuntimes(service.app)).toEqual({ decoded: 2, cached: 2 });
  });
});
