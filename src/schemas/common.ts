import { z } from 'zod';
import type { TChain, TCurrencyCore, TLocation, TSubstrateChain } from '@paraspell/sdk-pjs';
import { sdk } from '../sdk';
import { nearest } from './suggest';

/** Error kinds a schema issue can carry in its params; the HTTP layer reports the first one. */
export type IssueKind =
  | 'UnknownChainError'
  | 'InvalidCurrencyError'
  | 'NumberFormatError'
  | 'InvalidAddressError'
  | 'InvalidPalletError'
  | 'ValidationError';

const withKind = (kind: IssueKind) => ({ params: { kind } });

const CHAIN_NAMES: readonly string[] = sdk.CHAINS;
const CHAIN_SET = new Set(CHAIN_NAMES);
const SUBSTRATE_SET = new Set<string>(sdk.SUBSTRATE_CHAINS);

export function unknownChainMessage(value: string, names: readonly string[] = CHAIN_NAMES): string {
  if (value === '') return 'a chain name is required';
  return `unknown chain '${value}'; did you mean ${nearest(value, names)
    .map((n) => `'${n}'`)
    .join(', ')}? (GET /v2/chains lists them all)`;
}

/** Any chain the SDK knows, Ethereum included. */
export const chainName = z
  .string({ required_error: 'a chain name is required', invalid_type_error: 'must be a chain name (string)' })
  .superRefine((value, ctx) => {
    if (!CHAIN_SET.has(value)) ctx.addIssue({ code: 'custom', message: unknownChainMessage(value), ...withKind('UnknownChainError') });
  })
  .transform((v) => v as TChain);

/** A Substrate chain (everything but Ethereum): pallets, endpoints and SS58 need one. */
export const substrateChainName = chainName.superRefine((value, ctx) => {
  if (!SUBSTRATE_SET.has(value)) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not a Substrate chain`, ...withKind('UnknownChainError') });
  }
}).transform((v) => v as TSubstrateChain);

const junctions = z.union([z.literal('Here'), z.record(z.unknown())]);

/** The JSON form of an XCM location, `{parents, interior}`. */
export const locationObject = z
  .object({
    parents: z.union([z.number().int().min(0).max(255), z.string().regex(/^\d+$/, 'must be a whole number')]),
    interior: junctions,
  })
  .transform((v) => v as TLocation);

/** The string form of a location is its JSON text. */
const locationString = z.string().transform((text, ctx) => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'a location string must be the JSON text of {parents, interior}', ...withKind('InvalidCurrencyError') });
    return z.NEVER;
  }
  const parsed = locationObject.safeParse(value);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: 'a location string must be the JSON text of {parents, interior}', ...withKind('InvalidCurrencyError') });
    return z.NEVER;
  }
  return parsed.data;
});

export const location = z.union([locationString, locationObject], {
  errorMap: () => ({ message: 'must be a location: {parents, interior} or its JSON text' }),
});

/** Asset ids are strings or numbers; a trailing `n` marks a big integer id. */
export const assetId = z.union([
  z.string().min(1).regex(/^\d+n$/).transform((v) => BigInt(v.slice(0, -1))),
  z.string().min(1, 'must not be empty'),
  z.number().int().nonnegative(),
]);

export const symbolSpecifier = z.union([
  z.string().min(1, 'must not be empty'),
  z.object({ type: z.enum(['Native', 'Foreign', 'ForeignAbstract']), value: z.string().min(1, 'must not be empty') }).strict(),
]);

const selectorError = 'must carry exactly one of location, id or symbol';

/** One asset selector with no amount: the lookup form. */
export const currencyCore = z
  .object({ location: location.optional(), id: assetId.optional(), symbol: symbolSpecifier.optional() })
  .passthrough()
  .superRefine((v, ctx) => {
    const count = [v.location, v.id, v.symbol].filter((x) => x !== undefined).length;
    if (count !== 1) ctx.addIssue({ code: 'custom', message: selectorError, ...withKind('InvalidCurrencyError') });
  })
  .transform((v): TCurrencyCore => {
    if (v.location !== undefined) return { location: v.location };
    if (v.id !== undefined) return { id: v.id };
    return { symbol: v.symbol as NonNullable<typeof v.symbol> };
  });

/** Amounts in lookups: a whole number of base units (abstract decimals do not apply). */
export const plainAmount = z.union([
  z.string().refine((v) => /^\d+$/.test(v), { message: 'must be a whole number of base units', ...withKind('NumberFormatError') }),
  z
    .number()
    .refine((n) => Number.isSafeInteger(n) && n >= 0, { message: 'must be a whole number of base units', ...withKind('NumberFormatError') })
    .transform(String),
]);

/** A lookup currency: a selector, with an optional amount that lookups ignore. */
export const lookupCurrency = z
  .object({ amount: plainAmount.optional() })
  .passthrough()
  .pipe(currencyCore);

export const paraId = z
  .string()
  .regex(/^\d+$/, 'must be a whole number (a parachain id)')
  .transform(Number)
  .pipe(z.number().int().max(4_294_967_295, 'is larger than any parachain id'));

export const ECOSYSTEMS = ['Polkadot', 'Kusama', 'Westend', 'Paseo', 'Ethereum'] as const;
export const ecosystem = z.enum(ECOSYSTEMS, {
  errorMap: () => ({ message: `must be one of ${ECOSYSTEMS.join(', ')}` }),
});
