// Patch: an error an RxJS pipeline of a chain client leaves unhandled ends that client's connection.
//
// Corrects: RxJS 7 (under @polkadot/api 16 and polkadot-api) rethrows an error no subscriber handles
// from a setTimeout, where it is an uncaught exception. ApiPromise subscribes to the runtime version
// with no error handler: one `state_runtimeVersion` notification whose specVersion does not decode
// ("abc", 1e400, {"a":1}) failed createType(RuntimeVersion) and stopped the process.
//
// Still needed? As long as polkadot.js (ApiBase `_subscribeUpdates`) or polkadot-api subscribes
// without an error handler. An error raised outside any chain socket's delivery is rethrown as
// RxJS would: it stays fatal.
//
// Guarded by: test/hostile/containment.test.ts "a runtime version that does not decode ...".
import { containClientError } from '../../chains/containment';

/** Sets RxJS's unhandled-error hook; call before any chain client subscribes. */
export function containObservableErrors(load: NodeJS.Require): void {
  const { config } = load('rxjs') as typeof import('rxjs');
  config.onUnhandledError = (error: unknown) => {
    if (!containClientError(error)) throw error;
  };
}
