// An error a chain client raises while handling what a node sent ends that node's connection, not
// the process. Every event a chain socket delivers (message, open, close, error) runs inside
// `deliveringFor(socket, ...)`; whatever the clients schedule from there (timers, promise
// continuations) carries the socket along, so an error reported later is still traced to it.
//
// The paths by which a node's frame can raise an error, and where each is contained:
//  1. Synchronous throws in the clients' socket listeners (polkadot.js WsProvider's onmessage,
//     onopen, onclose; polkadot-api's listeners), in what they call synchronously (rpc-core's
//     subscription callbacks, our provider-level subscriptions such as the status head watch) and
//     in listeners of the provider's and ApiPromise's events: the try around every delivery in
//     ChainSocket.emit fails the socket.
//  2. RxJS pipelines with no error handler, chiefly ApiPromise's runtime-version subscription
//     (`state_subscribeRuntimeVersion` -> createType(RuntimeVersion) -> switchMap to
//     state_getMetadata -> new Metadata and registry set-up), also polkadot-api's observables
//     and a throwing `next` in any subscriber: RxJS reports these from a setTimeout (its
//     unhandled-error reporting), where no try reaches. `config.onUnhandledError`
//     (src/sdk/patches/contained-observable-errors.ts) hands them to `containClientError`, which
//     fails the socket the error descends from.
//  3. Decoders (createType on a result or notification, Metadata, JSON.stringify of an answer):
//     errors of theirs travel paths 1 and 2 or reject the request that asked; values nested deeper
//     than any decoder or JSON.stringify can walk are refused at the frame check (frame-check.ts).
//  4. Notifications the node was never asked for, which polkadot.js would keep for ever: refused
//     at the frame check.
// Rejected promises nobody awaits are not crashes (the service logs them); an error raised
// outside any socket's delivery is not a node's doing and stays fatal (uncaughtException).
import { AsyncLocalStorage } from 'node:async_hooks';

/** A connection that can be ended for an error its client raised. */
export interface Containable {
  failForClientError(error: unknown): void;
}

const delivering = new AsyncLocalStorage<Containable>();

/** Runs a socket's event delivery so that what it schedules is traced back to the socket. */
export function deliveringFor<T>(socket: Containable, deliver: () => T): T {
  return delivering.run(socket, deliver);
}

/**
 * Ends the connection whose delivery `error` descends from; false when it descends from none (the
 * caller then treats it as the process's own error).
 */
export function containClientError(error: unknown): boolean {
  const socket = delivering.getStore();
  if (!socket) return false;
  socket.failForClientError(error);
  return true;
}

/** What an error says, in one line (whatever was thrown: reading it must not throw in turn). */
export function errorText(error: unknown): string {
  try {
    return (error instanceof Error ? error.message : String(error)).split('\n')[0];
  } catch {
    return 'an error that cannot be read';
  }
}
