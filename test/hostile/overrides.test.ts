// Caller-supplied endpoints (options.apiOverrides) with the guard on (ALLOW_PRIVATE_OVERRIDES=false):
// the forms that used to slip through, names, credentials and sizes. Names never reach real DNS:
// the services get a resolver of ours.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressGuard, refusalOf } from '../../src/chains/address-guard';
import { normaliseEndpoint } from '../../src/chains/endpoint';
import { loadConfig } from '../../src/config';
import { createApp } from '../../src/http/app';
import { createServices } from '../../src/service';
import type { HostileNode } from '../support/hostile-node';
import type { TestChain } from '../support/test-chain';
import { expectErrorBody } from '../helpers/app';
import { ADDRESS, serverSet, swapBody } from './helpers';

const servers = serverSet();
let upstream: TestChain;
let node: HostileNode;
let port: number;

/** What our resolver answers; a name it does not know does not resolve. */
const dns = new Map<string, string[][]>();
const resolve = async (host: string): Promise<string[]> => {
  const answers = dns.get(host);
  if (!answers?.length) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  // Each lookup takes the next answer (the last one repeats): a name can change its answer.
  return answers.length > 1 ? (answers.shift() as string[]) : answers[0];
};

const config = loadConfig({ LOG_LEVEL: 'silent', ALLOW_PRIVATE_OVERRIDES: 'false', CONNECT_TIMEOUT_MS: '3000' });
const services = createServices(config, pino({ level: 'silent' }), { resolve });
const app = createApp({ config, logger: pino({ level: 'silent' }), services });

beforeAll(async () => {
  upstream = await servers.chain('AssetHubPolkadot');
  node = await servers.hostile({ upstream: upstream.url });
  port = Number(new URL(node.url).port);
});
afterAll(async () => {
  await services.close();
  await servers.closeAll();
});

const balance = (overrides: unknown) =>
  request(app)
    .post('/v5/balance/AssetHubPolkadot')
    .send({ address: ADDRESS, options: { development: true, apiOverrides: { AssetHubPolkadot: overrides } } });

describe('addresses the guard refuses (and the node behind them is never dialled)', () => {
  const refusedHosts = () => [
    `[::ffff:127.0.0.1]:${port}`,
    `[0:0:0:0:0:ffff:7f00:1]:${port}`,
    `[::ffff:0.0.0.0]:${port}`,
    '[::ffff:10.0.0.1]',
    '[::ffff:169.254.169.254]',
    `[::7f00:1]:${port}`,
    `[64:ff9b::7f00:1]:${port}`,
    '[2002:7f00:1::1]',
    '[fec0::1]',
    '[fd00::1]',
    '[fe80::1]',
    '[ff02::1]',
    '[::1]',
    '[::]',
    '[2001::1]',
    `127.0.0.1:${port}`,
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '198.18.0.1',
    '192.0.0.1',
    '192.0.2.1',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '0x7f.1',
    '2130706433',
    `localhost:${port}`,
    `localhost.:${port}`,
    `LOCALHOST..:${port}`,
    'node.localhost.',
    'metadata.google.internal.',
    'printer.local',
    'intranet',
  ];

  it('each form: 400 ValidationError naming the field; no connection reaches the node', async () => {
    const before = node.connectionsOpened;
    for (const host of refusedHosts()) {
      const res = await balance(`ws://${host}/`);
      expect(res.status, `${host}: ${JSON.stringify(res.body)}`).toBe(400);
      expectErrorBody(res.body, 400, 'ValidationError');
      expect(res.body.details[0].path).toBe('body.options.apiOverrides.AssetHubPolkadot');
    }
    expect(node.connectionsOpened).toBe(before);
  });

  it('a name that resolves to a private address (any of its addresses): 400', async () => {
    dns.set('inside.example', [['93.184.216.34', '10.0.0.5']]);
    dns.set('mapped.example', [['::ffff:127.0.0.1']]);
    for (const name of ['inside.example', 'mapped.example', 'inside.example.']) {
      const res = await balance(`ws://${name}:${port}`);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.message).toMatch(/resolves to/);
    }
  });

  it('DNS rebinding: a name that was public when checked and private when dialled is not connected to (503)', async () => {
    const before = node.connectionsOpened;
    dns.set('rebind.example', [['93.184.216.34'], ['127.0.0.1']]);
    const res = await balance(`ws://rebind.example:${port}`);
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('EADDRNOTPUBLIC');
    expect(node.connectionsOpened).toBe(before);
  });

  it('a name that does not resolve: 503 naming ENOTFOUND, never [object Object]', async () => {
    const res = await balance('ws://nowhere.example');
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.message).toContain('ENOTFOUND');
    expect(res.body.message).not.toContain('[object Object]');
  });
});

