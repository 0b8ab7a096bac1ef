// Offline is enforced, not assumed: every connection to an address other than 127.0.0.1 (socket
// connect, TLS, DNS lookup, fetch) throws, and the test that caused it fails in `afterEach` even
// when the code under test swallowed the error (a pool turning it into a 503, say). A regression
// that dials a public endpoint then fails the run instead of hanging or passing.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';

const LOOPBACK = '127.0.0.1';
/** What a socket may reach: IPv4's loopback, and IPv6's (`localhost` resolves to both). */
const LOOPBACK_ADDRESSES = new Set([LOOPBACK, '::1']);

const INSTALLED = Symbol.for('xcm-gateway.test.offline');

/** Attempts to leave the machine since the last `takeOfflineViolations()`. */
const violations: string[] = [];

export function takeOfflineViolations(): string[] {
  return violations.splice(0, violations.length);
}

function refuse(what: string): Error {
  const message = `offline test run: ${what} is not 127.0.0.1 (tests reach only the loopback test chains)`;
  violations.push(message);
  return new Error(message);
}

interface ConnectTarget {
  host?: string;
  port?: unknown;
  path?: string;
}

/** The host a `Socket#connect` call aims at; undefined for an IPC path (local by nature). */
function targetOf(args: unknown[]): { host: string; port: unknown } | undefined {
  // net.connect() hands over its normalized arguments as one array: [options, callback].
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const o = first as ConnectTarget;
    if (typeof o.path === 'string') return undefined;
    return { host: o.host ?? 'localhost', port: o.port };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined; // a pipe path
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
type LookupFunction = (hostname: string, options: unknown, callback: LookupCallback) => void;

/** `lookup`, refusing any address it resolves `host` to other than 127.0.0.1. */
function checkedLookup(lookup: LookupFunction, host: string): LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, options, (error, address, family) => {
      if (!error) {
        const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
        const outside = addresses.find((a) => !LOOPBACK_ADDRESSES.has(a));
        if (outside !== undefined) {
          callback(refuse(`a socket connect to ${host} (${outside})`), address, family);
          return;
        }
      }
      callback(error, address, family);
    });
}

function hostOf(input: unknown): string | undefined {
  try {
    if (typeof input === 'string' || input instanceof URL) return new URL(input).hostname;
    if (input instanceof Request) return new URL(input.url).hostname;
  } catch {
    return undefined;
  }
  return undefined;
}

export function installOfflineGuard(): void {
  const g = globalThis as { [INSTALLED]?: boolean };
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    // A connect by name with a lookup of its own (the service's address guard pins what it
    // resolved): let the name through and check every address the lookup hands the socket.
    const options = (Array.isArray(args[0]) ? args[0][0] : args[0]) as (ConnectTarget & { lookup?: unknown }) | undefined;
    if (typeof options === 'object' && options !== null && typeof options.lookup === 'function' && typeof options.host === 'string' && net.isIP(options.host) === 0) {
      options.lookup = checkedLookup(options.lookup as LookupFunction, options.host);
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    }
    const target = targetOf(args);
    if (target && !LOOPBACK_ADDRESSES.has(target.host)) throw refuse(`a socket connect to ${target.host}:${String(target.port)}`);
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;

  const tlsConnect = tls.connect;
  tls.connect = function guardedTlsConnect(...args: unknown[]) {
    const o = (typeof args[0] === 'object' && args[0] !== null ? args[0] : typeof args[1] === 'object' ? args[1] : {}) as ConnectTarget & { servername?: string };
    const host = typeof args[1] === 'string' ? args[1] : (o.host ?? o.servername ?? 'localhost');
    if (host !== LOOPBACK) throw refuse(`a TLS connect to ${host}`);
    return (tlsConnect as (...a: unknown[]) => tls.TLSSocket)(...args);
  } as typeof tls.connect;

  // Name resolution: only the loopback literal resolves (a lookup of a name is already a leak).
  const guardName = (what: string) => (hostname: unknown) => {
    if (hostname !== LOOPBACK) throw refuse(`a DNS ${what} of ${String(hostname)}`);
  };
  // A Resolver whose name servers are all 127.0.0.1 (a test's own DNS server) never leaves the machine.
  const askedLocally = (resolver: unknown): boolean =>
    resolver instanceof dns.Resolver || resolver instanceof dns.promises.Resolver ? resolver.getServers().every((server) => server === LOOPBACK || server.startsWith(`${LOOPBACK}:`)) : false;
  const wrap = <T extends object>(target: T, names: string[], promises = false) => {
    for (const name of names) {
      const original = (target as Record<string, unknown>)[name];
      if (typeof original !== 'function') continue;
      const check = guardName(name);
      (target as Record<string, unknown>)[name] = function guarded(this: unknown, hostname: unknown, ...rest: unknown[]) {
        if (askedLocally(this)) return (original as (...a: unknown[]) => unknown).call(this, hostname, ...rest);
        if (promises) {
          try {
            check(hostname);
          } catch (error) {
            return Promise.reject(error);
          }
        } else check(hostname);
        return (original as (...a: unknown[]) => unknown).call(this, hostname, ...rest);
      };
    }
  };
  const RESOLVERS = ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveTxt', 'resolveSrv', 'resolveNs', 'resolveMx'];
  wrap(dns, RESOLVERS);
  wrap(dns.promises, RESOLVERS, true);
  wrap(dns.Resolver.prototype, RESOLVERS);
  wrap(dns.promises.Resolver.prototype, RESOLVERS, true);

  const realFetch = globalThis.fetch;
  globalThis.fetch = function guardedFetch(input: Parameters<typeof fetch>[0], init?: RequestInit) {
    const host = hostOf(input);
    if (host !== LOOPBACK) return Promise.reject(refuse(`a fetch of ${host ?? String(input)}`));
    return realFetch(input, init);
  };

  // ESM imports of node:dns / node:net see the patched functions too.
  syncBuiltinESMExports();
}
