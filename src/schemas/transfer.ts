import { z } from 'zod';
import type { TChain, TCurrencyCore, TLocation } from '@paraspell/sdk-pjs';
import { byFamily, componentName, FAMILY_FIELDS, type Family } from './family';
import { sdk } from '../sdk';
import { addressMismatch, INVALID_ADDRESS, isValidAddress } from './address';
import { aliasOf, foldAlias } from './aliases';
import { amountSchema } from './amount';
import { scaledAmountProblem } from './amount-scale';
import { assetId, chainName, location, locationObject, SELECTORS, symbolSpecifier, transformIssue } from './common';
import { customAssetsSchema, type CustomAssetsMap } from './custom-assets';
import { doc, documentedAs, exactlyOne } from './docs';
import { boundedArray, LIMITS } from './limits';
import { abortOnIssue, typeError } from './zod-rules';

/**
 * The one internal request model for everything that builds or prices a transfer. Each family's
 * field names are translated into it here; nothing below the HTTP layer knows the family.
 */
export type TransferAmount = string | 'ALL';

export type TransferCurrency =
  | (TCurrencyCore & { amount: TransferAmount })
  | { location: { type: 'Override'; value: TLocation }; amount: TransferAmount }
  | (TCurrencyCore & { amount: string })[];

export interface TransferOptions {
  development: boolean;
  abstractDecimals: boolean;
  xcmFormatCheck: boolean;
  /** Chain name -> endpoint URLs, in failover order. */
  apiOverrides: Partial<Record<TChain, string[]>>;
  /** Chain name -> assets the chain knows for this request (absent: the registry alone). */
  customAssets?: CustomAssetsMap;
}

export interface TransferRequest {
  from: TChain;
  to: TChain | TLocation;
  currency: TransferCurrency;
  recipient: string | TLocation;
  sender?: string;
  ahAddress?: string;
  feeAsset?: TCurrencyCore;
  xcmVersion?: 'V3' | 'V4' | 'V5';
  pallet?: { pallet: string; method: string };
  keepAlive?: boolean;
  options: TransferOptions;
}

const issue = (ctx: z.RefinementCtx, message: string, kind = 'ValidationError') =>
  ctx.addIssue({ code: 'custom', message, params: { kind } });

/** Amounts: whole base units, or decimals when abstractDecimals is on (see `crossFieldRules`). */
const amountValue = doc(amountSchema({ positive: true, all: true, typeMessage: 'must be a number, a numeric string or ALL' }), {
  id: 'TransferAmount',
  description: `A positive amount as a string or JSON number, or \`ALL\` (single-asset only). Base units, unless \`options.abstractDecimals\` is on, when decimals are allowed. ASCII digits with at most one point, no spaces or exponents; leading zeros are dropped; 0 and more than 2^128-1 are a 400 \`NumberFormatError\`. JSON numbers must be safe integers or decimals written without an exponent; send anything else as a string.`,
});

const overrideString = z
  .string()
  .regex(/^Override\(.*\)$/s)
  .check(abortOnIssue)
  .transform((text, ctx) => {
    const inner = text.slice('Override('.length, -1);
    const parsed = (() => {
      try {
        return locationObject.safeParse(JSON.parse(inner));
      } catch {
        return undefined;
      }
    })();
    if (!parsed?.success) {
      ctx.addIssue(transformIssue('Override(...) must wrap the JSON text of a location {parents, interior}', 'InvalidCurrencyError'));
      return z.NEVER;
    }
    return { type: 'Override' as const, value: parsed.data };
  });

const overrideObject = doc(z.object({ type: z.literal('Override'), value: locationObject }).strict(), { description: 'The Override selector as an object.' });

const selectorFields = {
  // Plain locations are the common case: the Override object is tried last.
  location: doc(z.union([doc(overrideString, { description: '`Override(<JSON text of a location>)`.' }), location, overrideObject]).optional(), {
    description:
      'A location (JSON object or its JSON text), or the Override selector, which bypasses the registry: the location is taken as the asset as it is. The contract lists Override as removed upstream (replaced by a custom-assets option); this service still accepts it for one asset, not inside a multi-asset array, and not from a relay chain (400 `InvalidCurrencyError` naming what to send instead).',
  }),
  id: assetId.optional(),
  symbol: symbolSpecifier.optional(),
};

function checkOneSelector(v: { location?: unknown; id?: unknown; symbol?: unknown }, ctx: z.RefinementCtx): void {
  const count = [v.location, v.id, v.symbol].filter((x) => x !== undefined).length;
  if (count !== 1) issue(ctx, 'must carry exactly one of location, id or symbol', 'InvalidCurrencyError');
}

