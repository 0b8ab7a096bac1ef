import { z } from 'zod';
import type { TChain, TCurrencyCore, TLocation, TSubstrateChain } from '@paraspell/sdk-pjs';
import { sdk } from '../sdk';
import { amountSchema } from './amount';
import { doc, documentedAs, exactlyOne } from './docs';
import { LIMITS, quoted } from './limits';
import { abortOnIssue, typeError } from './zod-rules';
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

/**
 * A whole JSON number, of any size: zod's .int() refuses integers beyond 2^53, which the schemas
 * accept (an asset id that large is looked up, and not found, like any other). `integer` says so
 * in the document, once the bounds are added.
 */
const wholeNumber = z.number().refine(Number.isInteger, 'Expected integer, received float');
const integer = <S extends z.ZodType>(schema: S): S => doc(schema, { type: 'integer' });

const CHAIN_NAMES: readonly string[] = sdk.CHAINS;
const CHAIN_SET = new Set(CHAIN_NAMES);
const SUBSTRATE_SET = new Set<string>(sdk.SUBSTRATE_CHAINS);

export function unknownChainMessage(value: string, names: readonly string[] = CHAIN_NAMES): string {
  if (value === '') return 'a chain name is required';
  return `unknown chain ${quoted(value)}; did you mean ${nearest(value, names)
    .map((n) => `'${n}'`)
    .join(', ')}? (GET /chains lists them all)`;
}

/** Any chain the SDK knows, Ethereum included. */
export const chainName = doc(
  z
    .string(typeError('must be a chain name (string)', 'a chain name is required'))
    .superRefine((value, ctx) => {
      if (!CHAIN_SET.has(value)) ctx.addIssue({ code: 'custom', message: unknownChainMessage(value), ...withKind('UnknownChainError') });
    })
    .check(abortOnIssue)
    .transform((v) => v as TChain),
  {
    id: 'ChainName',
    description:
      'A chain the service knows: parachains and relay chains of the Polkadot, Kusama, Westend and Paseo ecosystems, and Ethereum. `GET /v2/chains` lists them. Pallet, endpoint, reserve and SS58 lookups need a Substrate chain (anything but `Ethereum`). An unknown name is a 400 `UnknownChainError` whose message suggests the nearest names.',
    enum: [...CHAIN_NAMES],
  },
);

/** A Substrate chain (everything but Ethereum): pallets, endpoints and SS58 need one. */
export const substrateChainName = doc(
  chainName
    .superRefine((value, ctx) => {
      if (!SUBSTRATE_SET.has(value)) ctx.addIssue({ code: 'custom', message: `${quoted(value)} is not a Substrate chain`, ...withKind('UnknownChainError') });
    })
    .check(abortOnIssue)
    .transform((v) => v as TSubstrateChain),
  { description: 'A Substrate chain (not `Ethereum`).' },
);

const junctions = z.union([z.literal('Here'), z.record(z.string(), z.unknown())]);

const JUNCTION_COUNT = /^x(\d+)$/i;

/**
 * Why a location is larger than XCM allows, or undefined. The walk is iterative and stops at the
 * first excess, so a deeply nested or very wide value costs no more than the bound.
 */
function locationSizeProblem(location: object): { path: string[]; message: string } | undefined {
  const stack: [unknown, number][] = [[location, 1]];
  let values = 1;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > LIMITS.locationDepth) return { path: [], message: `nests objects and arrays more than ${LIMITS.locationDepth} deep, deeper than any XCM location` };
    const children = Array.isArray(value) ? value : Object.values(value);
    values += children.length;
    if (values > LIMITS.locationNodes) return { path: [], message: `holds more than ${LIMITS.locationNodes} values, more than any XCM location` };
    for (const child of children) stack.push([child, depth + 1]);
  }
  const interior = (location as { interior?: unknown }).interior;
  if (typeof interior !== 'object' || interior === null) return undefined;
  for (const [key, value] of Object.entries(interior)) {
    const count = JUNCTION_COUNT.exec(key);
    if ((count && Number(count[1]) > LIMITS.junctions) || (Array.isArray(value) && value.length > LIMITS.junctions)) {
      return { path: ['interior', key.slice(0, LIMITS.name)], message: `an XCM location has at most ${LIMITS.junctions} junctions (X1 to X${LIMITS.junctions})` };
    }
  }
  return undefined;
}

/** The JSON form of an XCM location, `{parents, interior}`, no larger than XCM allows. */
export const locationObject = doc(
  z
    .object({
      parents: z.union([integer(wholeNumber.min(0).max(255)), z.string().regex(/^\d{1,3}$/, 'must be a whole number')]),
      interior: junctions,
    })
    .superRefine((v, ctx) => {
      const problem = locationSizeProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message, params: { kind: 'ValidationError' } });
    })
    .check(abortOnIssue)
    .transform((v) => v as TLocation),
  {
    id: 'Location',
    description: `An XCM location \`{parents, interior}\`. \`interior\` is \`{"Here": null}\` or \`{"X<n>": [junction, ...]}\` (e.g. \`{"X3": [{"Parachain": 1000}, {"PalletInstance": 50}, {"GeneralIndex": 1984}]}\`). In requests \`parents\` may also be a decimal string and \`interior\` the string \`"Here"\`; answers always use the object forms. A request location has at most ${LIMITS.junctions} junctions (\`X1\` to \`X${LIMITS.junctions}\`), nests objects and arrays at most ${LIMITS.locationDepth} levels deep and holds at most ${LIMITS.locationNodes} values; a larger one is a 400 \`ValidationError\`.`,
    examples: [
      { parents: 1, interior: { Here: null } },
      { parents: 1, interior: { X3: [{ Parachain: 1000 }, { PalletInstance: 50 }, { GeneralIndex: 1984 }] } },
    ],
  },
);

