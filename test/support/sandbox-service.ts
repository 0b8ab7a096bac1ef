// The set-up the tests in test/sandbox share: a sandbox (src/sandbox/network.ts), the service over
// it as the sandbox's own is configured (CHAIN_ENDPOINTS: its chains, through the pool, not through
// callers' overrides, whose connections per client are bounded; ETHEREUM_RPC_URL: its Ethereum
// node), listening on loopback for the streams that /x-transfer/status answers, and a wallet's polkadot.js clients of the chains. Call
// it at a test file's top level: it registers the beforeAll that starts all this and the afterAll
// that closes it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/network';
import { testApp } from '../helpers/app';
import { SandboxClients } from './sandbox-client';

type TestApp = ReturnType<typeof testApp>;

export interface SandboxService {
  readonly sandbox: Sandbox;
  readonly app: TestApp['app'];
  readonly services: TestApp['services'];
  /** The service's own address (http://127.0.0.1:port). */
  readonly url: string;
  readonly clients: SandboxClients;
}

/**
 * `options` as startSandbox takes them (ports the system picks unless named); `env`: more of the
 * service's settings (a function when they are known only once an earlier beforeAll has run).
 */
export function sandboxService(options: Omit<SandboxOptions, 'basePort'> & { basePort?: number }, env: Record<string, string> | (() => Record<string, string>) = {}): SandboxService {
  let sandbox: Sandbox | undefined;
  let made: TestApp | undefined;
  let server: Server | undefined;
  let url: string | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('sandboxService: read before its beforeAll ran');
    return value;
  };
  const clients = new SandboxClients(() => started(sandbox));

  beforeAll(async () => {
    sandbox = await startSandbox({ basePort: 0, ...options });
    made = testApp({ CHAIN_ENDPOINTS: JSON.stringify(sandbox.endpoints), ETHEREUM_RPC_URL: sandbox.ethereum.url, ...(typeof env === 'function' ? env() : env) });
    const listening = createServer(made.app);
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await clients.close();
    await made?.services.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await sandbox?.close();
  });

  return {
    get sandbox() {
      return started(sandbox);
    },
    get app() {
      return started(made).app;
    },
    get services() {
      return started(made).services;
    },
    get url() {
      return started(url);
    },
    clients,
  };
}
