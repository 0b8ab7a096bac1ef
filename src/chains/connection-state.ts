// How the chain clients say a connection is gone or stuck. A request meets these when its node
// closed the socket (or we failed it for a frame) while the request was in flight or between its
// calls; each is the chain's doing, answered 502/503/504 naming the chain, never 500.

/** What a connection-state error says. */
export type ConnectionState =
  /** polkadot.js rejects calls in flight with `disconnected from <url>: <code>:: <reason>` when the socket closes. */
  | { state: 'closed'; endpoint: string; code: number; reason: string }
  /** A call made after the socket closed: polkadot.js `WebSocket is not connected`, ws `WebSocket is not open`. */
  | { state: 'not-connected' }
  /** polkadot.js gave up waiting for an answer (its own timeout). */
  | { state: 'no-answer'; seconds: number };

const DISCONNECTED = /^disconnected from (\S+): (\d+):: ?([\s\S]*)$/;
const NOT_CONNECTED = /^WebSocket is not (connected|open)\b/;
const NO_ANSWER = /^No response received from RPC endpoint in (\d+)s/;

/** The connection state an error reports, or undefined when it is not about the connection. */
export function connectionStateOf(error: unknown): ConnectionState | undefined {
  if (!(error instanceof Error)) return undefined;
  const closed = DISCONNECTED.exec(error.message);
  if (closed) return { state: 'closed', endpoint: closed[1], code: Number(closed[2]), reason: closed[3] };
  if (NOT_CONNECTED.test(error.message)) return { state: 'not-connected' };
  const silent = NO_ANSWER.exec(error.message);
  if (silent) return { state: 'no-answer', seconds: Number(silent[1]) };
  return undefined;
}
