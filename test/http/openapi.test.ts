import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sdk } from '../../src/sdk';
import { FAMILIES as FAMILIES_UNDER_TEST, expectErrorBody, testApp } from '../helpers/app';
import { asObject, deref, isObject, loadSpec, operations, SPEC_TEXT, type Json } from '../helpers/openapi-document';

const { app } = testApp();

const toExpress = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

function appRoutes(): Set<string> {
  return new Set(app.routes.map((r) => key(r.method, r.path)));
}

// ---- tests --------------------------------------------------------------------------------

describe('openapi.yaml', () => {
  const doc = loadSpec();
  const ops = operations(doc);

  it('is a valid OpenAPI 3.1 document whose $refs all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const resolved = validator.resolveRefs();
    expect(Object.keys(asObject(resolved.paths as Json, 'resolved paths'))).toHaveLength(Object.keys(asObject(doc.paths, 'paths')).length);
    // The validator does not check that every local $ref names something; walk them.
    const refs: string[] = [];
    const walk = (v: Json): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (isObject(v)) {
        if (typeof v.$ref === 'string') refs.push(v.$ref);
        Object.values(v).forEach(walk);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) expect(() => deref(doc, { $ref: ref }, ref), ref).not.toThrow();
  });

  it('documents exactly the routes the app declares', () => {
    const documented = new Set(ops.map((o) => key(o.method, toExpress(o.path))));
    const declared = appRoutes();
    expect(declared.size).toBeGreaterThan(50);
    const undocumented = [...declared].filter((r) => !documented.has(r)).sort();
    const notInApp = [...documented].filter((r) => !declared.has(r)).sort();
    const diff = [
      ...undocumented.map((r) => `  declared by the app but missing from openapi.yaml: ${r}`),
      ...notInApp.map((r) => `  in openapi.yaml but not declared by the app:       ${r}`),
    ].join('\n');
    expect({ undocumented, notInApp }, `route parity:\n${diff}`).toEqual({ undocumented: [], notInApp: [] });
  });

  it('declares every path template parameter, required, and no stray path parameters', () => {
    for (const { method, path, parameters } of ops) {
      const where = key(method, path);
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = parameters.filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), where).toEqual(inTemplate);
      for (const p of declared) expect(p.required, `${where} path parameter ${String(p.name)}`).toBe(true);
      const names = parameters.map((p) => `${String(p.in)}:${String(p.name)}`);
      expect(new Set(names).size, `${where} has duplicate parameters`).toBe(names.length);
    }
  });

  it('documents a 400 on every operation except parameterless GETs, and on every path with {chain}', () => {
    const offenders: string[] = [];
    for (const { method, path, op, parameters } of ops) {
      const responses = asObject(op.responses, `${key(method, path)} responses`);
      const has400 = responses['400'] !== undefined;
      const parameterless = method === 'get' && !parameters.some((p) => p.in === 'path' || p.in === 'query');
      if (!has400 && !parameterless) offenders.push(`${key(method, path)}: no 400 and not a parameterless GET`);
      if (path.includes('{chain}') && !has400) offenders.push(`${key(method, path)}: has {chain} but no 400`);
    }
    expect(offenders).toEqual([]);
  });

  it('documents every operation: summary, tag, 500, and JSON error bodies on every error response', () => {
    const tags = new Set((Array.isArray(doc.tags) ? doc.tags : []).map((t) => asObject(t, 'tag').name));
    for (const { method, path, op } of ops) {
      const where = key(method, path);
      expect(typeof op.summary, `${where} summary`).toBe('string');
      const opTags = Array.isArray(op.tags) ? op.tags : [];
      expect(opTags.length, `${where} tags`).toBeGreaterThan(0);
      for (const t of opTags) expect(tags.has(t), `${where} tag ${String(t)} is declared`).toBe(true);
      const responses = asObject(op.responses, `${where} responses`);
      const meta = ['/health', '/ready', '/openapi.yaml', '/docs', '/favicon.ico'].includes(path);
      if (!meta) expect(responses['500'], `${where} documents 500`).toBeDefined();
      for (const [status, raw] of Object.entries(responses)) {
        const response = deref(doc, raw, `${where} ${status}`);
        expect(typeof response.description, `${where} ${status} description`).toBe('string');
        if (Number(status) < 400 || (path === '/ready' && status === '503')) continue;
        const content = asObject(response.content, `${where} ${status} content`);
        const schema = asObject(asObject(content['application/json'], `${where} ${status} JSON`).schema, `${where} ${status} schema`);
        expect(schema.$ref, `${where} ${status} uses ErrorBody`).toBe('#/components/schemas/ErrorBody');
      }
      if (method === 'post') {
        expect(responses['413'], `${where} documents 413`).toBeDefined();
        expect(responses['415'], `${where} documents 415`).toBeDefined();
      }
      // Every family route passes the rate limiter (and its API-key check).
      if (/^\/v[25]\//.test(path)) {
        expect(responses['401'], `${where} documents 401`).toBeDefined();
        expect(responses['429'], `${where} documents 429`).toBeDefined();
      }
    }
  });

  it('lists every chain and pallet the SDK knows', () => {
    const schemas = asObject(asObject(doc.components, 'components').schemas, 'schemas');
    expect(asObject(schemas.ChainName, 'ChainName').enum).toEqual([...sdk.CHAINS]);
    expect(asObject(schemas.PalletName, 'PalletName').enum).toEqual([...sdk.PALLETS]);
  });

  it('gives every family route a twin in the other family, described under components.pathItems', () => {
    const paths = asObject(doc.paths, 'paths');
    for (const [path, item] of Object.entries(paths)) {
      const m = /^\/(v5|v2)(\/.*)$/.exec(path);
      if (!m) continue;
      const twin = paths[`/${m[1] === 'v5' ? 'v2' : 'v5'}${m[2]}`];
      // Lookups share one path item; routes whose bodies differ (transfer) have one per family.
      expect(twin, `${path} has a twin`).toBeDefined();
      expect(asObject(item, path).$ref, `${path} references components.pathItems`).toMatch(/^#\/components\/pathItems\//);
    }
  });
});

