import { z } from 'zod';

// What openapi.yaml says about the request schemas beyond their shape. `npm run openapi`
// (scripts/openapi.ts) turns the schemas listed in ./openapi.ts into the document's request
// components, with these words beside them; nothing else reads them.

/**
 * `id` makes the schema a component of its own (`#/components/schemas/<id>`, referenced wherever
 * the schema is used); every other key is a JSON Schema keyword written beside its shape:
 * `description`, `examples`, or what a refinement checks that the shape cannot say (`enum` for
 * a name checked against a list, `oneOf` for "exactly one of"). On a query parameter's field,
 * `style` and `explode` go to the parameter.
 */
export interface DocMeta {
  id?: string;
  description?: string;
  examples?: unknown[];
  [keyword: string]: unknown;
}

export const docs = z.registry<DocMeta>();

const shapes = new WeakMap<z.ZodType, z.ZodType>();

/**
 * `schema`, described (a copy: the same schema may be described differently elsewhere). The copy
 * keeps what `schema` was described with, its `id` aside (zod's registries pass metadata on to
 * copies and refinements): it is a new schema.
 */
export function doc<S extends z.ZodType>(schema: S, meta: DocMeta): S {
  const copy = schema.clone();
  docs.add(copy, meta);
  const shape = shapes.get(schema);
  if (shape) shapes.set(copy, shape);
  return copy;
}

/**
 * `parser` reads its input by hand (to order its checks or word its messages), so its own shape
 * says nothing; the document shows `shape` instead, a schema built from the same pieces. The
 * parser must be its own instance (describe it with `doc` afterwards).
 */
export function documentedAs<S extends z.ZodType>(parser: S, shape: z.ZodType): S {
  if (shapes.has(parser)) throw new Error('documentedAs: this schema already shows another shape; pass a new instance');
  shapes.set(parser, shape);
  return parser;
}

export const documentedShape = (schema: z.ZodType): z.ZodType | undefined => shapes.get(schema);

/** "Exactly one of these fields" as JSON Schema, for objects whose refinement says so. */
export const exactlyOne = (fields: readonly string[]) => ({ oneOf: fields.map((field) => ({ required: [field] })) });