const singleCurrency = doc(z.object({ ...selectorFields, amount: amountValue }).strict().superRefine(checkOneSelector), {
  id: 'TransferCurrencySelector',
  description: 'One asset and its amount, selected by exactly one of `location`, `id` or `symbol` (more than one, or none, is a 400 `InvalidCurrencyError`).',
  ...exactlyOne(SELECTORS),
});

const multiCurrency = boundedArray(z.array(singleCurrency).min(1, 'must list at least one asset'), LIMITS.multiAssets, `must list at most ${LIMITS.multiAssets} assets`).superRefine(
  (assets, ctx) => {
    assets.forEach((a, i) => {
      if (a.amount === 'ALL') ctx.addIssue({ code: 'custom', path: [i, 'amount'], message: 'ALL cannot be used in a multi-asset transfer', params: { kind: 'NumberFormatError' } });
      if (typeof a.location === 'object' && a.location !== null && 'type' in a.location) {
        ctx.addIssue({ code: 'custom', path: [i, 'location'], message: 'Override locations select one asset; list registry assets here', params: { kind: 'InvalidCurrencyError' } });
      }
    });
  },
);

export const transferCurrency = doc(z.union([multiCurrency, singleCurrency], { error: 'must be a currency object {symbol|id|location, amount} or an array of them' }), {
  id: 'TransferCurrency',
  description: `One asset with its amount, or several (multi-asset, at most ${LIMITS.multiAssets}): no \`ALL\` and no Override inside the array, and \`feeAsset\` is required when it lists more than one.`,
});

/** Fee asset: one selector, no amount. */
export const feeAssetSchema = doc(
  z
    .object({ location: location.optional(), id: assetId.optional(), symbol: symbolSpecifier.optional() })
    .strict()
    .superRefine(checkOneSelector)
    .check(abortOnIssue)
    .transform((v): TCurrencyCore => (v.location !== undefined ? { location: v.location } : v.id !== undefined ? { id: v.id } : { symbol: v.symbol! })),
  {
    id: 'FeeAsset',
    description:
      "The asset that pays the fees on the origin; exactly one selector, no amount. Pre-flight queries price the origin fee in it with the origin's XcmPaymentApi (the dry run's local XCM weighed, the weight priced in this asset), and so do transfers from the asset hub and Hydration, whose execute XCM holds that fee back; where the origin cannot (its XcmPaymentApi refuses the asset, or did not price the dry run) the answer is a 400 `UnableToComputeError` naming the chain, never a native-asset figure under this label.",
    ...exactlyOne(SELECTORS),
  },
);

export const wsUrl = doc(
  z
    .string()
    .max(2048, 'must be at most 2048 characters')
    .url('must be a URL')
    .refine((u) => /^wss?:\/\//i.test(u), 'must be a ws:// or wss:// URL'),
  { pattern: '^[wW][sS][sS]?://' },
);
export const wsUrls = z.union([wsUrl, z.array(wsUrl).min(1, 'must list at least one URL')]);

export const apiOverridesSchema = doc(
  documentedAs(
    // Counted before anything else is checked, so that a flood of keys costs nothing.
    z
      .preprocess((v, ctx) => {
        if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > LIMITS.overrideChains) {
          ctx.addIssue({ code: 'custom', message: `names more than ${LIMITS.overrideChains} chains; a request uses far fewer`, fatal: true });
        }
        return v;
      }, z.record(z.string(), wsUrls))
      .superRefine((overrides, ctx) => {
        for (const chain of Object.keys(overrides)) {
          const parsed = chainName.safeParse(chain);
          if (!parsed.success) ctx.addIssue({ code: 'custom', path: [chain], message: parsed.error.issues[0].message, params: { kind: 'UnknownChainError' } });
        }
      })
      .check(abortOnIssue)
      .transform((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? [v] : v])) as Partial<Record<TChain, string[]>>),
    z.record(chainName, wsUrls),
  ),
  {
    id: 'ApiOverrides',
    description: `Chain name -> WebSocket URL or URLs (failover order). Loopback and private hosts are refused unless the operator allows them. At most ${LIMITS.overrideChains} chains.`,
    maxProperties: LIMITS.overrideChains,
  },
);

