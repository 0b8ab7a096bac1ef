import { z } from 'zod';
import { docs, documentedShape } from '../../src/schemas/docs';
import type { ParameterSet } from '../../src/schemas/openapi';

// The request components of openapi.yaml, from the zod schemas listed in src/schemas/openapi.ts:
// zod 4's own JSON Schema output (OpenAPI 3.1 speaks JSON Schema 2020-12), with the words of
// src/schemas/docs.ts beside it, tidied for a document people read.

export type JsonSchema = { [keyword: string]: unknown };

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  /** How an array travels in a query (`form`, `explode`: `?exchange=A&exchange=B`). */
  style?: string;
  explode?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface RequestComponents {
  schemas: Record<string, JsonSchema>;
  parameters: Record<string, Parameter>;
}

const COMPONENT = '#/components/schemas/';

/** Keywords first that say what a schema is, then its shape, then its details. */
const KEY_ORDER = ['description', '$ref', 'type', 'enum', 'const', 'format', 'pattern', 'properties', 'required', 'additionalProperties'];
const rank = (key: string): number => (KEY_ORDER.includes(key) ? KEY_ORDER.indexOf(key) : key === 'examples' ? 99 : 50);

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords whose value is a value, not a schema. */
const VALUES = new Set(['examples', 'default', 'enum', 'const']);

/** A schema as the document shows it: local $refs point at components, noise dropped, keys ordered. */
function tidy(value: unknown, parentKey = ''): unknown {
  if (VALUES.has(parentKey)) return value;
  if (Array.isArray(value)) return value.map((v) => tidy(v));
  if (!isObject(value)) return value;
  // Under `properties` the keys are field names.
  const out: JsonSchema = {};
  const keys = parentKey === 'properties' ? Object.keys(value) : Object.keys(value).sort((a, b) => rank(a) - rank(b));
  for (const key of keys) {
    const v = value[key];
    if (parentKey !== 'properties') {
      if (key === '$schema') continue;
      // Object keys are strings in JSON: saying so says nothing.
      if (key === 'propertyNames' && isObject(v) && Object.keys(v).length === 1 && v.type === 'string') continue;
      if (key === '$ref' && typeof v === 'string') {
        out.$ref = v.replace(/^#\/\$defs\//, COMPONENT);
        continue;
      }
      if (key === 'additionalProperties' && isObject(v) && Object.keys(v).length === 0) {
        out[key] = true;
        continue;
      }
    }
    out[key] = tidy(v, parentKey === 'properties' ? '' : key);
  }
  return out;
}

/**
 * The fields a caller must send: those whose schema refuses their absence. zod's own list reads
 * a declared optionality, which says "optional" for any preprocessed field (`options`, which
 * defaults to {}, but also a union with a preprocessed branch such as `currency`).
 */
function requiredFields(object: z.ZodObject): string[] {
  return Object.entries(object.shape).filter(([, field]) => field._zod.optin === undefined || !field.safeParse(undefined).success).map(([name]) => name);
}

/**
 * Drops what a schema beside a `$ref` repeats of the component it refers to: zod writes a
 * refinement of a component as the reference plus the component's own keywords.
 */
function withoutRepeats(value: unknown, components: Record<string, JsonSchema>): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutRepeats(v, components));
  if (!isObject(value)) return value;
  const target = typeof value.$ref === 'string' && value.$ref.startsWith(COMPONENT) ? components[value.$ref.slice(COMPONENT.length)] : undefined;
  const out: JsonSchema = {};
  for (const [key, v] of Object.entries(value)) {
    if (target && key !== '$ref' && key in target && JSON.stringify(target[key]) === JSON.stringify(v)) continue;
    out[key] = VALUES.has(key) ? v : withoutRepeats(v, components);
  }
  return out;
}

/** Converts schemas one by one, gathering every component (`id`) they reach. */
class Converter {
  readonly components = new Map<string, JsonSchema>();
  private readonly params: z.core.ToJSONSchemaParams = {
    metadata: docs,
    io: 'input',
    target: 'draft-2020-12',
    override: ({ zodSchema, jsonSchema }) => this.amend(zodSchema as unknown as z.ZodType, jsonSchema as JsonSchema),
  };

