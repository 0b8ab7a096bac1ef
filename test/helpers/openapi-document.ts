// openapi.yaml read as data, for the tests that check the document itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../../src/project-root';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const SPEC_PATH = join(projectRoot(), 'openapi.yaml');
export const SPEC_TEXT = readFileSync(SPEC_PATH, 'utf8');

export interface Operation {
  method: string;
  /** The path as written in the document, e.g. `/v2/assets/{chain}`. */
  path: string;
  op: JsonObject;
  /** Parameters of the path item and of the operation, `$ref`s resolved. */
  parameters: JsonObject[];
  /** The same parameters as written (a `$ref` or an inline parameter). */
  rawParameters: Json[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function asObject(v: Json | undefined, what: string): JsonObject {
  if (!isObject(v)) throw new Error(`${what} is not an object`);
  return v;
}

/** Follows a local `$ref` (`#/a/b`) chain to the object it names. */
export function deref(doc: JsonObject, value: Json | undefined, what: string): JsonObject {
  let current = asObject(value, what);
  for (let hops = 0; typeof current.$ref === 'string'; hops++) {
    if (hops > 10) throw new Error(`${what}: $ref cycle`);
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`${what}: only local $refs are used, got ${ref}`);
    let target: Json = doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      target = asObject(target, `${what} -> ${ref}`)[key] ?? null;
    }
    current = asObject(target, `${what} -> ${ref}`);
  }
  return current;
}

export function loadSpec(text = SPEC_TEXT): JsonObject {
  return asObject(parse(text) as Json, 'openapi.yaml');
}

export function operations(doc: JsonObject): Operation[] {
  const ops: Operation[] = [];
  for (const [path, rawItem] of Object.entries(asObject(doc.paths, 'paths'))) {
    const item = deref(doc, rawItem, `paths.${path}`);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      if (item[method] === undefined) continue;
      const op = asObject(item[method], `${method} ${path}`);
      const own = Array.isArray(op.parameters) ? op.parameters : [];
      const rawParameters = [...shared, ...own];
      const parameters = rawParameters.map((p, i) => deref(doc, p, `${method} ${path} parameter ${i}`));
      ops.push({ method, path, op, parameters, rawParameters });
    }
  }
  return ops;
}
