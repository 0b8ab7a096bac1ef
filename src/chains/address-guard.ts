import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { TooManyLookupsError } from '../errors';

/** Resolves a host name to every address it has (IPv4 and IPv6). Injected in tests: no real DNS. */
export type Resolve = (hostname: string) => Promise<string[]>;

/**
 * getaddrinfo (a thread-pool thread per lookup, /etc/hosts and search domains): only for names the
 * operator chose (CHAIN_ENDPOINTS, ETHEREUM_RPC_URL); names clients choose go through c-ares
 * (name-resolver.ts).
 */
export const systemResolve: Resolve = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A host this service refuses to dial; `code` is what socket errors carry. */
export class AddressRefusedError extends Error {
  readonly code = 'EADDRNOTPUBLIC';
}

/** Bounds the lookups each client has in flight (DNS_MAX_LOOKUPS_PER_CLIENT). */
export interface LookupBound {
  maxPerClient: number;
  /** The client a lookup counts against; undefined for the operator's own work (not bounded). */
  clientOf(): string | undefined;
}

// RFC 6761: these names are the loopback addresses, without asking DNS (c-ares would ask).
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];
const isLocalhost = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

// Names that never leave the machine or the operator's network, whatever DNS says.
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa', '.lan', '.intranet', '.corp'];

/** Lower case, without the trailing dots that make `localhost.` a different string for the same name. */
export function normaliseHostname(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');
}

/** The IPv4 address an IPv6 form carries (mapped, compatible, NAT64 64:ff9b::/96, 6to4), if any. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const fromParts = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  // IPv4-compatible ::a.b.c.d (::/96; :: and ::1 are judged as IPv6 below).
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1)) return fromParts(p[6], p[7]);
  // NAT64 well-known prefix 64:ff9b::/96.
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) return fromParts(p[6], p[7]);
  // 6to4 2002:AABB:CCDD::/48.
  if (p[0] === 0x2002) return fromParts(p[1], p[2]);
  return undefined;
}

/**
 * Why an IP address may not be dialled, or undefined when it is a public unicast address.
 * IPv6 forms that carry an IPv4 address are judged by that address; other IPv6 addresses must be
 * global unicast (2000::/3) that ipaddr.js classifies as `unicast` (not Teredo, documentation, ...).
 */
export function refusalOf(ip: string): string | undefined {
  if (!ipaddr.isValid(ip)) return 'not an IP address';
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const v4 = embeddedIPv4(v6);
    if (v4) {
      const inner = refusalOf(v4.toString());
      return inner && `${inner} (IPv4 ${v4.toString()} inside ${v6.toString()})`;
    }
    const range = v6.range();
    if (range !== 'unicast') return `${range} address`;
    if ((v6.parts[0] & 0xe000) !== 0x2000) return 'not a global unicast address';
    return undefined;
  }
  const range = (parsed as ipaddr.IPv4).range();
  return range === 'unicast' ? undefined : `${range} address`;
}

/**
 * Decides which hosts chain sockets may reach. With `allowPrivate` (ALLOW_PRIVATE_OVERRIDES, tests,
 * private deployments) every address passes; otherwise only public unicast addresses, checked after
 * resolution, and the socket connects to one of the addresses that were checked (see `lookup`).
 */
export class AddressGuard {
  /** Lookups in flight per client (absent at 0). */
  readonly #inFlight = new Map<string, number>();

  constructor(
    readonly allowPrivate: boolean,
    private readonly resolve: Resolve = systemResolve,
    private readonly bound?: LookupBound,
    /** This machine's addresses (loopback, `localhost`) pass too: the sandbox's webhook receivers. */
    readonly allowLoopback = false,
  ) {}

  /** Refuses names that are local by definition and IP literals outside public unicast (no DNS). */
  checkLiteral(hostname: string): void {
    if (this.allowPrivate) return;
    const host = normaliseHostname(hostname);
    if (this.allowLoopback && (host === 'localhost' || host.endsWith('.localhost') || this.#loopback(host))) return;
    if (host === '' || host === 'localhost' || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) {
      throw new AddressRefusedError(`${quote(host)} is a local name`);
    }
    if (isIP(host)) {
      const refusal = refusalOf(host);
      if (refusal) throw new AddressRefusedError(`${quote(host)} is a ${refusal}`);
    } else if (!host.includes('.')) {
      throw new AddressRefusedError(`${quote(host)} is a single-label name (resolved through local search domains)`);
    }
  }

  /** Every address the host has, each of them public (an IP literal is its own only address). */
  async addressesOf(hostname: string): Promise<string[]> {
    this.checkLiteral(hostname);
    const host = normaliseHostname(hostname);
    if (isIP(host)) return [host];
    // Reached only when private addresses are allowed (checkLiteral refuses local names).
    if (isLocalhost(host)) return LOOPBACK_ADDRESSES;
    let addresses: string[];
    try {
      addresses = await this.#counted(() => this.resolve(host));
    } catch (error) {
      if (error instanceof TooManyLookupsError) throw error;
      const code = (error as { code?: unknown }).code;
      throw Object.assign(new Error(`${quote(host)} does not resolve${typeof code === 'string' ? ` (${code})` : ''}`), { code: typeof code === 'string' ? code : 'ENOTFOUND' });
    }
    if (addresses.length === 0) throw Object.assign(new Error(`${quote(host)} has no address`), { code: 'ENOTFOUND' });
    if (!this.allowPrivate) {
      for (const address of addresses) {
        if (this.#loopback(address)) continue;
        const refusal = refusalOf(address);
        if (refusal) throw new AddressRefusedError(`${quote(host)} resolves to ${address}, a ${refusal}`);
      }
    }
    return addresses;
  }

  /** Runs a lookup counted against its client's bound; refused at once past it. */
  async #counted<T>(lookup: () => Promise<T>): Promise<T> {
    const client = this.bound?.clientOf();
    if (client === undefined || !this.bound) return lookup();
    const count = this.#inFlight.get(client) ?? 0;
    if (count >= this.bound.maxPerClient) throw new TooManyLookupsError(this.bound.maxPerClient);
    this.#inFlight.set(client, count + 1);
    try {
      return await lookup();
    } finally {
      const left = (this.#inFlight.get(client) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(client, left);
      else this.#inFlight.delete(client);
    }
  }

  /** An IP literal of this machine, when those are allowed. */
  #loopback(host: string): boolean {
    return this.allowLoopback && isIP(host) !== 0 && ipaddr.process(host).range() === 'loopback';
  }

  /**
   * A `lookup` for `net.connect` (through ws's options): resolves once, checks every address and
   * hands the socket only those, so what is dialled is what was checked (no DNS rebinding window).
   */
  readonly lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    this.addressesOf(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => isIP(a) === options.family) : addresses;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`${quote(hostname)} has no IPv${String(options.family)} address`), { code: 'ENOTFOUND' }), '');
          return;
        }
        if (options.all) callback(null, wanted.map((address) => ({ address, family: isIP(address) })));
        else callback(null, wanted[0], isIP(wanted[0]));
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** At most the first 200 characters of something a caller sent, for messages and logs. */
export function quote(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
