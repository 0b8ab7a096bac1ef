import { z } from 'zod';
import { ApiError, type ErrorDetail } from '../errors';
import { resetScaleLookups } from './amount-scale';
import './zod-rules';

type Where = 'body' | 'query' | 'params';
type Issue = z.core.$ZodIssue;
type Path = PropertyKey[];

const pathKey = (path: Path): string => path.map(String).join('\u0000');

/**
 * zod 4 checks the length of a value of the wrong type too (a string and an array both have one);
 * such an issue only repeats that the type is wrong.
 */
function withoutEchoes(issues: Issue[]): Issue[] {
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map((i) => pathKey(i.path)));
  if (wrongType.size === 0) return issues;
  return issues.filter((i) => (i.code !== 'too_small' && i.code !== 'too_big') || !wrongType.has(pathKey(i.path)));
}

/**
 * A union reports every branch's failure; the useful one is the branch whose type matched
 * (its issues are not `invalid_type`). Fall back to the first branch.
 */
function leafIssues(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union') return [issue];
  // A branch's issues are given relative to the union.
  const branches = issue.errors.map((branch) => withoutEchoes(branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue)).flatMap(leafIssues));
  // A fraction given to an integer is a number: its branch matched the type.
  const typed = branches.find((b) => b.some((i) => i.code !== 'invalid_type' || i.expected === 'int' || i.path.length > issue.path.length));
  if (typed) return typed;
  return [{ ...issue, code: 'custom', message: issue.message === 'Invalid input' ? 'has the wrong type or shape' : issue.message }];
}

/** The input value an issue points at: undefined means the caller left the field out. */
function valueAt(input: unknown, path: Path): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function isMissing(issue: Issue, input: unknown): boolean {
  return issue.code !== 'unrecognized_keys' && valueAt(input, issue.path) === undefined;
}

function kindOf(issue: Issue, input: unknown): string {
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

function fieldPath(where: Where, path: Path): string {
  return clip([where, ...path].map((segment) => clip(String(segment), MAX_SEGMENT)).join('.'), 4 * MAX_SEGMENT);
}

function describe(issue: Issue, input: unknown): string {
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
function detailsOf(issues: Issue[], where: Where, input: unknown): ErrorDetail[] {
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
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: Where): z.output<S> {
  const input = value ?? (where === 'body' ? undefined : {});
  resetScaleLookups();
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = withoutEchoes(result.error.issues).flatMap(leafIssues);
  const details = detailsOf(issues, where, input);
  const rest = issues.length - details.length;
  const message = details.map((d) => `${d.path} ${d.message}`).join('; ') + (rest > 0 ? `; and ${rest} more issue(s)` : '');
  throw new ApiError(400, kindOf(issues[0], input), message, details);
}