/**
 * An issue a transform raises on a value of the right type continues (zod 3 did that by itself),
 * so that a union reports this branch, the one whose type matched.
 */
export const transformIssue = (message: string, kind: IssueKind) => ({ code: 'custom' as const, message, params: { kind }, continue: true });

/** The string form of a location is its JSON text. */
const locationString = z.string().transform((text, ctx) => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    ctx.addIssue(transformIssue('a location string must be the JSON text of {parents, interior}', 'InvalidCurrencyError'));
    return z.NEVER;
  }
  const parsed = locationObject.safeParse(value);
  if (!parsed.success) {
    ctx.addIssue(transformIssue('a location string must be the JSON text of {parents, interior}', 'InvalidCurrencyError'));
    return z.NEVER;
  }
  return parsed.data;
});

export const location = doc(
  z.union([doc(locationString, { description: 'The JSON text of a location, e.g. `{"parents":1,"interior":{"Here":null}}`.' }), locationObject], {
    error: 'must be a location: {parents, interior} or its JSON text',
  }),
  { id: 'LocationOrText' },
);

/** Asset ids are strings or numbers; a trailing `n` marks a big integer id. */
export const assetId = doc(
  z.union([
    z.string().min(1).max(LIMITS.assetId).regex(/^\d+n$/).check(abortOnIssue).transform((v) => BigInt(v.slice(0, -1))),
    z.string().min(1, 'must not be empty').max(LIMITS.assetId, `must be at most ${LIMITS.assetId} characters`),
    integer(wholeNumber.nonnegative()),
  ]),
  {
    id: 'AssetId',
    description: 'An asset id. Numeric ids may be JSON numbers; ids too long for a JSON number are strings with a trailing `n` (e.g. `"42259045809535163221576417993425387648n"`).',
    examples: [1984, '5', '42259045809535163221576417993425387648n'],
  },
);

export const symbolText = z.string().min(1, 'must not be empty').max(LIMITS.symbol, `must be at most ${LIMITS.symbol} characters`);

export const symbolSpecifier = doc(
  z.union([symbolText, z.object({ type: z.enum(['Native', 'Foreign', 'ForeignAbstract']), value: symbolText }).strict()]),
  {
    id: 'SymbolSpecifier',
    description: 'A symbol, or a symbol with a preference when several assets share it (`Native`, `Foreign`, or `ForeignAbstract` with an alias such as `USDT1`).',
    examples: ['DOT', { type: 'Native', value: 'DOT' }, { type: 'ForeignAbstract', value: 'USDT1' }],
  },
);

/** The three ways to select an asset; a refinement takes exactly one of them. */
export const selectorFields = { location: location.optional(), id: assetId.optional(), symbol: symbolSpecifier.optional() };
export const SELECTORS = ['location', 'id', 'symbol'] as const;

const selectorError = 'must carry exactly one of location, id or symbol';

/** One asset selector with no amount: the lookup form. */
export const currencyCore = z
  .object(selectorFields)
  .passthrough()
  .superRefine((v, ctx) => {
    const count = [v.location, v.id, v.symbol].filter((x) => x !== undefined).length;
    if (count !== 1) ctx.addIssue({ code: 'custom', message: selectorError, ...withKind('InvalidCurrencyError') });
  })
  .check(abortOnIssue)
  .transform((v): TCurrencyCore => {
    if (v.location !== undefined) return { location: v.location };
    if (v.id !== undefined) return { id: v.id };
    return { symbol: v.symbol as NonNullable<typeof v.symbol> };
  });

/** Amounts in lookups: a whole number of base units (abstract decimals do not apply). */
export const plainAmount = doc(
  amountSchema({ positive: false }).refine((v) => !v.includes('.'), {
    message: 'must be a whole number of base units',
    ...withKind('NumberFormatError'),
  }),
  { anyOf: [{ type: 'string', pattern: '^[0-9]+$', maxLength: LIMITS.amount }, { type: 'integer', minimum: 0 }] },
);

/** A lookup currency: a selector, with an optional amount that lookups ignore (checked first). */
export const lookupCurrency = doc(
  documentedAs(
    z.object({ amount: plainAmount.optional() }).passthrough().pipe(currencyCore),
    z
      .object({
        ...selectorFields,
        amount: doc(plainAmount.optional(), { description: 'Ignored by lookups; when present it must be a whole number of base units (ASCII digits, at most 2^128-1).' }),
      })
      .passthrough(),
  ),
  {
    id: 'CurrencySelector',
    description:
      'Selects one asset by exactly one of `location` (JSON object or its JSON text), `id` or `symbol`; more than one, or none, is a 400 `InvalidCurrencyError`. Lookups accept an optional `amount` and ignore it; `ALL` is not accepted here (400 `ValidationError`). Other fields are ignored. The multi-asset array and the Override selector are not accepted by lookups.',
    ...exactlyOne(SELECTORS),
    examples: [{ symbol: 'DOT' }, { id: 1984 }, { location: { parents: 1, interior: { Here: null } } }, { symbol: { type: 'Foreign', value: 'USDT' } }],
  },
);

export const paraId = doc(
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number (a parachain id)')
    .check(abortOnIssue)
    .transform(Number)
    .pipe(wholeNumber.max(4_294_967_295, 'is larger than any parachain id')),
  { description: 'A parachain id (a whole number; 0 names the relay chain, 1 Ethereum in the Ethereum ecosystem).', examples: ['2034'] },
);

export const ECOSYSTEMS = ['Polkadot', 'Kusama', 'Westend', 'Paseo', 'Ethereum'] as const;
export const ecosystem = z.enum(ECOSYSTEMS, { error: `must be one of ${ECOSYSTEMS.join(', ')}` });
