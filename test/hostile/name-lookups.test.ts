// Names clients choose (webhook and apiOverrides hosts) are resolved by c-ares against DNS_SERVERS
// (here a name server of the test's own on 127.0.0.1), never by getaddrinfo on libuv's thread pool:
// hosts whose name server never answers hold no thread, and a client has at most
// DNS_MAX_LOOKUPS_PER_CLIENT of them in flight. Clients are told apart by X-Forwarded-For.
import { pbkdf2, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressGuard } from '../../src/chains/address-guard';
import { nameResolver } from '../../src/chains/name-resolver';
import { expectErrorBody, FAMILIES, testApp } from '../helpers/app';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { until } from './helpers';

let dns: DnsServer;

beforeAll(async () => {
  // hang.test: a name server that never answers; nx.test: NXDOMAIN; ok.test: a public address.
  dns = await startDnsServer((name) => (name.endsWith('.hang.test') ? 'ignore' : name === 'ok.test' ? ['93.184.215.14'] : 'nxdomain'));
});
afterAll(() => dns.close());

const watchBody = (host: string) => ({ from: 'Polkadot', to: 'AssetHubPolkadot', txHash: `0x${'ab'.repeat(32)}`, webhook: { url: `https://${host}/hook?token=secret` } });

describe('name lookups of names clients choose', () => {
  it('8 lookups hung on a silent name server hold no thread-pool thread (crypto and fs still run), a client over DNS_MAX_LOOKUPS_PER_CLIENT is refused (429, webhook and apiOverrides hosts alike) and another is not', async () => {
    // The lookups' own deadline is far off: they are all still in flight when the checks run.
    const { app, services, config } = testApp({ TRUST_PROXY: 'loopback', ALLOW_PRIVATE_OVERRIDES: 'false', DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: '600000' });
    let settled = 0;
    const hung = ['198.51.100.1', '198.51.100.2'].flatMap((client) =>
      Array.from({ length: config.DNS_MAX_LOOKUPS_PER_CLIENT }, (_, i) =>
        request(app)
          .post('/v5/x-transfer/watch')
          .set('X-Forwarded-For', client)
          .send(watchBody(`hook-${i}.${client}.hang.test`))
          .then((res) => {
            settled++;
            return res;
          }),
      ),
    );
    expect(hung.length).toBeGreaterThan(4); // libuv's threads: getaddrinfo would have held them all
    const asked = () => new Set(dns.questions.filter((q) => q.name.endsWith('.hang.test')).map((q) => q.name)).size;
    await until(() => asked() === hung.length, 'every hung name to be asked of the name server');

    // Work that needs the thread pool completes while every lookup is still in flight.
    const key = await promisify(pbkdf2)(randomBytes(16), randomBytes(16), 1_000, 32, 'sha256');
    expect(key).toHaveLength(32);
    expect((await readFile(__filename, 'utf8')).length).toBeGreaterThan(0);
    expect(settled).toBe(0);

    // Over its bound, a client is refused at once, asking nothing; another client still resolves.
    const before = dns.questions.length;
    const refused = await request(app).post('/v5/x-transfer/watch').set('X-Forwarded-For', '198.51.100.1').send(watchBody('another.hang.test'));
    expectErrorBody(refused.body, 429, 'TooManyLookupsError');
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.message).toContain('DNS_MAX_LOOKUPS_PER_CLIENT');
    // apiOverrides hosts spend the same bound.
    const override = await request(app)
      .post('/v5/x-transfer')
      .set('X-Forwarded-For', '198.51.100.2')
      .send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ', options: { apiOverrides: { Polkadot: 'wss://node.hang.test/polkadot' } } });
    expectErrorBody(override.body, 429, 'TooManyLookupsError');
    expect(dns.questions.length).toBe(before);
    const other = await request(app).post('/v5/x-transfer/watch').set('X-Forwarded-For', '203.0.113.9').send(watchBody('gone.nx.test'));
    expectErrorBody(other.body, 400, 'ValidationError');
    expect(settled).toBe(0);

    // Shutting down cancels the lookups in flight: every request is answered.
    await services.close();
    for (const res of await Promise.all(hung)) expect(res.status).toBe(400);
  });

  it('a webhook host that does not resolve when the watch is made is a 400 naming body.webhook.url (both families), the URL not echoed', async () => {
    const { app, services } = testApp({ DNS_SERVERS: dns.address });
    try {
      for (const family of FAMILIES) {
        const res = await request(app).post(`/${family}/x-transfer/watch`).send(watchBody('hooks.nx.test'));
        expectErrorBody(res.body, 400, 'ValidationError');
        expect(res.body.details).toEqual([{ path: 'body.webhook.url', message: 'must name a host that resolves' }]);
        expect(res.body.message).toMatch(/hooks\.nx\.test does not resolve \(ENOTFOUND\)/);
        expect(res.text).not.toContain('token=secret');
      }
    } finally {
      await services.close();
    }
  });

  it('localhost and IP literals resolve without asking DNS; names are checked as resolved', async () => {
    const names = nameResolver({ timeoutMs: 600_000, servers: [dns.address] });
    try {
      const before = dns.questions.length;
      const open = new AddressGuard(true, names.resolve);
      expect(await open.addressesOf('localhost')).toEqual(['127.0.0.1', '::1']);
      expect(await open.addressesOf('node.localhost.')).toEqual(['127.0.0.1', '::1']);
      expect(await open.addressesOf('[::1]')).toEqual(['::1']);
      expect(await open.addressesOf('127.0.0.1')).toEqual(['127.0.0.1']);
      expect(dns.questions.length).toBe(before);
      const strict = new AddressGuard(false, names.resolve);
      expect(await strict.addressesOf('ok.test')).toEqual(['93.184.215.14']);
      await expect(strict.addressesOf('gone.nx.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    } finally {
      names.close();
    }
  });
});
