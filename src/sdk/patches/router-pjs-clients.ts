// Patch: the polkadot.js clients xcm-router opens during a request are borrowed from our pool.
//
// Corrects: xcm-router 11 opens chain clients of its own on every call, through sdk-pjs's
// `createApiInstance` (a new WsProvider + ApiPromise per call): never closed, never giving up on
// an unreachable node. Inside a request's engine scope (engine-scopes.ts) the chain is borrowed
// from the pool instead, at the endpoints the request resolves (its apiOverrides, else
// CHAIN_ENDPOINTS): shared, held to the connect deadline, released when the request ends.
// Outside a scope (the SDK under our own chain scopes) sdk-pjs behaves as before.
//
// Still needed? While the router builds with its own clients and offers no way to pass ours
// (apiOverrides reaching every client it opens). Remove it and run the guard test.
//
// Guarded by: test/hostile/router-clients.test.ts "N router calls: one pooled connection to the
// exchange chain ...", "an unreachable exchange chain: 503 ...", "a silent exchange chain: 503
// ...", "a node that accepts and closes: no reconnect loop survives the request", "without
// apiOverrides the router dials CHAIN_ENDPOINTS' nodes, through the pool, ...".
import { apiPrototypeOf } from '../api-prototype';
import { currentEngineScope } from '../engine-scopes';

type CreateApiInstance = (this: unknown, wsUrl: string | string[], chain: string) => Promise<unknown>;

export function borrowRouterPjsClientsFromPool(sdkPjs: { Builder(options: object): unknown }): void {
  const proto = apiPrototypeOf<{ createApiInstance: CreateApiInstance }>(sdkPjs);
  const original = proto.createApiInstance;
  proto.createApiInstance = function createApiInstance(wsUrl, chain) {
    const scope = currentEngineScope();
    if (!scope) return original.call(this, wsUrl, chain);
    return scope.borrow(chain, Array.isArray(wsUrl) ? wsUrl : [wsUrl]);
  };
}