describe('Ethereum JSON-RPC overrides (balances on Ethereum) obey the same guard', () => {
  const EVM = '0x1501C1413e4178c38567Ada8945A80351F7B8496';
  let rpc: http.Server;
  let rpcPort: number;
  let asked = 0;
  beforeAll(async () => {
    rpc = http.createServer((req, res) => {
      asked++;
      req.resume();
      req.on('end', () => res.setHeader('content-type', 'application/json').end('{"jsonrpc":"2.0","id":1,"result":"0x64"}'));
    });
    await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
    rpcPort = (rpc.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => rpc.close(() => resolve())));
  const ethBalance = (url: string) => request(app).post('/v5/balance/Ethereum').send({ address: EVM, options: { development: true, apiOverrides: { Ethereum: url } } });

  it('a loopback endpoint: 400, and the node is never asked', async () => {
    const res = await ethBalance(`http://127.0.0.1:${rpcPort}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(asked).toBe(0);
  });

  it('DNS rebinding: a name that was public when checked and private when dialled is not connected to (503)', async () => {
    dns.set('eth-rebind.example', [['93.184.216.34'], ['127.0.0.1']]);
    const res = await ethBalance(`http://eth-rebind.example:${rpcPort}`);
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('EADDRNOTPUBLIC');
    expect(asked).toBe(0);
  });
});

describe('URLs', () => {
  it('credentials (user:pass@) are refused and never echoed', async () => {
    const res = await balance('wss://alice:s3cr3t-token@rpc.example/');
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(JSON.stringify(res.body)).not.toContain('s3cr3t-token');
  });

  it('a URL over 2,048 characters is a 400; messages quote at most 200 characters of a URL', async () => {
    const long = await balance(`wss://rpc.example/${'a'.repeat(2_100)}`);
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).not.toContain('a'.repeat(201));

    const refused = await balance(`ws://10.0.0.1/${'b'.repeat(1_500)}`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).not.toContain('b'.repeat(201));
  });

  it('at most 4 distinct endpoints per chain: the same node under 40 query strings is one', async () => {
    const five = await balance(['a', 'b', 'c', 'd', 'e'].map((h) => `wss://${h}.example`));
    expect(five.status).toBe(400);
    expect(five.body.message).toContain('at most 4 distinct endpoints');
    // Not a refusal: these are one node (query strings dropped), so they pass the count.
    const same = Array.from({ length: 40 }, (_, i) => `wss://a.example/?n=${i}`);
    expect(new Set(same.map(normaliseEndpoint)).size).toBe(1);
  });
});

describe('classification (ipaddr.js after normalising)', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])('%s is public', (ip) => {
    expect(refusalOf(ip)).toBeUndefined();
  });

  it('the lookup hands the socket only addresses it checked', async () => {
    const guard = new AddressGuard(false, async () => ['93.184.216.34', '2606:2800:220:1::1']);
    const all = await new Promise((ok, ko) => guard.lookup('x.example', { all: true }, (e, a) => (e ? ko(e) : ok(a))));
    expect(all).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    const bad = new AddressGuard(false, async () => ['93.184.216.34', '127.0.0.1']);
    await expect(new Promise((ok, ko) => bad.lookup('x.example', {}, (e, a) => (e ? ko(e) : ok(a))))).rejects.toMatchObject({ code: 'EADDRNOTPUBLIC' });
  });
});

describe("the router's exchange clients obey the same guard", () => {
  it('a mapped loopback override: 400 before anything is dialled', async () => {
    const before = node.connectionsOpened;
    const res = await request(app)
      .post('/v5/router')
      .send(swapBody({ Polkadot: `ws://[::ffff:127.0.0.1]:${port}`, Hydration: `ws://[::ffff:127.0.0.1]:${port}` }));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(node.connectionsOpened).toBe(before);
  });

  it('names that turn private after the check: no router client connects (503)', async () => {
    const before = node.connectionsOpened;
    dns.set('origin.example', [['93.184.216.34'], ['127.0.0.1']]);
    dns.set('exchange.example', [['93.184.216.34'], ['127.0.0.1']]);
    const res = await request(app)
      .post('/v5/router')
      .send(swapBody({ Polkadot: `ws://origin.example:${port}`, Hydration: `ws://exchange.example:${port}` }));
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expectErrorBody(res.body, 503, 'ProviderUnavailableError');
    expect(res.body.message).toContain('EADDRNOTPUBLIC');
    expect(node.connectionsOpened).toBe(before);
  }, 30_000);
});
