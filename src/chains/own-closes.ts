// Closes we asked for, as polkadot.js reports them. Its provider's `disconnect()` closes the socket
// with 1000 and fails every call still waiting with `disconnected from <url>: 1000:: Normal Closure`,
// and polkadot.js reports each such call on the console (`RPC-CORE: subscribeRuntimeVersion(): ...`,
// `API/INIT: FATAL ...` for a dial we gave up). Those are not failures: the service closed the
// connection (idle, evicted, a dial abandoned, shutdown) and said so itself where it matters.
// A socket marks its endpoint while its close, asked for by its client, is handed over, and until the
// reports that close sets off in the same turn are made; a node's own close (even with 1000) is not marked.

/** Endpoints a close asked for is being handed over on (a count: sockets to one endpoint may close together). */
const closing = new Map<string, number>();

const OWN_CLOSE_REPORT = /disconnected from (\S+): 1000:: Normal Closure(?:\n|$)/;

/** Runs `deliver` (a close our client asked for, on the socket to `url`, its `href`) with `url` marked until the turn after it. */
export function handingOverOwnClose<T>(url: string, deliver: () => T): T {
  closing.set(url, (closing.get(url) ?? 0) + 1);
  try {
    return deliver();
  } finally {
    // The calls the close fails report from promise callbacks: all run before the next turn.
    setImmediate(() => {
      const left = (closing.get(url) ?? 1) - 1;
      if (left > 0) closing.set(url, left);
      else closing.delete(url);
    });
  }
}

/** Whether a chain client's console `text` reports a call cut short by a close we asked for. */
export function isOwnCloseReport(text: string): boolean {
  const url = OWN_CLOSE_REPORT.exec(text)?.[1];
  if (url === undefined || closing.size === 0) return false;
  // The report names the endpoint as given; the socket as `ws` spells it (`ws://host:port/`).
  try {
    return closing.has(new URL(url).href);
  } catch {
    return false;
  }
}
