// Every request example of openapi.yaml (what /docs' "Try it" opens with: request bodies, path and
// required query parameters) answers the operation's success, exactly as written, against the
// sandbox's chains (src/sandbox/network.ts) and its Ethereum node: the senders are its funded
// development accounts. Left out: ids the service makes.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { sandboxService } from '../support/sandbox-service';
import { deref, isObject, loadSpec, operations, type Json } from '../helpers/openapi-document';

const doc = loadSpec();

interface Example {
  name: string;
  method: string;
  path: string;
  body?: Json;
  /** The success the document names (200; 201 for a watch made, 204 for one ended). */
  status: number;
}

/** The request each example makes: path parameters from their examples, the body from the request body's. */
function examples(): Example[] {
  const found: Example[] = [];
  for (const { method, path, op, parameters } of operations(doc)) {
    // A removed endpoint (410 only) has no success to try.
    const status = Number(Object.keys(isObject(op['responses']) ? op['responses'] : {}).find((code) => /^2\d\d$/.test(code)));
    if (!status) continue;
    let url = path;
    for (const p of parameters.filter((x) => x['in'] === 'path')) {
      const schema = isObject(p['schema']) ? deref(doc, p['schema'], 'schema') : {};
      const value = p['example'] ?? (Array.isArray(schema['examples']) ? schema['examples'][0] : undefined);
      url = url.replace(`{${String(p['name'])}}`, encodeURIComponent(String(value)));
    }
    const query = parameters.filter((x) => x['in'] === 'query' && x['required'] === true).map((x) => `${String(x['name'])}=${encodeURIComponent(String(x['example'] ?? (isObject(x['schema']) ? (x['schema']['examples'] as Json[] | undefined)?.[0] : '')))}`);
    if (query.length) url = `${url}?${query.join('&')}`;
    const body = op['requestBody'] === undefined ? undefined : deref(doc, op['requestBody'], `${path} requestBody`);
    const content = body && isObject(body['content']) && isObject(body['content']['application/json']) ? body['content']['application/json'] : undefined;
    const named = content && isObject(content['examples']) ? Object.entries(content['examples']) : [];
    for (const [name, example] of named) found.push({ name, method, path: url, body: deref(doc, example, name)['value'], status });
    if (content && named.length === 0 && content['example'] !== undefined) found.push({ name: 'example', method, path: url, body: content['example'], status });
    // A request without a body: its path parameters' examples are the example.
    if (!body && url !== path) found.push({ name: 'parameters', method, path: url, status });
  }
  return found;
}

/** A watch's id is made by the service (POST /x-transfer/watch answers it): the example id names none. */
const MADE_BY_THE_SERVICE = /\/x-transfer\/watch\/[^/]+$/;
const ALL = examples().filter((e) => !MADE_BY_THE_SERVICE.test(e.path));

// The watch example's receiver resolves (to a public address, as it would online); nothing is sent
// to it, since the example's transfer never settles.
let names: DnsServer;
beforeAll(async () => {
  names = await startDnsServer((name) => (name === 'wallet.example.com' ? ['93.184.215.14'] : 'nxdomain'));
});
afterAll(async () => {
  await names?.close();
});
const served = sandboxService({ blockMs: 500 }, () => ({ DNS_SERVERS: names.address }));

describe('openapi.yaml request examples against the sandbox', () => {
  it('the pre-flight operations and the transfers each open with an example', () => {
    const withExample = new Set(ALL.map((e) => `${e.method} ${e.path}`));
    for (const path of ['/v5/x-transfer', '/v5/x-transfer-batch', '/v5/dry-run', '/v5/xcm-fee', '/v5/origin-xcm-fee', '/v5/transfer-info', '/v5/transferable-amount', '/v5/min-transferable-amount', '/v5/receivable-amount', '/v5/verify-ed-on-destination', '/v2/dry-run', '/v2/xcm-fee']) {
      expect(withExample.has(`post ${path}`), path).toBe(true);
    }
  });

  it.each(ALL.map((e) => [`${e.method.toUpperCase()} ${e.path} (${e.name})`, e] as const))('%s answers its success (200; 201 for a watch made)', async (_name, example) => {
    const agent = request(served.app);
    const req = example.method === 'get' ? agent.get(example.path) : example.method === 'delete' ? agent.delete(example.path) : agent.post(example.path).send(example.body as object);
    const res = await req;
    expect(res.status, JSON.stringify(res.body)).toBe(example.status);
  }, 60_000);
});
