// Every answer a test receives through supertest is checked against openapi.yaml: the operation
// must document the status, and a JSON body must match that response's schema (ajv, OpenAPI 3.1's
// JSON Schema 2020-12 dialect). The document then cannot drift from what the service sends. A
// request body the service accepted (a 2xx answer) must match the operation's request schema:
// the document cannot be stricter than the service either.
// Installed for the whole suite by test/support/setup.ts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { projectRoot } from '../../src/project-root';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const DOC_ID = 'openapi.yaml';
/**
 * Answers the document deliberately leaves out: CORS preflights (the middleware answers OPTIONS on
 * every path) and the static files behind GET /docs.
 */
const OUTSIDE_THE_DOCUMENT = (method: string, path: string, status: number) =>
  (method === 'options' && status === 204) || (method === 'get' && path.startsWith('/docs/assets/') && status < 400);

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

interface Located {
  value: JsonObject;
  /** JSON pointer of `value` in the document, e.g. `/components/responses/BadRequest`. */
  pointer: string;
}

interface DocumentedPath {
  template: string;
  pattern: RegExp;
  /** Literal segments first: `/v5/chains/evm` wins over `/v5/chains/{paraId}`. */
  params: number;
  item: Located;
}

class ResponseDocument {
  private readonly doc: JsonObject;
  private readonly ajv: Ajv2020;
  private readonly paths: DocumentedPath[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(text: string) {
    this.doc = parse(text) as JsonObject;
    // strict: false because the document also carries OpenAPI keywords (example, discriminator...).
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(this.doc as object, DOC_ID);
    const paths = this.doc.paths as JsonObject;
    this.paths = Object.keys(paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
        item: this.deref({ value: paths[template] as JsonObject, pointer: `/paths/${escape(template)}` }),
      }))
      .sort((a, b) => a.params - b.params);
  }

  private deref(at: Located): Located {
    let current = at;
    for (let hops = 0; typeof current.value.$ref === 'string'; hops++) {
      if (hops > 10) throw new Error(`openapi.yaml: $ref cycle at ${at.pointer}`);
      const pointer = current.value.$ref.replace(/^#/, '');
      let target: Json = this.doc;
      for (const raw of pointer.slice(1).split('/')) {
        target = isObject(target) ? (target[raw.replace(/~1/g, '/').replace(/~0/g, '~')] ?? null) : null;
      }
      if (!isObject(target)) throw new Error(`openapi.yaml: ${current.value.$ref} names nothing`);
      current = { value: target, pointer };
    }
    return current;
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.validators.get(pointer);
    if (!v) {
      v = this.ajv.getSchema(`${DOC_ID}#${pointer}`);
      if (!v) throw new Error(`openapi.yaml: no schema at ${pointer}`);
      this.validators.set(pointer, v);
    }
    return v;
  }

  /** What is wrong with this answer according to the document; undefined when nothing is. */
  check(method: string, url: string, status: number, contentType: string | undefined, body: unknown, sentBody = false, requestBody?: unknown): string | undefined {
    // The path as sent (no dot-segment normalization: Express routes it as it comes).
    // Express routes are not strict: a trailing slash reaches the same route.
    const path = (url.replace(/^[a-z]+:\/\/[^/]+/i, '').split(/[?#]/)[0] ?? '/').replace(/(.)\/$/, '$1');
    const where = `${method} ${path} -> ${status}`;
    // Express answers HEAD with the GET route (no body).
    const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    if (method.toLowerCase() === 'head') body = undefined;
    if (OUTSIDE_THE_DOCUMENT(m, path, status)) return undefined;
    // A GET or DELETE with a body is a request the document does not describe: its error need only be a JSON error.
    if ((m === 'get' || m === 'delete') && sentBody && status >= 400) return this.checkBody(where, '/components/schemas/ErrorBody', contentType, body);
    const documented = this.paths.find((p) => p.pattern.test(path) && isObject(p.item.value[m]));
    if (!documented) {
      // Not a route of ours (unknown path or method): it must be a JSON error answer.
      if (status < 400) return `${where}: answered ${status} on a route openapi.yaml does not document`;
      return this.checkBody(where, '/components/schemas/ErrorBody', contentType, body);
    }
    const opPointer = `${documented.item.pointer}/${m}`;
    const accepted = status >= 200 && status < 300 ? this.checkRequest(where, documented.item.value[m] as JsonObject, opPointer, requestBody) : undefined;
    if (accepted) return accepted;
    const responses = (documented.item.value[m] as JsonObject).responses as JsonObject;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
    if (!key) return `${where}: status ${status} is not documented for ${method.toUpperCase()} ${documented.template}`;
    const response = this.deref({ value: responses[key] as JsonObject, pointer: `${opPointer}/responses/${escape(key)}` });
    const content = response.value.content;
    const mediaType = contentType?.split(';')[0]?.trim();
    if (isObject(content) && mediaType && !isObject(content[mediaType]) && !isObject(content['application/json'])) {
      return `${where}: documented as ${Object.keys(content).join(', ')}, answered ${contentType}`;
    }
    // `Accept: text/event-stream` on a JSON path is answered as its `/stream` path answers.
    if (mediaType === 'text/event-stream' && !(isObject(content) && isObject(content[mediaType])) && this.paths.some((p) => p.params === 0 && p.pattern.test(`${path}/stream`))) {
      return this.check(method, `${path}/stream`, status, contentType, body, sentBody, requestBody);
    }
    if (!isObject(content) || !isObject(content['application/json']) || body === undefined) return undefined; // no JSON body
    // Another media type the response documents (a text/event-stream answer): not a JSON body.
    if (mediaType && mediaType !== 'application/json' && isObject(content[mediaType])) return undefined;
    if (!contentType?.startsWith('application/json')) return `${where}: documented as JSON, answered ${contentType ?? 'without a content type'}`;
    return this.checkBody(where, `${response.pointer}/content/application~1json/schema`, contentType, body);
  }

  /** A body the service accepted must be one the document describes. */
  private checkRequest(where: string, operation: JsonObject, opPointer: string, sent: unknown): string | undefined {
    if (sent === undefined || !isObject(operation.requestBody)) return undefined;
    const requestBody = this.deref({ value: operation.requestBody, pointer: `${opPointer}/requestBody` });
    const content = requestBody.value.content;
    if (!isObject(content) || !isObject(content['application/json'])) return undefined;
    let body: unknown = sent;
    // Raw text or bytes as sent: a body that does not parse as JSON here (compressed) is not checked.
    if (typeof sent === 'string' || Buffer.isBuffer(sent)) {
      try {
        body = JSON.parse(sent.toString()) as unknown;
      } catch {
        return undefined;
      }
    }
    // JSON null stands for no body where the body is optional.
    if (body === null && requestBody.value.required !== true) return undefined;
    const validate = this.validator(`${requestBody.pointer}/content/application~1json/schema`);
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `  ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    return `${where}: the service accepted a request body that openapi.yaml's request schema refuses\n${errors.join('\n')}\nbody: ${JSON.stringify(body).slice(0, 600)}`;
  }

  private checkBody(where: string, schemaPointer: string, contentType: string | undefined, body: unknown): string | undefined {
    if (!contentType?.startsWith('application/json')) return `${where}: expected a JSON body, got ${contentType ?? 'no content type'}`;
    const validate = this.validator(schemaPointer);
    if (validate(body)) return undefined;
    const errors = (validate.errors ?? []).slice(0, 8).map((e) => `  ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    return `${where}: the body does not match openapi.yaml ${schemaPointer}\n${errors.join('\n')}\nbody: ${JSON.stringify(body).slice(0, 600)}`;
  }
}

let document: ResponseDocument | undefined;

function responseDocument(): ResponseDocument {
  document ??= new ResponseDocument(readFileSync(join(projectRoot(), 'openapi.yaml'), 'utf8'));
  return document;
}

/** The check on its own, for answers that do not come through supertest (or for tests of the check). */
export function openApiViolation(method: string, url: string, status: number, contentType: string | undefined, body: unknown, sentBody = false, requestBody?: unknown): string | undefined {
  return responseDocument().check(method, url, status, contentType, body, sentBody, requestBody);
}

interface SupertestResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

interface SupertestTest {
  method: string;
  url: string;
  /** The body the test sent (superagent's), if any. */
  _data?: unknown;
  /** Set by a test that sends a request the document does not describe on purpose. */
  _skipOpenApi?: boolean;
}

type Assert = (this: SupertestTest, resError: unknown, res: SupertestResponse | undefined, fn?: (err: unknown, res: unknown) => void) => void;

const INSTALLED = Symbol.for('xcm-gateway.test.openapi-responses');

/** Marks a request to an app that is not the service (a bare Express app in a unit test): its answers are not in openapi.yaml. */
export function outsideTheDocument<T extends object>(test: T): T {
  (test as SupertestTest)._skipOpenApi = true;
  return test;
}

/**
 * Wraps supertest's final assertion step: an answer that contradicts openapi.yaml fails the
 * request's promise (and so the test) with the reason, before any of the test's own expectations.
 */
export function validateSupertestAnswers(): void {
  const g = globalThis as { [INSTALLED]?: boolean };
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;
  // supertest is CommonJS: the same module object the tests' `import request from 'supertest'` gets.
  const Test = createRequire(__filename)('supertest/lib/test.js') as { prototype: { assert: Assert } };
  const assert = Test.prototype.assert;
  Test.prototype.assert = function checkedAssert(resError, res, fn) {
    if (res && !this._skipOpenApi) {
      const violation = openApiViolation(this.method, this.url, res.status, res.headers['content-type'], res.body, this._data !== undefined, this._data);
      if (violation) {
        fn?.call(this, new Error(`openapi.yaml check: ${violation}`), res);
        return;
      }
    }
    assert.call(this, resError, res, fn);
  };
}
