import { z } from 'zod';
import { doc } from './docs';
import { LIMITS, U128_MAX } from './limits';

/**
 * Amounts as a client writes them: ASCII digits with at most one decimal point, as a string, or a
 * JSON number that carries such a value exactly. Anything the engine would read differently from
 * the caller (exponents, Infinity, unicode digits or spaces, more than a u128) is refused here;
 * leading zeros are dropped (`007` is `7`). Rules that need the asset (its decimals, the engine's
 * minimum) are not decided here.
 */

const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;

type Checked = { text: string } | { error: string };

const SHAPE = 'must be ASCII digits with at most one decimal point, e.g. "10000000000" or "1.5"';

function fromNumber(n: number): Checked {
  if (n < 0) return { error: 'must not be negative' };
  if (Number.isInteger(n)) {
    return Number.isSafeInteger(n) ? { text: n.toFixed(0) } : { error: 'is too large for a JSON number to carry exactly; send it as a string' };
  }
  const text = String(n);
  // 1e-7 and the like: the shortest exact text of this double has an exponent.
  return /e/i.test(text) ? { error: `cannot be written without an exponent (${text}); send it as a decimal string` } : { text };
}

function fromString(text: string, all: boolean): Checked {
  if (all && text === 'ALL') return { text };
  if (text.length > LIMITS.amount) return { error: `has more than ${LIMITS.amount} characters` };
  const match = DECIMAL.exec(text);
  if (!match) return { error: text.startsWith('-') ? 'must not be negative' : SHAPE };
  const whole = match[1].replace(/^0+(?=[0-9])/, '');
  if (BigInt(whole) > U128_MAX) return { error: 'is larger than 2^128-1, the most any chain can hold' };
  return { text: match[2] === undefined ? whole : `${whole}.${match[2]}` };
}

const isZero = (text: string): boolean => /^[0.]+$/.test(text);

/**
 * A JSON number beyond a double (1e309) parses as Infinity, which z.number() refuses as a wrong
 * type: it is named for what it is before the union sees it.
 */
export function finiteOrRefused<S extends z.ZodType>(schema: S) {
  return z.preprocess((value, ctx) => {
    if (value === Infinity || value === -Infinity) ctx.addIssue({ code: 'custom', message: 'is not a finite number', params: { kind: 'NumberFormatError' }, fatal: true });
    return value;
  }, schema);
}

export interface AmountRules {
  /** A transfer amount: 0 is refused. */
  positive: boolean;
  /** `ALL` (send everything) is accepted. */
  all?: boolean;
  /** The message when the value is neither a string nor a number. */
  typeMessage?: string;
}

/** What the document says an amount is: the checks below, as JSON Schema. */
const documented = ({ positive, all }: AmountRules) => ({
  anyOf: [
    { type: 'string', pattern: all ? `^ALL$|${DECIMAL.source}` : DECIMAL.source, maxLength: LIMITS.amount },
    { type: 'number', ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }) },
  ],
});

/** An amount as its normalised decimal text (or `ALL` where allowed). */
export function amountSchema({ positive, all = false, typeMessage = 'must be a number or a numeric string' }: AmountRules) {
  const parser = finiteOrRefused(z.union([z.string(), z.number()], { error: typeMessage })).transform((value, ctx) => {
    const checked = typeof value === 'number' ? fromNumber(value) : fromString(value, all);
    const error = 'error' in checked ? checked.error : positive && isZero(checked.text) ? 'must be greater than 0' : undefined;
    if ('error' in checked || error !== undefined) {
      // Fatal: rules across fields must not see a body whose amount is missing.
      ctx.addIssue({ code: 'custom', message: error ?? SHAPE, params: { kind: 'NumberFormatError' }, fatal: true });
      return z.NEVER;
    }
    return checked.text;
  });
  return doc(parser, documented({ positive, all }));
}
