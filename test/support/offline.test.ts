import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import { startDnsServer } from './dns-server';
import { takeOfflineViolations } from './offline';
import { startTestChain } from './test-chain';

// The guard is installed by test/support/setup.ts for every file; these tests drain what they
// provoke so that the setup's afterEach check does not fail them.
describe('the offline guard (test/support/setup.ts)', () => {
  it('refuses a socket connect to any address but 127.0.0.1, and records it', () => {
    expect(() => net.connect(443, '1.1.1.1')).toThrow(/offline test run: a socket connect to 1\.1\.1\.1:443/);
    expect(() => net.connect({ host: 'rpc.polkadot.io', port: 443 })).toThrow(/rpc\.polkadot\.io/);
    expect(() => new net.Socket().connect(80, 'localhost')).toThrow(/localhost/);
    expect(() => tls.connect({ host: 'polkadot.api.onfinality.io', port: 443 })).toThrow(/TLS connect to polkadot\.api\.onfinality\.io/);
    expect(takeOfflineViolations()).toHaveLength(4);
  });

  it('refuses DNS lookups and fetch', async () => {
    expect(() => dns.lookup('example.com', () => undefined)).toThrow(/DNS lookup of example\.com/);
    await expect(dns.promises.lookup('example.com')).rejects.toThrow(/DNS lookup of example\.com/);
    await expect(fetch('https://example.com/')).rejects.toThrow(/fetch of example\.com/);
    expect(takeOfflineViolations()).toHaveLength(3);
  });

  it('lets a resolver whose name servers are all 127.0.0.1 ask them (a test\'s own DNS server), refuses any other resolver', async () => {
    const server = await startDnsServer(() => ['93.184.215.14']);
    try {
      const local = new dns.promises.Resolver();
      local.setServers([server.address]);
      expect(await local.resolve4('ok.test')).toEqual(['93.184.215.14']);
      expect(takeOfflineViolations()).toEqual([]);
      await expect(new dns.promises.Resolver().resolve4('example.com')).rejects.toThrow(/DNS resolve4 of example\.com/);
      expect(takeOfflineViolations()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('lets loopback through: a test chain on 127.0.0.1 answers', async () => {
    const chain = await startTestChain('Polkadot');
    try {
      const socket = net.connect(chain.port, '127.0.0.1');
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      socket.destroy();
      expect(takeOfflineViolations()).toEqual([]);
    } finally {
      await chain.close();
    }
  });

  it('a swallowed refusal stays on record for the afterEach check of test/support/setup.ts', () => {
    try {
      net.connect(9944, '10.0.0.1');
    } catch {
      // the code under test may swallow it (a pool turning it into a 503): the record remains
    }
    expect(takeOfflineViolations()).toEqual([expect.stringContaining('a socket connect to 10.0.0.1:9944')]);
  });
});
