import { LRUCache } from 'lru-cache';
import { normaliseHostname } from './address-guard';

/** What the checks and the pool read of an endpoint URL: parsed once per URL (a request may name 7 or more, every time). */
export interface EndpointParts {
  /** normaliseEndpoint's form. */
  readonly normalised: string;
  /** The host as the URL spells it (`u.hostname`). */
  readonly hostname: string;
  /** Whether it carries `user:password@`. */
  readonly credentials: boolean;
}

/** URLs parsed so far, least recently used first out; URLs longer than LONGEST_HELD are parsed each time. */
const held = new LRUCache<string, EndpointParts>({ max: 1_000 });
const LONGEST_HELD = 512;

/** The parts of an endpoint URL (throws as `new URL` does for one that does not parse). */
export function endpointParts(url: string): EndpointParts {
  const known = held.get(url);
  if (known) return known;
  const u = new URL(url);
  const host = normaliseHostname(u.hostname);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const port = u.port ? `:${u.port}` : '';
  const path = u.pathname.replace(/\/+$/, '');
  const parts = { normalised: `${u.protocol}//${hostPart}${port}${path}`, hostname: u.hostname, credentials: u.username !== '' || u.password !== '' };
  if (url.length <= LONGEST_HELD) held.set(url, parts);
  return parts;
}

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
  return endpointParts(url).normalised;
}

/** Distinct endpoints, normalised, in their first order. */
export function distinctEndpoints(urls: readonly string[]): string[] {
  return [...new Set(urls.map(normaliseEndpoint))];
}
