// Every request example of openapi.yaml (what /docs' "Try it" opens with) answers 200, exactly as
// written, against the sandbox's chains (src/sandbox/network.ts): the senders are its funded
// development accounts.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/network';
import { testApp } from '../helpers/app';
import { deref, isObject, loadSpec, operations, type Json } from '../helpers/openapi-document';

const doc = loadSpec();

interface Example {
  name: string;
  method: string;
  path: string;
  body?: Json;
}

/** The request each example makes: path parameters from their examples, the body from the request body's. */
function examples(): Example[] {
  const found: Example[] = [];
  for (const { method, path, op, parameters } of operations(doc)) {
    let url = path;
    for (const p of parameters.filter((x) => x['in'] === 'path')) {
      const schema = isObject(p['schema']) ? deref(doc, p['schema'], 'schema') : {};
      const value = p['example'] ?? (Array.isArray(schema['examples']) ? schema['examples'][0] : undefined);
      url = url.replace(`{${String(p['name'])}}`, encodeURIComponent(String(value)));
    }
    const body = op['requestBody'] === undefined ? undefined : deref(doc, op['requestBody'], `${path} requestBody`);
    const content = body && isObject(body['content']) && isObject(body['content']['application/json']) ? body['content']['application/json'] : undefined;
    const named = content && isObject(content['examples']) ? Object.entries(content['examples']) : [];
    for (const [name, example] of named) found.push({ name, method, path: url, body: deref(doc, example, name)['value'] });
    if (content && named.length === 0 && content['example'] !== undefined) found.push({ name: 'example', method, path: url, body: content['example'] });
  }
  return found;
}

/**
 * Examples the sandbox cannot answer: the swap router (and the x-transfers that route through it)
 * reaches Hydration's live endpoints, whatever CHAIN_ENDPOINTS says, and the Snowbridge example
 * reads Ethereum, which the sandbox does not run.
 */
const NOT_IN_SANDBOX = new Set(['post /v5/router', 'post /v5/router-hash', 'post /v5/x-transfers', 'post /v2/evm-x-transfer snowbridge']);
const ALL = examples().filter((e) => !NOT_IN_SANDBOX.has(`${e.method} ${e.path}`) && !NOT_IN_SANDBOX.has(`${e.method} ${e.path} ${e.name}`));
/** What a success is: 200, and 201 for a watch made. */
const success = (e: Example): number => (e.method === 'post' && e.path.endsWith('/x-transfer/watch') ? 201 : 200);

let sandbox: Sandbox;
let app: ReturnType<typeof testApp>;
beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 500, basePort: 0 });
  app = testApp({ CHAIN_ENDPOINTS: JSON.stringify(sandbox.endpoints) });
}, 120_000);
afterAll(async () => {
  await app?.services.close();
  await sandbox?.close();
});

describe('openapi.yaml request examples against the sandbox', () => {
  it('the pre-flight operations and the transfers each open with an example', () => {
    const withExample = new Set(ALL.map((e) => `${e.method} ${e.path}`));
    for (const path of ['/v5/x-transfer', '/v5/x-transfer-batch', '/v5/dry-run', '/v5/xcm-fee', '/v5/origin-xcm-fee', '/v5/transfer-info', '/v5/transferable-amount', '/v5/min-transferable-amount', '/v5/receivable-amount', '/v5/verify-ed-on-destination', '/v2/dry-run', '/v2/xcm-fee']) {
      expect(withExample.has(`post ${path}`), path).toBe(true);
    }
  });

  it.each(ALL.map((e) => [`${e.method.toUpperCase()} ${e.path} (${e.name})`, e] as const))('%s answers 200 (a watch made: 201)', async (_name, example) => {
    const agent = request(app.app);
    const req = example.method === 'get' ? agent.get(example.path) : example.method === 'delete' ? agent.delete(example.path) : agent.post(example.path).send(example.body as object);
    const res = await req;
    expect(res.status, JSON.stringify(res.body)).toBe(success(example));
  }, 60_000);
});