export const accountAddress = z
  .string()
  .min(1, 'must not be empty')
  .max(LIMITS.address, `must be at most ${LIMITS.address} characters`)
  // A refinement runs even after .max failed: it reports an over-long string only once.
  .refine((a) => a.length > LIMITS.address || isValidAddress(a), { message: INVALID_ADDRESS, params: { kind: 'InvalidAddressError' } });
const addressValue = doc(z.union([accountAddress, locationObject], { error: 'must be an address string or a location {parents, interior}' }), {
  id: 'Recipient',
  description: 'An address (SS58, 0x + 32-byte account id, or 0x + 20-byte EVM address; an Ethereum address for Ethereum) or a custom location.',
});
const senderValue = accountAddress;

function optionsObject<E extends z.ZodRawShape>(family: Family, extra: E) {
  const shape = z
    .object({
      development: doc(z.boolean().default(false), { description: 'Use only `apiOverrides` endpoints; a needed chain without one is a 400 `MissingChainApiError`.' }),
      abstractDecimals: doc(z.boolean().default(family === 'v2'), {
        description: family === 'v2' ? 'Amounts in whole-asset units (decimals allowed). **On by default in /v2.**' : 'Amounts in whole-asset units (decimals allowed). Off by default in /v5.',
      }),
      xcmFormatCheck: doc(z.boolean().default(false), { description: 'Dry-run the built call internally to confirm the message passes.' }),
      apiOverrides: apiOverridesSchema.default({}),
      customAssets: customAssetsSchema.optional(),
      ...extra,
    })
    .strict();
  return z.preprocess((v) => v ?? {}, shape);
}

const TRANSFER_OPTIONS = byFamily((family) => doc(optionsObject(family, {}), { id: componentName('TransferOptions', family) }));

/** The `options` object; `extra` adds endpoint-specific options (batch mode, mintFeeAssets). */
export function optionsSchema<E extends z.ZodRawShape>(family: Family, extra: E): ReturnType<typeof optionsObject<E>> {
  return Object.keys(extra).length === 0 ? (TRANSFER_OPTIONS[family] as unknown as ReturnType<typeof optionsObject<E>>) : optionsObject(family, extra);
}

/** Where a transfer goes: a chain, or a custom location. */
export const destination = () => z.union([chainName, locationObject], { error: 'must be a chain name or a location {parents, interior}' });

/** Fields every transfer-shaped body shares, whatever the family. */
const commonFields = {
  from: chainName,
  to: doc(destination(), {
    id: 'Destination',
    description: 'A chain name or a custom location.',
  }),
  currency: transferCurrency,
  ahAddress: doc(accountAddress.optional(), { description: 'Asset-hub address (EVM origins through the asset hub; parachain -> Ethereum).' }),
  feeAsset: feeAssetSchema.optional(),
  xcmVersion: doc(
    z
      .enum(['V3', 'V4', 'V5'], { error: 'must be V3, V4 or V5' })
      .nullable()
      .optional()
      .transform((v) => v ?? undefined),
    {
      description: 'The XCM version to build with (default: the newest both chains speak); `null` is the same as leaving it out.',
    },
  ),
  pallet: doc(
    z.string().max(LIMITS.name, `must be at most ${LIMITS.name} characters`).regex(/^[A-Z][A-Za-z0-9]*$/, 'must be a CamelCase pallet name').optional(),
    { description: 'Custom pallet (with `method`).' },
  ),
  method: doc(
    z.string().max(LIMITS.name, `must be at most ${LIMITS.name} characters`).regex(/^[a-z][a-z0-9_]*$/, 'must be a snake_case method name').optional(),
    { description: 'Custom pallet method (with `pallet`).' },
  ),
  keepAlive: doc(z.boolean(typeError('must be true or false')).optional(), { description: 'Local transfers only (`from` equal to `to`); default true.' }),
};

interface CommonOutput {
  from: TChain;
  to: TChain | TLocation;
  currency: z.output<typeof transferCurrency>;
  ahAddress?: string;
  feeAsset?: TCurrencyCore;
  xcmVersion?: 'V3' | 'V4' | 'V5';
  pallet?: string;
  method?: string;
  keepAlive?: boolean;
  options: TransferOptions;
}