describe('openapi.yaml says what the service answers', () => {
  const doc = loadSpec();

  it('every description is a string (a YAML quoting slip turns one into stray keys)', () => {
    const offenders: string[] = [];
    const walk = (v: Json, where: string, parentKey: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}[${i}]`, ''));
      else if (isObject(v)) {
        for (const [k, x] of Object.entries(v)) {
          // Under `properties`, `description` names a field, not a description.
          if (k === 'description' && parentKey !== 'properties' && typeof x !== 'string') offenders.push(`${where}.description`);
          walk(x, `${where}.${k}`, k);
        }
      }
    };
    walk(doc, '#', '');
    expect(offenders).toEqual([]);
    const item = asObject(asObject(asObject(doc.components, 'components').schemas, 'schemas').RouterTransactionItem, 'RouterTransactionItem');
    expect(Object.keys(asObject(item.properties, 'properties'))).toEqual(['tx', 'wsProviders', 'statusType', 'chain', 'destinationChain', 'amountOut']);
  });

  /** What the document says about one response of one operation: its own description and the shared response it refers to. */
  function documented(method: string, path: string, status: number): string {
    const item = deref(doc, asObject(doc.paths, 'paths')[path], path);
    const op = asObject(item[method], `${method} ${path}`);
    const raw = asObject(op.responses, 'responses')[String(status)];
    if (raw === undefined) return '';
    const own = isObject(raw) && typeof raw.description === 'string' ? raw.description : '';
    return `${own} ${JSON.stringify(deref(doc, raw, `${method} ${path} ${status}`))} ${typeof op.description === 'string' ? op.description : ''}`;
  }

  const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
  const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
  const EVM = '0x1501C1413e4178c38567Ada8945A80351F7B8496';
  const PREFLIGHT = ['dry-run', 'dry-run-preview', 'xcm-fee', 'origin-xcm-fee', 'transfer-info', 'transferable-amount', 'min-transferable-amount', 'receivable-amount', 'verify-ed-on-destination'];
  const ROUTER = ['router', 'router-hash', 'router/dry-run', 'router/xcm-fees', 'router/transferable-amount', 'router/min-transferable-amount', 'router/best-amount-out'];

  /** Requests that each answer one error kind, run against every route they apply to, in both families. */
  function probes(family: 'v5' | 'v2'): [path: string, body: Record<string, unknown> | undefined][] {
    const [recipient, sender] = family === 'v5' ? ['address', 'senderAddress'] : ['recipient', 'sender'];
    const amount = (base: string, whole: string) => (family === 'v5' ? base : whole);
    const dev = { development: true, apiOverrides: { Hydration: 'ws://127.0.0.1:9' } };
    const transfer = (over: Record<string, unknown>) => ({ from: 'Hydration', to: 'Polkadot', currency: { symbol: 'DOT', amount: amount('10000000000', '1') }, [recipient]: ALICE, [sender]: BOB, options: dev, ...over });
    const transferCases = [
      transfer({ to: 'Kusama' }),
      transfer({ currency: { symbol: 'NOPE', amount: '1' } }),
      transfer({ currency: { symbol: 'DOT', amount: amount('1', '0.0000000001') } }),
      transfer({ currency: { symbol: 'DOT', amount: '1.00000000001' }, options: { ...dev, abstractDecimals: true } }),
      transfer({ [sender]: EVM }),
      transfer({ options: { development: true } }),
      transfer({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { location: 'Override({"parents":0,"interior":"Here"})', amount: '10000000000' } }),
    ];
    const swap = (over: Record<string, unknown>) => ({ from: 'Polkadot', to: 'Astar', exchange: 'HydrationDex', currencyFrom: { symbol: 'DOT' }, currencyTo: { symbol: 'ASTR' }, amount: amount('10000000000', '1'), slippagePct: '1', recipientAddress: ALICE, senderAddress: BOB, options: { development: true }, ...over });
    const swapCases = [swap({ to: 'Karura', currencyTo: { symbol: 'KAR' } }), swap({ currencyTo: { symbol: 'NOPE' } }), swap({ amount: amount('1', '0.0000000001') }), swap({ exchange: 'NopeDex' }), swap({})];
    const asSwapTransfer = (b: Record<string, unknown>) => ({
      from: b.from,
      to: b.to,
      currency: { ...(b.currencyFrom as object), amount: b.amount },
      [recipient]: ALICE,
      [sender]: BOB,
      swapOptions: { currencyTo: b.currencyTo, exchange: b.exchange },
      options: b.options,
    });
    const out: [string, Record<string, unknown> | undefined][] = [];
    for (const b of transferCases) {
      out.push(['x-transfer', b], ['x-transfer-batch', { transfers: [{ ...b, options: undefined }], options: b.options }]);
      for (const p of PREFLIGHT) out.push([p, b]);
    }
    out.push(['x-transfer-batch', { transfers: [] }]);
    for (const b of swapCases) {
      for (const p of ROUTER) out.push([p, b]);
      for (const p of ['x-transfers', 'dry-run', 'xcm-fee', 'transferable-amount', 'min-transferable-amount', 'best-amount-out']) out.push([p, asSwapTransfer(b)]);
    }
    const account = family === 'v5' ? { address: EVM } : { recipient: EVM, currency: { symbol: 'ETH' } };
    out.push(['balance/Ethereum', { ...account, options: { development: true } }], ['balance/Ethereum', { ...account, [family === 'v5' ? 'address' : 'recipient']: ALICE }]);
    out.push(['pallets//default', undefined], ['assets//native', undefined], ['chains//para-id', undefined]);
    return out;
  }

  const template = (path: string) =>
    path
      .replace(/^balance\/Ethereum$/, 'balance/{chain}')
      .replace(/^(pallets|assets|chains)\/\/(.*)$/, '$1/{chain}/$2');

  it.each(FAMILIES_UNDER_TEST)('/%s: every error kind a route answers is listed for that route and status', async (family) => {
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const [path, body] of probes(family)) {
      const url = `/${family}/${path}`;
      const res = body === undefined ? await request(app).get(url) : await request(app).post(url).send(body);
      expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBeLessThan(500);
      const kind = res.body.kind as string;
      seen.add(kind);
      const docPath = `/${family}/${template(path)}`;
      if (!documented(body === undefined ? 'get' : 'post', docPath, res.status).includes(kind)) missing.push(`${docPath} ${res.status} ${kind}`);
    }
    expect([...new Set(missing)]).toEqual([]);
    // The probes reach the kinds this document had to learn.
    for (const kind of ['UnsupportedOperationError', 'InvalidCurrencyError', 'AmountTooLowError', 'NumberFormatError', 'InvalidAddressError', 'MissingChainApiError', 'UnknownExchangeError', 'BatchValidationError', 'MissingParameterError']) {
      expect(seen, kind).toContain(kind);
    }
  });
});

describe('serving the document', () => {
  it('GET /openapi.yaml serves the same document', async () => {
    const res = await request(app)
      .get('/openapi.yaml')
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/yaml/);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.body).toBe(SPEC_TEXT);
    expect(parse(res.body as string)).toEqual(loadSpec());
  });

  it('GET /docs serves a page embedding the document, whose script and stylesheet load', async () => {
    const res = await request(app).get('/docs').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const links = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(links.sort()).toEqual(['/docs/assets/docs.css', '/docs/assets/docs.js', '/favicon.ico']);
    const embedded = /<script type="application\/json" id="spec">([^<]*)<\/script>/.exec(res.text)?.[1];
    expect(JSON.parse(embedded ?? 'null')).toEqual(loadSpec());
    for (const link of links) {
      // Compressed on the fly, so without a Content-Length: measure the decoded body.
      const asset = await request(app).get(link).buffer(true).parse((r, done) => {
        let size = 0;
        r.on('data', (chunk: Buffer) => (size += chunk.length));
        r.on('end', () => done(null, size));
      }).expect(200);
      expect(asset.body as number, link).toBeGreaterThan(link === '/favicon.ico' ? 100 : 1000);
    }
  });

  // Regression guard: express.static with `fallthrough: false` once handed its 404/403 to the
  // error handler, which answered 500.
  it('a missing or forbidden /docs/assets file is a JSON 4xx, not a 500', async () => {
    for (const path of ['/docs/assets/nope.js', '/docs/assets/', '/docs/assets/..%2Fpackage.json']) {
      const res = await request(app).get(path);
      expect(res.status, `GET ${path}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `GET ${path}`).toBeLessThan(500);
      expectErrorBody(res.body, res.status);
    }
  });
});
