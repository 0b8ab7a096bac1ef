// Patch: a WsProvider xcm-router creates itself during a request is closed when the request ends.
//
// Corrects: xcm-router 11's Acala and Karura exchanges open their own auto-reconnecting
// `WsProvider` (through @acala-network/api), never closed, reconnecting for ever. Any provider that
// connects inside a request's engine scope is tracked by it: held to the connect deadline and
// disconnected when the request ends. Providers the pool opens are dialled outside any scope
// (ConnectionPool), so only the router's own are tracked.
//
// Still needed? While the Acala/Karura exchanges create their providers themselves. Remove it and
// run the guard test.
//
// Guarded by: test/chains/engine-scope.test.ts "a WsProvider the router opens in a request scope
// is tracked by it and closed when the request ends".
import { polkadotApi } from '../load';
import { currentEngineScope } from '../engine-scopes';

type WsProvider = InstanceType<typeof polkadotApi.WsProvider>;

export function trackRouterWsProvidersInScope(): void {
  const proto = polkadotApi.WsProvider.prototype as { connect(this: WsProvider): Promise<void> };
  const original = proto.connect;
  proto.connect = function connect(this: WsProvider) {
    const scope = currentEngineScope();
    if (scope) scope.track(this);
    return original.call(this);
  };
}
