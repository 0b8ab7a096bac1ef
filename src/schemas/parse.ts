import { z } from 'zod';
import { ApiError, type ErrorDetail } from '../errors';

type Where = 'body' | 'query' | 'params';

/**
 * A union reports every branch's failure; the useful one is the branch whose type matched
 * (its issues are not `invalid_type`). Fall back to the first branch.
 */
function leafIssues(issue: z.ZodIssue): z.ZodIssue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const branches = issue.unionErrors.map((e) => e.issues.flatMap(leafIssues));
  const typed = branches.find((b) => b.some((i) => i.code !== 'invalid_type' || i.path.length > issue.path.length));
  if (typed) return typed;
  return [{ ...issue, code: 'custom', message: issue.message === 'Invalid input' ? 'has the wrong type or shape' : issue.message }];
}

/** The input value an issue points at: undefined means the caller left the field out. */
function valueAt(input: unknown, path: (string | number)[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function isMissing(issue: z.ZodIssue, input: unknown): boolean {
  return issue.code !== 'unrecognized_keys' && valueAt(input, issue.path) === undefined;
}

function kindOf(issue: z.ZodIssue, input: unknown): string {
  if (issue.code === 'custom' && typeof issue.params?.kind === 'string') return issue.params.kind;
  if (isMissing(issue, input)) return 'MissingParameterError';
  return 'ValidationError';
}

function fieldPath(where: Where, path: (string | number)[]): string {
  return [where, ...path].join('.');
}

function describe(issue: z.ZodIssue, input: unknown): string {
  const explained = issue.code === 'custom' && typeof issue.params?.kind === 'string';
  if (!explained && isMissing(issue, input)) return 'is required';
  if (issue.code === 'unrecognized_keys') return `has unknown field(s): ${issue.keys.join(', ')}`;
  return issue.message;
}

/** Parses `value` or throws a 400 naming each failing field, with the most specific error kind. */
export function parseInput<S extends z.ZodTypeAny>(schema: S, value: unknown, where: Where): z.output<S> {
  const input = value ?? (where === 'body' ? undefined : {});
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.flatMap(leafIssues);
  const details: ErrorDetail[] = issues.map((i) => ({ path: fieldPath(where, i.path), message: describe(i, input) }));
  const kind = kindOf(issues[0], input);
  const message = details.map((d) => `${d.path} ${d.message}`).join('; ');
  throw new ApiError(400, kind, message, details);
}