  convert(schema: z.ZodType): JsonSchema {
    const { $defs, ...root } = z.toJSONSchema(schema, this.params) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [id, def] of Object.entries($defs ?? {})) this.add(id, def);
    return root;
  }

  add(id: string, schema: JsonSchema): void {
    const known = this.components.get(id);
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(schema)) {
      throw new Error(`two different schemas are named ${id}: give each its own id, or make them one schema`);
    }
    this.components.set(id, schema);
  }

  /** What zod's own output leaves out or gets wrong for these schemas. */
  private amend(schema: z.ZodType, json: JsonSchema): void {
    const { id: _id, ...words } = docs.get(schema) ?? {};
    // A parser that reads its input by hand is shown as the shape it documents, with its own words.
    const shape = documentedShape(schema);
    if (shape) {
      const shown = this.convert(shape);
      for (const key of Object.keys(json)) delete json[key];
      Object.assign(json, shown, words);
      return;
    }
    // zod keeps examples for the output of a transform only; ours are what a caller sends.
    if (words.examples !== undefined) json.examples = words.examples;
    if (schema instanceof z.ZodObject) json.required = requiredFields(schema);
    if (Array.isArray(json.required) && json.required.length === 0) delete json.required;
  }
}

function parametersOf(set: ParameterSet, converter: Converter): Record<string, Parameter> {
  const object = converter.convert(set.schema);
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  const out: Record<string, Parameter> = {};
  for (const [name, property] of Object.entries(properties)) {
    const { description, examples, style, explode, ...schema } = property;
    const parameter: Parameter = {
      name,
      in: set.in,
      required: set.in === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      ...(typeof style === 'string' ? { style } : {}),
      ...(typeof explode === 'boolean' ? { explode } : {}),
      schema: tidy(schema) as JsonSchema,
      ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
    };
    out[`${set.prefix}${name[0].toUpperCase()}${name.slice(1)}`] = parameter;
  }
  return out;
}

/**
 * A request field's default in its words, not as the `default` keyword: a generator reads a
 * property with a default as one the server always sends back (openapi-typescript makes it a
 * required field), which a caller of a request need not send.
 */
function defaultsInWords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(defaultsInWords);
  if (!isObject(value)) return value;
  const out: JsonSchema = {};
  for (const [key, v] of Object.entries(value)) {
    if (VALUES.has(key)) out[key] = v;
    else if (key === 'properties' && isObject(v)) out[key] = Object.fromEntries(Object.entries(v).map(([name, field]) => [name, fieldWithoutDefault(defaultsInWords(field))]));
    else out[key] = defaultsInWords(v);
  }
  return out;
}

function fieldWithoutDefault(field: unknown): unknown {
  if (!isObject(field) || !('default' in field)) return field;
  const { default: value, description, ...rest } = field;
  const said = `Default: \`${JSON.stringify(value)}\`.`;
  return { description: typeof description === 'string' ? `${description} ${said}` : said, ...rest };
}

/** Every request component: the listed bodies, the building blocks they use, the parameters. */
export function requestComponents(bodies: Record<string, z.ZodType>, parameterSets: readonly ParameterSet[]): RequestComponents {
  const converter = new Converter();
  const seen = new Map<string, string>();
  for (const [name, schema] of Object.entries(bodies)) {
    const body = converter.convert(schema);
    // Operations that take the same body (router build and xcmFees) share one description.
    const text = JSON.stringify(body);
    const same = seen.get(text);
    converter.add(name, same === undefined ? body : { $ref: `${COMPONENT}${same}` });
    if (same === undefined) seen.set(text, name);
  }
  const parameters: Record<string, Parameter> = {};
  for (const set of parameterSets) {
    for (const [name, parameter] of Object.entries(parametersOf(set, converter))) {
      if (name in parameters && JSON.stringify(parameters[name]) !== JSON.stringify(parameter)) {
        throw new Error(`two different parameters are named ${name}: give one of the sets another prefix`);
      }
      parameters[name] = parameter;
    }
  }
  const names = [...converter.components.keys()];
  // The listed bodies in their order, then the building blocks by name.
  const blocks = names.filter((n) => !(n in bodies)).sort();
  const tidied = Object.fromEntries([...Object.keys(bodies), ...blocks].map((n) => [n, defaultsInWords(tidy(converter.components.get(n))) as JsonSchema]));
  const schemas = withoutRepeats(tidied, tidied) as Record<string, JsonSchema>;
  for (const parameter of Object.values(parameters)) parameter.schema = withoutRepeats(parameter.schema, schemas) as JsonSchema;
  return { schemas, parameters };
}
