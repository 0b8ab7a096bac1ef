// The service pointed straight at real runtimes (real-network.ts, CHAIN_ENDPOINTS naming them), for
// a describe of test/real: the chains start before its tests and end after them, with the app.
import { afterAll, beforeAll } from 'vitest';
import type { ApiPromise } from '../../src/sdk';
import { testApp } from '../helpers/app';
import { startRealNetwork, type RealNetwork, type RealNetworkOptions } from './real-network';

export interface RealService {
  readonly network: RealNetwork;
  readonly app: ReturnType<typeof testApp>['app'];
}

/** Registers the hooks of the enclosing describe; the getters answer once its beforeAll ran. */
export function useRealService(options: RealNetworkOptions): RealService {
  let network: RealNetwork | undefined;
  let made: ReturnType<typeof testApp> | undefined;
  beforeAll(async () => {
    network = await startRealNetwork(options);
    // Wasm runtimes answer slower than the test chains: deadlines of a busy machine.
    made = testApp({ CHAIN_ENDPOINTS: JSON.stringify(network.endpoints), REQUEST_TIMEOUT_MS: '60000', CONNECT_TIMEOUT_MS: '30000' });
  });
  afterAll(async () => {
    await made?.services.close();
    await network?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useRealService: the network is not started (its beforeAll has not run)');
    return value;
  };
  return {
    get network() {
      return started(network);
    },
    get app() {
      return started(made).app;
    },
  };
}

/** The free balance of `who` on the chain (planck). */
export const freeBalance = async (api: ApiPromise, who: string): Promise<bigint> =>
  ((await api.query.system.account(who)) as unknown as { data: { free: { toBigInt(): bigint } } }).data.free.toBigInt();
