import { normaliseHostname } from './address-guard';

/**
 * The form of an endpoint URL that names one node: scheme, host (lower case, no trailing dot),
 * port (the default one dropped) and path (dot segments resolved, no trailing slash). The query
 * and fragment are dropped: a JSON-RPC node does not route on them, so `ws://node/?n=1` and
 * `ws://node/?n=2` are the same node and share one pooled connection; dropping them also keeps
 * whatever a caller put there (keys, tokens) out of our logs and messages. The path is kept:
 * one host often serves several chains under different paths (`wss://rpc.ibp.network/polkadot`).
 * Credentials (`user:pass@`) are never part of it; callers refuse them before this point.
 */
export function normaliseEndpoint(url: string): string {
  const u = new URL(url);
  const host = normaliseHostname(u.hostname);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const port = u.port ? `:${u.port}` : '';
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${hostPart}${port}${path}`;
}

/** Distinct endpoints, normalised, in their first order. */
export function distinctEndpoints(urls: readonly string[]): string[] {
  return [...new Set(urls.map(normaliseEndpoint))];
}
