import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { generatedDocument } from '../../scripts/openapi';
import { requestComponents } from '../../scripts/openapi/components';
import { ApiError } from '../../src/errors';
import { LIMITS } from '../../src/schemas/limits';
import { PARAMETER_SETS, REQUEST_BODIES } from '../../src/schemas/openapi';
import { parseInput } from '../../src/schemas/parse';
import { asObject, deref, isObject, loadSpec, operations, SPEC_TEXT, type Json, type JsonObject } from '../helpers/openapi-document';

// openapi.yaml's request bodies and parameters are written from the zod schemas that parse them
// (`npm run openapi`). These tests hold the document to them.

const HOW = 'add the zod schema to REQUEST_BODIES or PARAMETER_SETS in src/schemas/openapi.ts, describe its fields with doc() (src/schemas/docs.ts), run `npm run openapi`, and refer to the component it writes';

const doc = loadSpec();
const ops = operations(doc);
const generated = requestComponents(REQUEST_BODIES, PARAMETER_SETS);
const COMPONENT = '#/components/schemas/';

/** The JSON request body schema of an operation, its `requestBody` `$ref` followed. */
function bodyOf(op: JsonObject): JsonObject | undefined {
  if (op.requestBody === undefined) return undefined;
  const body = deref(doc, op.requestBody, 'requestBody');
  return asObject(asObject(asObject(body.content, 'content')['application/json'], 'application/json'), 'media type');
}

describe('openapi.yaml request schemas and parameters', () => {
  it('are what the zod schemas write (run `npm run openapi` after changing src/schemas)', () => {
    const expected = generatedDocument(SPEC_TEXT);
    if (expected === SPEC_TEXT) return;
    const [have, want] = [SPEC_TEXT.split('\n'), expected.split('\n')];
    const line = have.findIndex((l, i) => l !== want[i]);
    const context = (lines: string[]) => lines.slice(Math.max(0, line - 2), line + 3).join('\n');
    expect.fail(`openapi.yaml differs from what src/schemas write, from line ${line + 1}: run \`npm run openapi\`\n--- openapi.yaml\n${context(have)}\n--- generated\n${context(want)}`);
  });

  it('are the only request bodies and path and query parameters the operations use, and each is used', () => {
    const offenders: string[] = [];
    const usedBodies = new Set<string>();
    const usedParameters = new Set<string>();
    for (const { method, path, op, rawParameters, parameters } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      const media = bodyOf(op);
      if (media) {
        const ref = asObject(media.schema, `${where} body schema`).$ref;
        const name = typeof ref === 'string' && ref.startsWith(COMPONENT) ? ref.slice(COMPONENT.length) : undefined;
        if (name === undefined || !(name in REQUEST_BODIES)) offenders.push(`${where}: its body schema is not a generated request body (${String(ref ?? 'inline')})`);
        else usedBodies.add(name);
      }
      rawParameters.forEach((raw, i) => {
        const { in: at, name } = parameters[i];
        if (at !== 'path' && at !== 'query') return;
        const ref = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref.replace('#/components/parameters/', '') : undefined;
        // Removed endpoints take any string: they answer 410 whatever it is.
        if (ref === 'RemovedChain') return;
        if (ref === undefined || !(ref in generated.parameters)) offenders.push(`${where}: parameter ${String(name)} is not a generated parameter`);
        else usedParameters.add(ref);
      });
    }
    const unusedBodies = Object.keys(REQUEST_BODIES).filter((name) => !usedBodies.has(name));
    const unusedParameters = Object.keys(generated.parameters).filter((name) => !usedParameters.has(name));
    expect({ offenders, unusedBodies, unusedParameters }, HOW).toEqual({ offenders: [], unusedBodies: [], unusedParameters: [] });
  });

  it('take the family field names and defaults of their family', () => {
    const schemas = asObject(asObject(doc.components, 'components').schemas, 'schemas');
    const properties = (name: string) => Object.keys(asObject(deref(doc, schemas[name], name).properties, `${name}.properties`));
    expect(properties('TransferBodyV5')).toEqual(expect.arrayContaining(['address', 'senderAddress', 'transact']));
    expect(properties('TransferBodyV5')).not.toContain('recipient');
    expect(properties('TransferBodyV2')).toEqual(expect.arrayContaining(['recipient', 'sender', 'transactOptions']));
    expect(properties('TransferBodyV2')).not.toContain('address');
    // A request field's default is in its words (a generator would make a `default` keyword a required field).
    const abstractDecimals = (name: string) => asObject(asObject(deref(doc, schemas[name], name).properties, name).abstractDecimals, name);
    expect([abstractDecimals('TransferOptionsV5').description, abstractDecimals('TransferOptionsV2').description]).toEqual([expect.stringMatching(/Default: `false`\.$/), expect.stringMatching(/Default: `true`\.$/)]);
    expect(abstractDecimals('TransferOptionsV5')).not.toHaveProperty('default');
    // Written from the same schema as the check, so the bound is the one the service applies.
    const senderAddress = asObject(asObject(deref(doc, schemas.TransferBodyV5, 'TransferBodyV5').properties, 'p').senderAddress, 'senderAddress');
    expect(senderAddress.maxLength).toBe(LIMITS.address);
  });
});

describe('the request examples of openapi.yaml', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc as object, 'openapi.yaml');

  const examples: { where: string; name: string; value: Json }[] = [];
  for (const { method, path, op } of ops) {
    const media = bodyOf(op);
    if (!media) continue;
    const ref = String(asObject(media.schema, 'schema').$ref);
    const name = ref.slice(COMPONENT.length);
    const values = [...(media.example !== undefined ? [media.example] : []), ...Object.values(isObject(media.examples) ? media.examples : {}).map((e) => asObject(e, 'example').value)];
    for (const value of values) examples.push({ where: `${method.toUpperCase()} ${path}`, name, value: value ?? null });
  }

  it('are many', () => expect(examples.length).toBeGreaterThan(40));

  it('match the document and parse with the schema that serves the route', () => {
    const failures: string[] = [];
    for (const { where, name, value } of examples) {
      const validate = ajv.getSchema(`openapi.yaml#/components/schemas/${name}`);
      if (!validate?.(value)) failures.push(`${where}: ${JSON.stringify(validate?.errors?.slice(0, 3))}`);
      try {
        parseInput(REQUEST_BODIES[name], value, 'body');
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failures.push(`${where}: ${error.message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
