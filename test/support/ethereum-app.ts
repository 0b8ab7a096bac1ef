// The set-up the Ethereum-side HTTP tests share: the fake Ethereum node (eth-node.ts) started before
// the tests of a file or describe block, an app whose ETHEREUM_RPC_URL it is, and, after the tests,
// the services closed before the node.
import { afterAll, beforeAll } from 'vitest';
import { testApp } from '../helpers/app';
import { startEthNode, type EthNode } from './eth-node';

export interface EthereumApp {
  /** The node and the app, once `beforeAll` ran. */
  node: EthNode;
  app: ReturnType<typeof testApp>['app'];
}

export function ethereumApp(): EthereumApp {
  const set = {} as EthereumApp & { services: ReturnType<typeof testApp>['services'] };
  beforeAll(async () => {
    set.node = await startEthNode();
    ({ app: set.app, services: set.services } = testApp({ ETHEREUM_RPC_URL: set.node.url }));
  });
  afterAll(async () => {
    await set.services.close();
    await set.node.close();
  });
  return set;
}
