// Resolving names clients chose (apiOverrides hosts, webhook hosts) without the thread pool.
// dns.lookup runs getaddrinfo on one of libuv's 4 threads and holds it until the name servers
// answer or the system's resolver gives up: a client naming hosts whose servers never answer held
// every thread, and fs, crypto and every other lookup queued behind it. c-ares (dns.Resolver)
// asks the name servers itself, on the event loop, within a deadline of its own.
import { promises as dns } from 'node:dns';
import type { Resolve } from './address-guard';

export interface NameResolverOptions {
  /** DNS_TIMEOUT_MS: one whole lookup (its A and AAAA queries together). */
  timeoutMs: number;
  /** DNS_SERVERS: `ip` or `ip:port` name servers; empty or absent: the system's (/etc/resolv.conf). */
  servers?: readonly string[];
}

/** A lookup that ran out of time; `code` as c-ares names it. */
const timedOut = (hostname: string, ms: number): NodeJS.ErrnoException =>
  Object.assign(new Error(`no answer for ${hostname} within ${ms} ms`), { code: 'ETIMEOUT' });

/**
 * Resolves with c-ares: the A and AAAA records (IPv4 first), from DNS alone (not /etc/hosts nor
 * search domains, which only getaddrinfo reads: names clients choose are full DNS names). Fails
 * when neither query answers an address, with the A query's code (ENOTFOUND, ENODATA, ETIMEOUT...).
 * `close()` cancels the queries in flight (they fail with ECANCELLED).
 */
export function nameResolver(options: NameResolverOptions): { resolve: Resolve; close(): void } {
  const { timeoutMs } = options;
  // c-ares caps a try at 5 s unless told (maxTimeout), and shortens it to what a server's past
  // answers took (a caching server answering in 1 ms gets about 1 s): a second try then serves a
  // cold name. The deadline below bounds them all.
  const resolver = new dns.Resolver({ timeout: timeoutMs, maxTimeout: timeoutMs, tries: 2 });
  if (options.servers && options.servers.length > 0) resolver.setServers([...options.servers]);
  const resolve: Resolve = (hostname) =>
    new Promise<string[]>((settle, reject) => {
      const timer = setTimeout(() => reject(timedOut(hostname, timeoutMs)), timeoutMs);
      Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]).then(([v4, v6]) => {
        clearTimeout(timer);
        const addresses = [v4, v6].flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
        if (addresses.length > 0 || (v4.status === 'fulfilled' && v6.status === 'fulfilled')) settle(addresses);
        else reject(v4.status === 'rejected' ? v4.reason : (v6 as PromiseRejectedResult).reason);
      });
    });
  return { resolve, close: () => resolver.cancel() };
}
