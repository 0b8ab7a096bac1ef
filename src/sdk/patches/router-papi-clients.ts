// Patch: the polkadot-api clients xcm-router opens during a request are ours, closed when it ends.
//
// Corrects: xcm-router 11 builds with the papi SDK (@paraspell/sdk 11), whose `createApiInstance`
// creates a polkadot-api client per call, caches it and never destroys it; its provider retries an
// unreachable or closing node for ever (at once, in a loop). Inside a request's engine scope the
// client is created by the scope instead (src/chains/engine-scope.ts: our ChainSocket, the
// request's endpoints, the connect deadline, destroyed when the request ends). Outside a scope the papi SDK behaves as before.
//
// Still needed? While the router's papi clients cannot be given to it, or are not destroyed by it.
// Remove it and run the guard tests.
//
// Guarded by: test/hostile/router-clients.test.ts "an origin that accepts and closes (the router
// reads it through polkadot-api): its client ends with the request, no reconnect loop survives".
import { apiPrototypeOf } from '../api-prototype';
import { currentEngineScope } from '../engine-scopes';

type CreateApiInstance = (this: unknown, wsUrl: string | string[], chain: string) => Promise<unknown>;

export function createRouterPapiClientsInScope(papiSdk: { Builder(options: object): unknown }): void {
  const proto = apiPrototypeOf<{ createApiInstance: CreateApiInstance }>(papiSdk);
  const original = proto.createApiInstance;
  proto.createApiInstance = function createApiInstance(wsUrl, chain) {
    const scope = currentEngineScope();
    if (!scope) return original.call(this, wsUrl, chain);
    return Promise.resolve(scope.papiClient(chain, wsUrl));
  };
}
