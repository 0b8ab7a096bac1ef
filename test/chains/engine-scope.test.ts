// A WsProvider that xcm-router opens on its own during a request (its Acala and Karura exchanges,
// through @acala-network/api) belongs to the request's EngineScope: held to the connect deadline
// and disconnected when the request ends (src/sdk/patches/router-ws-providers.ts). The router
// dials those exchanges at their registry endpoints, which an offline run cannot reach, so the
// provider is opened here inside the scope, as the exchange opens it.
import { afterAll, expect, it } from 'vitest';
import { withDeadline } from '../../src/chains/deadline';
import { EngineScope } from '../../src/chains/engine-scope';
import { ConnectionPool } from '../../src/chains/pool';
import { loadRouter, polkadotApi } from '../../src/sdk';
import { never, serverSet, until } from '../hostile/helpers';

const servers = serverSet();
afterAll(() => servers.closeAll());

it('a WsProvider the router opens in a request scope is tracked by it and closed when the request ends', async () => {
  loadRouter(); // installs the router patches, as the first router request does
  const flapping = await servers.hostile({ acceptThenClose: true });
  const pool = new ConnectionPool({ connectTimeoutMs: 1_000, idleTimeoutMs: 1_000, maxChains: 2 });
  const scope = new EngineScope(pool, 1_000);
  let provider: InstanceType<typeof polkadotApi.WsProvider> | undefined;
  try {
    // The exchange keeps waiting for a usable connection (the node closes every one it accepts).
    const work = (): Promise<never> => {
      provider = new polkadotApi.WsProvider(flapping.url); // connects and reconnects on its own
      return new Promise<never>(() => undefined);
    };
    // The connect deadline fails the request, not the (much later) request deadline.
    await expect(withDeadline((signal) => scope.run(work, signal), 20_000, 'Opening the exchange client')).rejects.toMatchObject({
      kind: 'ProviderUnavailableError',
    });
  } finally {
    scope.end();
  }
  await until(() => flapping.openConnections === 0, 'the socket to close');
  // A provider still reconnecting would dial again within WsProvider's 2.5 s between attempts.
  const opened = flapping.connectionsOpened;
  await never(() => flapping.connectionsOpened > opened, 'the provider dialled again after the request ended', 3_000);
  await provider?.disconnect();
  await pool.close();
}, 40_000);
