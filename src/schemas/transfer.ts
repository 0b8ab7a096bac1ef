import { z } from 'zod';
import type { TChain, TCurrencyCore, TLocation } from '@paraspell/sdk-pjs';
import { FAMILY_FIELDS, type Family } from './family';
import { sdk } from '../sdk';
import { addressMismatch, INVALID_ADDRESS, isValidAddress } from './address';
import { amountSchema } from './amount';
import { scaledAmountProblem } from './amount-scale';
import { assetId, chainName, location, locationObject, symbolSpecifier, transformIssue } from './common';
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
const amountValue = amountSchema({ positive: true, all: true, typeMessage: 'must be a number, a numeric string or ALL' });

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

const overrideObject = z.object({ type: z.literal('Override'), value: locationObject }).strict();

const selectorFields = {
  // Plain locations are the common case: the Override object is tried last.
  location: z.union([overrideString, location, overrideObject]).optional(),
  id: assetId.optional(),
  symbol: symbolSpecifier.optional(),
};

function checkOneSelector(v: { location?: unknown; id?: unknown; symbol?: unknown }, ctx: z.RefinementCtx): void {
  const count = [v.location, v.id, v.symbol].filter((x) => x !== undefined).length;
  if (count !== 1) issue(ctx, 'must carry exactly one of location, id or symbol', 'InvalidCurrencyError');
}

const singleCurrency = z
  .object({ ...selectorFields, amount: amountValue })
  .strict()
  .superRefine(checkOneSelector);

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

export const transferCurrency = z.union([multiCurrency, singleCurrency], { error: 'must be a currency object {symbol|id|location, amount} or an array of them' });

/** Fee asset: one selector, no amount. */
export const feeAssetSchema = z
  .object({ location: location.optional(), id: assetId.optional(), symbol: symbolSpecifier.optional() })
  .strict()
  .superRefine(checkOneSelector)
  .check(abortOnIssue)
  .transform((v): TCurrencyCore => (v.location !== undefined ? { location: v.location } : v.id !== undefined ? { id: v.id } : { symbol: v.symbol! }));

const wsUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .url('must be a URL')
  .refine((u) => /^wss?:\/\//i.test(u), 'must be a ws:// or wss:// URL');

/** Counted before anything else is checked, so that a flood of keys costs nothing. */
const overrideChainCount = z.unknown().superRefine((v, ctx) => {
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length > LIMITS.overrideChains) {
    ctx.addIssue({ code: 'custom', message: `names more than ${LIMITS.overrideChains} chains; a request uses far fewer`, fatal: true });
  }
});

export const apiOverridesSchema = overrideChainCount
  .pipe(z.record(z.string(), z.union([wsUrl, z.array(wsUrl).min(1, 'must list at least one URL')])))
  .superRefine((overrides, ctx) => {
    for (const chain of Object.keys(overrides)) {
      const parsed = chainName.safeParse(chain);
      if (!parsed.success) ctx.addIssue({ code: 'custom', path: [chain], message: parsed.error.issues[0].message, params: { kind: 'UnknownChainError' } });
    }
  })
  .check(abortOnIssue)
  .transform((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? [v] : v])) as Partial<Record<TChain, string[]>>);

const accountAddress = z
  .string()
  .min(1, 'must not be empty')
  .max(LIMITS.address, `must be at most ${LIMITS.address} characters`)
  // A refinement runs even after .max failed: it reports an over-long string only once.
  .refine((a) => a.length > LIMITS.address || isValidAddress(a), { message: INVALID_ADDRESS, params: { kind: 'InvalidAddressError' } });
const addressValue = z.union([accountAddress, locationObject], { error: 'must be an address string or a location {parents, interior}' });
const senderValue = accountAddress;

/** The `options` object; `extra` adds endpoint-specific options (batch mode, mintFeeAssets). */
export function optionsSchema<E extends z.ZodRawShape>(family: Family, extra: E) {
  const shape = z
    .object({
      development: z.boolean().default(false),
      abstractDecimals: z.boolean().default(family === 'v2'),
      xcmFormatCheck: z.boolean().default(false),
      apiOverrides: apiOverridesSchema.default({}),
      ...extra,
    })
    .strict();
  return z.preprocess((v) => v ?? {}, shape);
}

/** Fields every transfer-shaped body shares, whatever the family. */
const commonFields = {
  from: chainName,
  to: z.union([chainName, locationObject], { error: 'must be a chain name or a location {parents, interior}' }),
  currency: transferCurrency,
  ahAddress: accountAddress.optional(),
  feeAsset: feeAssetSchema.optional(),
  xcmVersion: z.enum(['V3', 'V4', 'V5'], { error: 'must be V3, V4 or V5' }).optional(),
  pallet: z.string().max(LIMITS.name, `must be at most ${LIMITS.name} characters`).regex(/^[A-Z][A-Za-z0-9]*$/, 'must be a CamelCase pallet name').optional(),
  method: z.string().max(LIMITS.name, `must be at most ${LIMITS.name} characters`).regex(/^[a-z][a-z0-9_]*$/, 'must be a snake_case method name').optional(),
  keepAlive: z.boolean(typeError('must be true or false')).optional(),
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

/** The transact payload; `src/service/transact.ts` builds it. */
export const transactSchema = z
  .object({
    hex: z.string().regex(/^0x([0-9a-fA-F]{2})+$/, 'must be the 0x-prefixed hex of a call (SCALE bytes, an even number of hex digits)'),
    originKind: z
      .enum(['SovereignAccount', 'XCM', 'Native', 'SuperUser'], { error: 'must be SovereignAccount, XCM, Native or SuperUser' })
      .default('SovereignAccount'),
    maxWeight: z.object({ refTime: weightPart, proofSize: weightPart }).strict().optional(),
  })
  .strict();

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

/** A transfer-shaped body under the family's field names, translated into the internal model. */
export function transferBody<E extends z.ZodRawShape = Record<never, never>>(family: Family, { senderRequired, options }: TransferBodyOptions<E>) {
  const opts = optionsSchema(family, options ?? ({} as E));
  const sender = senderRequired ? senderValue : senderValue.optional();
  const common = z.object({ ...commonFields, options: opts });
  if (family === 'v5') {
    return common
      .extend({ address: addressValue, senderAddress: sender, transact: transactSchema.optional() })
      .strict()
      .superRefine((b, ctx) => crossFieldRules(b as CommonOutput, { field: 'address', value: b.address }, ctx))
      .superRefine((b, ctx) => transactNeedsSender({ transact: b.transact, sender: b.senderAddress }, FAMILY_FIELDS.v5, ctx))
      .check(abortOnIssue)
      .transform((b) => ({ ...toModel(b as CommonOutput, b.address, b.senderAddress), transact: b.transact, extraOptions: b.options }));
  }
  return common
    .extend({ recipient: addressValue, sender, transactOptions: transactSchema.optional() })
    .strict()
    .superRefine((b, ctx) => crossFieldRules(b as CommonOutput, { field: 'recipient', value: b.recipient }, ctx))
    .superRefine((b, ctx) => transactNeedsSender({ transact: b.transactOptions, sender: b.sender }, FAMILY_FIELDS.v2, ctx))
    .check(abortOnIssue)
    .transform((b) => ({ ...toModel(b as CommonOutput, b.recipient, b.sender), transact: b.transactOptions, extraOptions: b.options }));
}