/** Rules across fields, reported at the field a caller has to change. */
function crossFieldRules(body: CommonOutput, recipient: { field: string; value: string | TLocation }, ctx: z.RefinementCtx): void {
  if (typeof body.to === 'string' && typeof recipient.value === 'string') {
    const mismatch = addressMismatch(recipient.value, body.to, sdk.isChainEvm(body.to));
    if (mismatch) ctx.addIssue({ code: 'custom', path: [recipient.field], message: mismatch, params: { kind: 'InvalidAddressError' } });
  }
  if ((body.pallet === undefined) !== (body.method === undefined)) {
    ctx.addIssue({ code: 'custom', path: [body.pallet === undefined ? 'pallet' : 'method'], message: 'pallet and method go together: give both or neither', params: { kind: 'MissingParameterError' } });
  }
  const many = Array.isArray(body.currency);
  const currencies = Array.isArray(body.currency) ? body.currency : [body.currency];
  if (!body.options.abstractDecimals) {
    currencies.forEach((c, i) => {
      if (c.amount.includes('.')) {
        ctx.addIssue({ code: 'custom', path: ['currency', ...(many ? [i] : []), 'amount'], message: 'must be a whole number of base units (or turn on options.abstractDecimals)', params: { kind: 'NumberFormatError' } });
      }
    });
  } else {
    // The first amount that overflows is reported: one is enough to act on.
    currencies.some((c, i) => {
      const { amount, ...selector } = c;
      if (amount === 'ALL' || (typeof selector.location === 'object' && 'type' in selector.location)) return false;
      const problem = scaledAmountProblem(body.from, selector as TCurrencyCore, amount);
      if (problem) ctx.addIssue({ code: 'custom', path: ['currency', ...(many ? [i] : []), 'amount'], message: problem, params: { kind: 'NumberFormatError' } });
      return problem !== undefined;
    });
  }
  if (many && currencies.length > 1 && body.feeAsset === undefined) {
    ctx.addIssue({ code: 'custom', path: ['feeAsset'], message: 'is required when several assets are sent', params: { kind: 'MissingParameterError' } });
  }
  if (body.keepAlive !== undefined && body.from !== body.to) {
    ctx.addIssue({ code: 'custom', path: ['keepAlive'], message: 'applies to local transfers only (from equal to to)', params: { kind: 'ValidationError' } });
  }
}

function toModel(body: CommonOutput, recipient: string | TLocation, sender: string | undefined): TransferRequest {
  return {
    from: body.from,
    to: body.to,
    currency: body.currency as TransferCurrency,
    recipient,
    sender,
    ahAddress: body.ahAddress,
    feeAsset: body.feeAsset,
    xcmVersion: body.xcmVersion,
    pallet: body.pallet !== undefined && body.method !== undefined ? { pallet: body.pallet, method: body.method } : undefined,
    keepAlive: body.keepAlive,
    options: body.options,
  };
}

const U64_MAX = 2n ** 64n - 1n;
const weightPart = z
  .string(typeError('must be a decimal string'))
  .regex(/^\d+$/, 'must be a decimal string of a whole number')
  .refine((v) => !/^\d+$/.test(v) || BigInt(v) <= U64_MAX, 'must fit in 64 bits (at most 18446744073709551615)');

const transactHex = z.string().regex(/^0x([0-9a-fA-F]{2})+$/, 'must be the 0x-prefixed hex of a call (SCALE bytes, an even number of hex digits)');

/** `SuperUser` and `XCM` as the SCALE variants spell them (`Superuser`, `Xcm`), as the ParaSpell XCM API does. */
const ORIGIN_KIND_SPELLINGS = { Superuser: 'SuperUser', Xcm: 'XCM' } as const;

/** A weight part as a decimal string, or as a JSON number that is a safe integer (the ParaSpell XCM API's form). */
const weightValue = z.union([weightPart, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).transform(String)], { error: 'must be a decimal string of a whole number' });

