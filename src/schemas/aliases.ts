import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';

// Field names of the ParaSpell XCM API 14 that differ from the contract's are accepted as
// alternatives: each is a declared optional field (so openapi.yaml lists it, marked as such) that
// is folded into the documented one. Giving both with different values is a 400 at the
// alternative: which of the two the caller meant cannot be guessed.

/** The description of an accepted alternative field. */
export const aliasOf = (field: string): string => `Accepted alternative to \`${field}\` (the ParaSpell XCM API's name); giving both with different values is a 400 \`ValidationError\`.`;

/**
 * `body` with `alias` folded into `field` (and removed). When both are given and differ, an issue
 * at the alternative is added and `body` is returned as it is.
 */
export function foldAlias<T extends Record<string, unknown>>(body: T, field: keyof T & string, alias: keyof T & string, ctx: z.RefinementCtx): T {
  const { [alias]: value, ...rest } = body;
  if (value === undefined) return rest as T;
  if (body[field] !== undefined && !isDeepStrictEqual(body[field], value)) {
    ctx.addIssue({ code: 'custom', path: [alias], message: `gives a different value than ${field}; give one of the two`, params: { kind: 'ValidationError' } });
    return body;
  }
  return { ...rest, [field]: value } as T;
}
