// Patch: every polkadot.js provider in this process opens its sockets with our ChainSocket.
//
// Corrects: @polkadot/x-ws (under @polkadot/api 16) takes the global WebSocket when there is one
// (undici's, since Node 22) and the `ws` package otherwise. undici's socket knows nothing of our
// address guard, frame bound or frame checks (src/chains/chain-socket.ts), and a hostile node's
// frame could throw where nothing catches it. Keeping one client, ours, gives every connection the
// same options and failure behaviour, on every Node version.
//
// Still needed? As long as polkadot.js dials through x-ws. A newer @polkadot/api that accepts a
// WebSocket class per provider would let the pool pass ChainSocket instead (and this file goes).
//
// Guarded by: test/hostile/frames.test.ts, 20 of its 25 tests: every "one bad frame during a
// storage read" but the malformed storage value and the two closes, every "bad frames while
// connecting", "answers /health and other chains while a node misbehaves", and the TLS failure and
// refused port of "socket errors are named".
import { ChainSocket } from '../../chains/chain-socket';

/** Points x-ws's WebSocket export at ChainSocket; call before anything else loads @polkadot/*. */
export function useChainSocket(load: NodeJS.Require): void {
  // x-ws reads the global once, at load: hide undici's while it loads, so that it settles on `ws`.
  const globalWebSocket = Object.getOwnPropertyDescriptor(globalThis, 'WebSocket');
  if (globalWebSocket) delete (globalThis as { WebSocket?: unknown }).WebSocket;
  try {
    // Every polkadot.js provider reads this export when it connects: make it our guarded socket.
    (load('@polkadot/x-ws') as { WebSocket: unknown }).WebSocket = ChainSocket;
  } finally {
    if (globalWebSocket) Object.defineProperty(globalThis, 'WebSocket', globalWebSocket);
  }
}