/** The transact payload; `src/service/transfer/transact.ts` builds it. */
export const transactSchema = doc(
  z
    .object({
      hex: doc(transactHex.optional(), {
        description:
          "The call's SCALE bytes (`api.tx.pallet.method(...).method.toHex()` on the destination). It must decode with the destination's metadata; a whole extrinsic is reduced to its call. Required (or its alternative `call`).",
      }),
      call: doc(transactHex.optional(), { description: aliasOf('hex') }),
      originKind: doc(
        z
          .enum(['SovereignAccount', 'XCM', 'Native', 'SuperUser', 'Superuser', 'Xcm'], { error: 'must be SovereignAccount, XCM, Native or SuperUser' })
          .default('SovereignAccount')
          .transform((v) => (v === 'Superuser' || v === 'Xcm' ? ORIGIN_KIND_SPELLINGS[v] : v)),
        { description: 'The Transact origin kind; `SuperUser` and `XCM` are the SCALE variants `Superuser` and `Xcm`, also accepted as spelled there.' },
      ),
      maxWeight: doc(
        z
          .object({
            refTime: doc(weightValue, { description: 'Picoseconds, at most 2^64 - 1: a decimal string, or a JSON number up to 2^53 - 1.' }),
            proofSize: doc(weightValue, { description: 'Bytes, at most 2^64 - 1: a decimal string, or a JSON number up to 2^53 - 1.' }),
          })
          .strict()
          .optional(),
        { description: "V3/V4: require_weight_at_most (default: the destination's estimate). V5: fallback_max_weight (default: none)." },
      ),
    })
    .strict()
    .transform((raw, ctx) => {
      const body = foldAlias(raw, 'hex', 'call', ctx);
      if (body.hex === undefined) ctx.addIssue({ code: 'custom', path: ['hex'], message: 'Required', input: undefined });
      return { hex: body.hex as string, originKind: body.originKind, maxWeight: body.maxWeight };
    }),
  {
    id: 'Transact',
    description:
      'A call to execute on the destination (`transact` in /v5, `transactOptions` in /v2), built by `POST /x-transfer` (see its description for V3/V4 against V5). The sender is required with it. Not accepted inside a batch, and refused by every pre-flight query (400 `ValidationError` at the field: build the transact with `/x-transfer`, then dry-run that call on the chain).',
  },
);

/** Transact runs the call as the sender's location: the sender is required with it. */
function transactNeedsSender(b: { transact?: unknown; sender?: string }, fields: { sender: string; transact: string }, ctx: z.RefinementCtx): void {
  if (b.transact !== undefined && b.sender === undefined) {
    ctx.addIssue({ code: 'custom', path: [fields.sender], message: `is required with ${fields.transact}`, params: { kind: 'MissingParameterError' } });
  }
}

export interface TransferBodyOptions<E extends z.ZodRawShape> {
  /** Whether the sender address is required (pre-flight) or optional (building). */
  senderRequired: boolean;
  /** Extra `options` fields this endpoint accepts. */
  options?: E;
}

const senderWords = (family: Family, required: boolean): string =>
  required
    ? 'Sender address on the origin.'
    : `Optional, recommended for chain-to-chain (used when the origin is the asset hub with a \`feeAsset\`, or the destination is the asset hub). Required with \`${FAMILY_FIELDS[family].transact}\`.`;

/** The fields of a transfer-shaped body under the family's names, before any rule across fields. */
export function transferFields<E extends z.ZodRawShape = Record<never, never>>(family: Family, { senderRequired, options }: TransferBodyOptions<E>) {
  const f = FAMILY_FIELDS[family];
  const sender = doc(senderRequired ? senderValue : senderValue.optional(), { description: senderWords(family, senderRequired) });
  const familyFields: z.ZodRawShape = { [f.recipient]: addressValue, [f.sender]: sender, [f.transact]: transactSchema.optional() };
  return z.object({ ...commonFields, options: optionsSchema(family, options ?? ({} as E)), ...familyFields }).strict();
}

export type TransferBody<E extends z.ZodRawShape> = TransferRequest & {
  transact?: z.output<typeof transactSchema>;
  /** The options object as parsed, with the endpoint's own options. */
  extraOptions: z.output<ReturnType<typeof optionsObject<E>>>;
};

/** A transfer-shaped body under the family's field names, translated into the internal model. */
export function transferBody<E extends z.ZodRawShape = Record<never, never>>(family: Family, bodyOptions: TransferBodyOptions<E>) {
  const f = FAMILY_FIELDS[family];
  type Parsed = CommonOutput & Record<string, unknown>;
  const recipientOf = (b: Parsed) => b[f.recipient] as string | TLocation;
  const senderOf = (b: Parsed) => b[f.sender] as string | undefined;
  const transactOf = (b: Parsed) => b[f.transact] as z.output<typeof transactSchema> | undefined;
  return transferFields(family, bodyOptions)
    .superRefine((b, ctx) => crossFieldRules(b as Parsed, { field: f.recipient, value: recipientOf(b as Parsed) }, ctx))
    .superRefine((b, ctx) => transactNeedsSender({ transact: transactOf(b as Parsed), sender: senderOf(b as Parsed) }, f, ctx))
    .check(abortOnIssue)
    .transform((raw): TransferBody<E> => {
      const b = raw as Parsed;
      return { ...toModel(b, recipientOf(b), senderOf(b)), transact: transactOf(b), extraOptions: b.options as TransferBody<E>['extraOptions'] };
    });
}
