// A client's node's decoded runtime outlives the client's connection: a client who comes back after
// its connection closed when idle (CLIENT_IDLE_TIMEOUT_MS as shipped) does not make the service
// decode the node's metadata again, while a node that sends other metadata bytes for the same
// runtime version never gets another node's runtime. Decodes are counted by /metrics
// (xcm_gateway_chain_runtimes_total), through the real app over local test chains.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FAMILIES, SHIPPED_CLIENT_IDLE, testApp } from '../helpers/app';
import { until } from '../helpers/transfer-status';
import { callData } from '../support/hostile-programs';
import { polkadotRuntimes, polkadotTwice } from '../support/runtime-decodes';

const chains = polkadotTwice();

describe.each(FAMILIES)('/%s: a client-named node\'s metadata is decoded once', (family) => {
  it('a client who comes back after its connection closed when idle reuses the decode; a node sending other metadata bytes decodes its own', async () => {
    const service = testApp(SHIPPED_CLIENT_IDLE);
    chains.closeAfter(service.services);
    const remark = callData(chains.polkadot.registry, 'System', 'remark', { remark: '0x1234' });
    const explain = async (url: string) => {
      const res = await request(service.app).post(`/${family}/explain`).send({ chain: 'Polkadot', hex: remark, options: { development: true, apiOverrides: { Polkadot: url } } });
      expect(res.status).toBe(200);
      expect(res.body.call).toMatchObject({ pallet: 'system', method: 'remark' });
    };
    const opened = chains.polkadot.connectionsOpened;

    await explain(chains.polkadot.url);
    expect(await polkadotRuntimes(service.app)).toEqual({ decoded: 1 });
    await until(() => service.services.pool.size === 0 && chains.polkadot.openConnections === 0, 'the client\'s idle connection to close');

    await explain(chains.polkadot.url);
    expect(chains.polkadot.connectionsOpened).toBe(opened + 2);
    expect(await polkadotRuntimes(service.app)).toEqual({ decoded: 1, cached: 1 });

    // Same genesis and spec version, other metadata bytes: its own decode, and it reads its own.
    expect(chains.olderMetadata.runtimeVersion.specVersion).toBe(chains.polkadot.runtimeVersion.specVersion);
    await explain(chains.olderMetadata.url);
    expect(await polkadotRuntimes(service.app)).toEqual({ decoded: 2, cached: 1 });
  });
});
