import { z } from 'zod';
import { ApiError, type ErrorDetail } from '../errors';
import { resetScaleLookups } from './amount-scale';

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

/** Path segments and messages are quoted at most this long: a key or value may be huge. */
const MAX_SEGMENT = 64;
const MAX_MESSAGE = 300;
/** An error answer names at most this many fields, in at most this much JSON, then counts the rest. */
const MAX_DETAILS = 20;
const MAX_DETAILS_JSON = 6_000;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}

function fieldPath(where: Where, path: (string | number)[]): string {
  return clip([where, ...path].map((segment) => clip(String(segment), MAX_SEGMENT)).join('.'), 4 * MAX_SEGMENT);
}

function describe(issue: z.ZodIssue, input: unknown): string {
  const explained = issue.code === 'custom' && typeof issue.params?.kind === 'string';
  if (!explained && isMissing(issue, input)) return 'is required';
  if (issue.code === 'unrecognized_keys') {
    const shown = issue.keys.slice(0, 5).map((k) => clip(k, MAX_SEGMENT));
    const more = issue.keys.length > shown.length ? ` and ${issue.keys.length - shown.length} more` : '';
    return `has unknown field(s): ${shown.join(', ')}${more}`;
  }
  return clip(issue.message, MAX_MESSAGE);
}

/** The details of the first issues, as many as fit the bounds above. */
function detailsOf(issues: z.ZodIssue[], where: Where, input: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  let size = 0;
  for (const issue of issues.slice(0, MAX_DETAILS)) {
    const detail = { path: fieldPath(where, issue.path), message: describe(issue, input) };
    size += JSON.stringify(detail).length;
    if (size > MAX_DETAILS_JSON && details.length > 0) break;
    details.push(detail);
  }
  return details;
}

/**
 * Parses `value` or throws a 400 naming each failing field, with the most specific error kind.
 * However many issues a body has, the answer names the first few and counts the rest.
 */
export function parseInput<S extends z.ZodTypeAny>(schema: S, value: unknown, where: Where): z.output<S> {
  const input = value ?? (where === 'body' ? undefined : {});
  resetScaleLookups();
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.flatMap(leafIssues);
  const details = detailsOf(issues, where, input);
  const rest = issues.length - details.length;
  const message = details.map((d) => `${d.path} ${d.message}`).join('; ') + (rest > 0 ? `; and ${rest} more issue(s)` : '');
  throw new ApiError(400, kindOf(issues[0], input), message, details);
}
