// polkadot-api as the papi flavour of the SDK (@paraspell/sdk, which xcm-router builds with) loads
// it: one copy, resolved from that package. Loaded on the first router client only.
import { createRequire } from 'node:module';

export interface PapiClient {
  destroy(): void;
}

export interface PapiModules {
  createClient(provider: unknown): PapiClient;
  getWsProvider(endpoints: string[], config: Record<string, unknown>): unknown;
  withPolkadotSdkCompat(provider: unknown): unknown;
  withLegacy(): unknown;
}

let papi: PapiModules | undefined;

export function papiModules(): PapiModules {
  if (papi) return papi;
  const fromSdk = createRequire(createRequire(__filename).resolve('@paraspell/sdk'));
  papi = {
    createClient: (fromSdk('polkadot-api') as { createClient: PapiModules['createClient'] }).createClient,
    getWsProvider: (fromSdk('polkadot-api/ws-provider') as { getWsProvider: PapiModules['getWsProvider'] }).getWsProvider,
    withPolkadotSdkCompat: (fromSdk('polkadot-api/polkadot-sdk-compat') as { withPolkadotSdkCompat: PapiModules['withPolkadotSdkCompat'] }).withPolkadotSdkCompat,
    withLegacy: (fromSdk('@polkadot-api/legacy-provider') as { withLegacy: PapiModules['withLegacy'] }).withLegacy,
  };
  return papi;
}
