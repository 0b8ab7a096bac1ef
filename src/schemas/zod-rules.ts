import { z } from 'zod';

// The schemas were written for zod 3; under zod 4 three of its rules are kept here, so that no
// answer changed with the upgrade:
// - the messages zod writes itself (a wrong JSON type, an enum or literal that does not match, a
//   number out of range), worded as zod 3 worded them; set as zod's locale, so that schemas parsed
//   inside other schemas' refinements (batch items, nested currencies) answer the same;
// - `typeError`: words for a wrong type or an absent value, and only for those;
// - `abortOnIssue`: a value that failed is not checked further up (see below).

/** zod 3's name for the type of a JSON value. */
function typeOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && Number.isNaN(input)) return 'nan';
  return typeof input;
}

const quote = (values: readonly unknown[]): string => values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(' | ');

type Sized = { origin: string; exact?: boolean; inclusive?: boolean };

function tooSmall({ origin, exact, inclusive }: Sized, minimum: unknown): string {
  if (origin === 'string') return `String must contain ${exact ? 'exactly' : inclusive ? 'at least' : 'over'} ${minimum} character(s)`;
  if (origin === 'array') return `Array must contain ${exact ? 'exactly' : inclusive ? 'at least' : 'more than'} ${minimum} element(s)`;
  return `Number must be ${exact ? 'exactly equal to ' : inclusive ? 'greater than or equal to ' : 'greater than '}${minimum}`;
}

function tooBig({ origin, exact, inclusive }: Sized, maximum: unknown): string {
  if (origin === 'string') return `String must contain ${exact ? 'exactly' : inclusive ? 'at most' : 'under'} ${maximum} character(s)`;
  if (origin === 'array') return `Array must contain ${exact ? 'exactly' : inclusive ? 'at most' : 'less than'} ${maximum} element(s)`;
  return `Number must be ${exact ? 'exactly equal to ' : inclusive ? 'less than or equal to ' : 'less than '}${maximum}`;
}

/** The message of an issue no schema gave one to. */
function message(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required';
      // zod 4 reports a fraction given to .int() as a wrong type, as zod 3 did.
      if (issue.expected === 'int') return 'Expected integer, received float';
      return `Expected ${issue.expected === 'record' ? 'object' : issue.expected}, received ${typeOf(issue.input)}`;
    case 'invalid_value': {
      if ((issue.inst?._zod.def as { type?: string } | undefined)?.type === 'literal') return `Invalid literal value, expected ${JSON.stringify(issue.values[0])}`;
      if (typeof issue.input !== 'string') return `Expected ${quote(issue.values)}, received ${typeOf(issue.input)}`;
      return `Invalid enum value. Expected ${quote(issue.values)}, received '${issue.input}'`;
    }
    case 'too_small':
      return tooSmall(issue, issue.minimum);
    case 'too_big':
      return tooBig(issue, issue.maximum);
    case 'invalid_format':
      return issue.format === 'regex' ? 'Invalid' : `Invalid ${issue.format}`;
    case 'not_multiple_of':
      return `Number must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `Unrecognized key(s) in object: ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    default:
      return 'Invalid input';
  }
}

z.config({ localeError: message });

/**
 * An `{error}` parameter for a schema whose wrong type, or absence, needs its own words (zod 3's
 * `invalid_type_error` and `required_error`); its other issues keep their own messages.
 */
export function typeError(invalid: string, required?: string): { error: (issue: z.core.$ZodRawIssue) => string | undefined } {
  return {
    error: (issue) => {
      if (issue.code !== 'invalid_type') return undefined;
      return issue.input === undefined ? required : invalid;
    },
  };
}

/**
 * Goes before a `.transform`. Once the value has an issue, the transform does not run, and the
 * refinements of the objects around it (rules across fields) must not run either: they would read
 * a value the transform never produced, such as an unknown chain name. zod 3 stopped them by
 * itself; zod 4 lets them run, so this marks the issues as ending the parse.
 */
export const abortOnIssue = z.superRefine<unknown>(
  (_value, ctx) => {
    for (const issue of ctx.issues) (issue as { continue?: boolean }).continue = false;
  },
  { when: (payload) => payload.issues.length > 0 },
);
