import { z } from 'zod';
import type { TChain, TLocation, TSubstrateChain } from '@paraspell/sdk-pjs';
import { FAMILY_FIELDS, type Family } from './family';
import { sdk } from '../sdk';
import { addressMismatch, INVALID_ADDRESS, isEvmAddress, isValidAddress } from './address';
import { amountSchema } from './amount';
import { boundedArray, LIMITS, quoted } from './limits';
import { abortOnIssue, typeError } from './zod-rules';
import { assetId, chainName, location, substrateChainName } from './common';
import { nearest } from './suggest';
import { apiOverridesSchema, type TransferOptions } from './transfer';

/**
 * Router bodies (spec "Router (`/v5`)" and `POST /x-transfers`). xcm-router 11.14.8 validates
 * almost nothing itself (bad names, currencies and amounts end in plain TypeErrors), so every rule
 * of the contract's router table is checked here, before the router is even loaded.
 */

/**
 * The exchanges of xcm-router 11.14.8 (its EXCHANGE_CHAINS). Written out here so that validating
 * a body never loads the router (~0.5 s, ~35 MB); a test checks the list against the package.
 */
export const EXCHANGE_NAMES = [
  'AssetHubPolkadotDex',
  'AssetHubKusamaDex',
  'HydrationDex',
  'KaruraDex',
  'AcalaDex',
  'BifrostKusamaDex',
  'BifrostPolkadotDex',
] as const;
export type ExchangeName = (typeof EXCHANGE_NAMES)[number];

/** AcalaDex/KaruraDex dial the registry's public endpoints whatever apiOverrides says (FINDINGS §2). */
export const OVERRIDE_IGNORING_EXCHANGES: readonly ExchangeName[] = ['AcalaDex', 'KaruraDex'];

/** `<Chain>Dex` -> the chain the exchange lives on. */
export const exchangeBaseChain = (exchange: ExchangeName): TSubstrateChain => exchange.slice(0, -'Dex'.length) as TSubstrateChain;

const EXCHANGE_SET = new Set<string>(EXCHANGE_NAMES);

const issue = (ctx: z.RefinementCtx, path: (string | number)[], message: string, kind = 'ValidationError') =>
  ctx.addIssue({ code: 'custom', path, message, params: { kind } });

const exchangeName = z
  .string(typeError('must be an exchange name (string)'))
  .superRefine((v, ctx) => {
    if (EXCHANGE_SET.has(v)) return;
    const hint = v === '' ? '' : ` (did you mean ${nearest(v, EXCHANGE_NAMES, 2).map((n) => `'${n}'`).join(' or ')}?)`;
    issue(ctx, [], `unknown exchange ${quoted(v)}${hint}; valid exchanges: ${EXCHANGE_NAMES.join(', ')}`, 'UnknownExchangeError');
  })
  .check(abortOnIssue)
  .transform((v) => v as ExchangeName);

/**
 * Exchange selection. Absent: automatic (best price of all); several: whitelist (best price among
 * them); one value, as a string or a one-element array: manual. Normalized to a de-duplicated list.
 */
export const exchangeSelection = z
  .union([exchangeName, boundedArray(z.array(exchangeName).min(1, 'must list at least one exchange (leave exchange out for automatic selection)'), LIMITS.exchanges, `must list at most ${LIMITS.exchanges} exchanges`)], {
    error: (issue) => (issue.code === 'invalid_union' ? 'must be an exchange name or an array of exchange names' : undefined),
  })
  .check(abortOnIssue)
  .transform((v): ExchangeName[] => (typeof v === 'string' ? [v] : [...new Set(v)]))
  .optional();

export type ExchangeSelection = z.output<typeof exchangeSelection>;

/** Manual selection (exactly one exchange) respects apiOverrides; automatic and whitelists do not. */
export const isManual = (exchange: ExchangeSelection): exchange is [ExchangeName] => exchange !== undefined && exchange.length === 1;

/** The router's currency: location (JSON or its text), id or a basic symbol; nothing else (contract rule 4). */
export type RouterCurrency = { location: TLocation } | { id: string | number | bigint } | { symbol: string };

export const routerCurrency = z
  .object(
    {
      location: location.optional(),
      id: assetId.optional(),
      symbol: z.unknown().optional(),
    },
    typeError('must be a currency object {location} | {id} | {symbol}'),
  )
  .strict()
  .superRefine((v, ctx) => {
    const count = [v.location, v.id, v.symbol].filter((x) => x !== undefined).length;
    if (count !== 1) issue(ctx, [], 'must carry exactly one of location, id or symbol', 'InvalidCurrencyError');
    if (v.symbol !== undefined && typeof v.symbol !== 'string') {
      issue(ctx, ['symbol'], 'must be a plain symbol string: the router does not accept currency specifiers (Native/Foreign/ForeignAbstract)', 'InvalidCurrencyError');
    } else if (v.symbol === '') issue(ctx, ['symbol'], 'must not be empty', 'InvalidCurrencyError');
    else if (typeof v.symbol === 'string' && v.symbol.length > LIMITS.symbol) issue(ctx, ['symbol'], `must be at most ${LIMITS.symbol} characters`, 'InvalidCurrencyError');
  })
  .check(abortOnIssue)
  .transform((v): RouterCurrency => {
    if (v.location !== undefined) return { location: v.location };
    if (v.id !== undefined) return { id: v.id };
    return { symbol: v.symbol as string };
  });

const AMOUNT = /^(\d+)(\.\d+)?$/;

/** An amount as the contract writes it (a string); a JSON number is taken as its decimal text. */
const amountText = amountSchema({ positive: true, typeMessage: 'must be an amount string, e.g. "10000000000"' });

// ---- addresses --------------------------------------------------------------------------

const address = z
  .string(typeError('must be an address string'))
  .min(1, 'must not be empty')
  .max(LIMITS.address, `must be at most ${LIMITS.address} characters`)
  .refine((a) => a.length > LIMITS.address || isValidAddress(a), { message: INVALID_ADDRESS, params: { kind: 'InvalidAddressError' } });

// ---- options ----------------------------------------------------------------------------

export type RouterOptions = Pick<TransferOptions, 'development' | 'abstractDecimals' | 'apiOverrides'>;

/** The router takes abstractDecimals, development and apiOverrides only (contract: API options). */
export function routerOptionsSchema(family: Family) {
  return z.preprocess(
    (v) => v ?? {},
    z
      .object({
        development: z.boolean(typeError('must be true or false')).default(false),
        abstractDecimals: z.boolean(typeError('must be true or false')).default(family === 'v2'),
        apiOverrides: apiOverridesSchema.default({}),
      })
      .strict(),
  );
}

// ---- the request model ------------------------------------------------------------------

/** The family-neutral router request every router operation (and /x-transfers) is translated into. */
export interface RouterRequest {
  from?: TSubstrateChain;
  to?: TChain;
  /** Absent: automatic; several: whitelist; one: manual. */
  exchange?: ExchangeName[];
  currencyFrom: RouterCurrency;
  currencyTo: RouterCurrency;
  /** Decimal text; whole base units unless options.abstractDecimals. */
  amount: string;
  slippagePct: string;
  recipientAddress?: string;
  senderAddress?: string;
  evmSenderAddress?: string;
  options: RouterOptions;
}

type Need = 'required' | 'optional';

/** One row of the contract's router table. `slippagePct` optional means "default 1". */
export interface RouterFieldRules {
  to: Need;
  slippagePct: Need;
  recipientAddress: Need;
  senderAddress: Need;
}

/** The contract's router table, row by row (`from` is optional everywhere). */
export const ROUTER_RULES = {
  build: { to: 'optional', slippagePct: 'required', recipientAddress: 'required', senderAddress: 'required' },
  dryRun: { to: 'required', slippagePct: 'optional', recipientAddress: 'required', senderAddress: 'required' },
  minTransferableAmount: { to: 'required', slippagePct: 'optional', recipientAddress: 'required', senderAddress: 'optional' },
  transferableAmount: { to: 'required', slippagePct: 'optional', recipientAddress: 'required', senderAddress: 'optional' },
  bestAmountOut: { to: 'required', slippagePct: 'optional', recipientAddress: 'optional', senderAddress: 'optional' },
  xcmFees: { to: 'optional', slippagePct: 'required', recipientAddress: 'required', senderAddress: 'required' },
} as const satisfies Record<string, RouterFieldRules>;

export type RouterOperation = keyof typeof ROUTER_RULES;

const slippageText = z
  .union([z.string().trim(), z.number().transform(String)], { error: 'must be a percentage, e.g. "1"' })
  .refine((v) => /^\d+(\.\d+)?$/.test(v) && Number(v) > 0 && Number(v) <= 100, 'must be a percentage above 0 and at most 100');

const opt = <T extends z.ZodTypeAny>(schema: T, need: Need) => (need === 'required' ? schema : schema.optional());

/** What every router body shares: the request without the operation-specific slippage. */
type Shared = Omit<RouterRequest, 'slippagePct'>;

/** Where each router field sits in the caller's body (router bodies, /x-transfers, pre-flight swapOptions). */
export interface SwapFieldNames {
  amount: string[];
  recipient: string[];
  sender: string[];
  evmSender: string[];
  currencyFrom: string[];
  currencyTo: string[];
}

/**
 * Rules across fields, reported where the caller has to change something. The router would throw
 * some of these itself, but only after it has dialled the origin; others it never checks.
 */
export function crossFieldRules(b: Shared, ctx: z.RefinementCtx, names: SwapFieldNames): void {
  const match = AMOUNT.exec(b.amount);
  if (!match) issue(ctx, names.amount, 'must be a non-negative decimal number, e.g. "10000000000"', 'NumberFormatError');
  else if (match[2] !== undefined && !b.options.abstractDecimals) issue(ctx, names.amount, 'must be a whole number of base units (or turn on options.abstractDecimals)', 'NumberFormatError');
  else if (/^[0.]+$/.test(b.amount)) issue(ctx, names.amount, 'must be greater than 0', 'NumberFormatError');

  const automatic = !isManual(b.exchange);
  if (automatic) {
    // The router picks the exchange by price; an asset id means something only on one chain (contract rule 4).
    if ('id' in b.currencyFrom) issue(ctx, [...names.currencyFrom, 'id'], 'selecting by id needs one manually chosen exchange; use symbol or location with automatic or whitelisted selection', 'InvalidCurrencyError');
    if ('id' in b.currencyTo) issue(ctx, [...names.currencyTo, 'id'], 'selecting by id needs one manually chosen exchange; use symbol or location with automatic or whitelisted selection', 'InvalidCurrencyError');
    if (b.from === undefined) issue(ctx, ['from'], 'is required unless exactly one exchange is chosen (automatic selection starts from the origin chain)', 'MissingParameterError');
  }
  if (b.to !== undefined && b.recipientAddress !== undefined) {
    const mismatch = addressMismatch(b.recipientAddress, b.to, sdk.isChainEvm(b.to));
    if (mismatch) issue(ctx, names.recipient, mismatch, 'InvalidAddressError');
  }
  if (b.senderAddress !== undefined && isEvmAddress(b.senderAddress)) {
    issue(ctx, names.sender, `must be a Substrate address; put an EVM sender in ${names.evmSender.join('.')}`, 'InvalidAddressError');
  }
  if (b.evmSenderAddress !== undefined && !isEvmAddress(b.evmSenderAddress)) issue(ctx, names.evmSender, 'must be a 20-byte EVM address (0x...)', 'InvalidAddressError');
  if (b.from !== undefined && sdk.isChainEvm(b.from) && b.evmSenderAddress === undefined) {
    issue(ctx, names.evmSender, `is required: ${b.from} is an EVM chain`, 'MissingParameterError');
  }
}

const evmSenderValue = z.string(typeError('must be a 20-byte EVM address (0x...)'));

/** A router body for one operation, under the family's defaults, translated into RouterRequest. */
export function routerBody(family: Family, operation: RouterOperation) {
  const rules = ROUTER_RULES[operation];
  return z
    .object({
      from: substrateChainName.optional(),
      to: opt(chainName, rules.to),
      exchange: exchangeSelection,
      currencyFrom: routerCurrency,
      currencyTo: routerCurrency,
      amount: amountText,
      slippagePct: opt(slippageText, rules.slippagePct),
      recipientAddress: opt(address, rules.recipientAddress),
      senderAddress: opt(address, rules.senderAddress),
      // The contract's table calls it evmInjectorAddress, its examples evmSenderAddress: both are taken.
      evmSenderAddress: evmSenderValue.optional(),
      evmInjectorAddress: evmSenderValue.optional(),
      options: routerOptionsSchema(family),
    })
    .strict()
    .superRefine((b, ctx) => {
      if (b.evmSenderAddress !== undefined && b.evmInjectorAddress !== undefined) {
        issue(ctx, ['evmInjectorAddress'], 'is another name for evmSenderAddress: give one of them');
      }
      const shared: Shared = { ...b, evmSenderAddress: b.evmSenderAddress ?? b.evmInjectorAddress };
      const evmName = b.evmInjectorAddress !== undefined ? 'evmInjectorAddress' : 'evmSenderAddress';
      crossFieldRules(shared, ctx, {
        amount: ['amount'],
        recipient: ['recipientAddress'],
        sender: ['senderAddress'],
        evmSender: [evmName],
        currencyFrom: ['currencyFrom'],
        currencyTo: ['currencyTo'],
      });
    })
    .check(abortOnIssue)
    .transform(
      (b): RouterRequest => ({
        from: b.from,
        to: b.to as TChain | undefined,
        exchange: b.exchange,
        currencyFrom: b.currencyFrom,
        currencyTo: b.currencyTo,
        amount: b.amount,
        slippagePct: b.slippagePct ?? '1',
        recipientAddress: b.recipientAddress,
        senderAddress: b.senderAddress,
        evmSenderAddress: b.evmSenderAddress ?? b.evmInjectorAddress,
        options: b.options,
      }),
    );
}

/** `POST /router/pairs`: an optional exchange (string, array, or absent for all). */
export const pairsBody = z.preprocess((v) => v ?? {}, z.object({ exchange: exchangeSelection }).strict());

// ---- POST /x-transfers ------------------------------------------------------------------

/** `swapOptions` of the contract: currencyTo, exchange (absent: automatic, several: whitelist, one: manual), slippage (default 1), evmSenderAddress. */
export const swapOptionsSchema = z
  .object(
    {
      currencyTo: routerCurrency,
      exchange: exchangeSelection,
      slippage: z
        .number(typeError('must be a number (percent)'))
        .gt(0, 'must be above 0')
        .max(100, 'must be at most 100')
        .default(1),
      evmSenderAddress: evmSenderValue.optional(),
    },
    typeError('must be an object {currencyTo, exchange?, slippage?, evmSenderAddress?}', 'is required'),
  )
  .strict();

const SWAP_CURRENCY_FIELDS = new Set(['location', 'id', 'symbol', 'amount']);
const currencyIssue = (ctx: z.RefinementCtx, path: PropertyKey[], message: string, kind = 'InvalidCurrencyError') =>
  ctx.addIssue({ code: 'custom', path, message, params: { kind } });

/** Re-reports what a nested parse found, at the caller's path (union branches collapse into one message). */
export function reportNested(ctx: z.RefinementCtx, at: PropertyKey[], error: z.ZodError, kind: string): void {
  for (const i of error.issues) {
    const message = i.code === 'invalid_union' ? 'must be a location: {parents, interior} or its JSON text' : i.message;
    currencyIssue(ctx, [...at, ...i.path], message, i.code === 'custom' && typeof i.params?.kind === 'string' ? i.params.kind : kind);
  }
}

/** The one currency a swap sends: a router selector plus `amount`. Any malformed currency is an InvalidCurrencyError. */
const swapCurrency = z.unknown().transform((v, ctx) => {
  if (v === undefined) {
    currencyIssue(ctx, [], 'is required', 'MissingParameterError');
    return z.NEVER;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    currencyIssue(ctx, [], 'must be one currency object {location|id|symbol, amount}: a swap sends one asset');
    return z.NEVER;
  }
  const unknown = Object.keys(v).filter((k) => !SWAP_CURRENCY_FIELDS.has(k));
  if (unknown.length > 0) currencyIssue(ctx, [], `has unknown field(s): ${unknown.join(', ')} (a currency is {location|id|symbol, amount})`);
  const { amount: rawAmount, ...selector } = v as Record<string, unknown>;
  const amount = amountText.safeParse(rawAmount);
  if (rawAmount === undefined) currencyIssue(ctx, ['amount'], 'is required', 'MissingParameterError');
  else if (!amount.success) reportNested(ctx, ['amount'], amount.error, 'NumberFormatError');
  const parsed = routerCurrency.safeParse(Object.fromEntries(Object.entries(selector).filter(([, x]) => x !== undefined)));
  if (!parsed.success) reportNested(ctx, [], parsed.error, 'InvalidCurrencyError');
  if (unknown.length > 0 || !amount.success || !parsed.success) return z.NEVER;
  return { selector: parsed.data, amount: amount.data };
});

/** Where the router's fields sit in a swap transfer body (also pre-flight bodies with swapOptions). */
export const SWAP_FIELD_NAMES = (family: Family): SwapFieldNames => ({
  amount: ['currency', 'amount'],
  recipient: [FAMILY_FIELDS[family].recipient],
  sender: [FAMILY_FIELDS[family].sender],
  evmSender: ['swapOptions', 'evmSenderAddress'],
  currencyFrom: ['currency'],
  currencyTo: ['swapOptions', 'currencyTo'],
});

/**
 * The swap transfer: the family's transfer fields (recipient and sender required) plus
 * `swapOptions`. Transfer-only fields (feeAsset, xcmVersion, pallet, ...) are not accepted: the
 * router builds the calls itself and has no place for them.
 */
export function swapTransferBody(family: Family) {
  const f = FAMILY_FIELDS[family];
  const body = z
    .object({
      from: substrateChainName,
      to: chainName,
      currency: swapCurrency,
      [f.recipient]: address,
      [f.sender]: address,
      swapOptions: swapOptionsSchema,
      options: routerOptionsSchema(family),
    })
    .strict();
  // One mapping onto RouterRequest: the cross-field rules check exactly what the router will get.
  const toRequest = (b: z.output<typeof body>): RouterRequest => {
    const swap = b.swapOptions as z.output<typeof swapOptionsSchema>;
    const currency = b.currency as z.output<typeof swapCurrency>;
    return {
      from: b.from as TSubstrateChain,
      to: b.to as TChain,
      exchange: swap.exchange,
      currencyFrom: currency.selector,
      currencyTo: swap.currencyTo,
      amount: currency.amount,
      slippagePct: String(swap.slippage),
      recipientAddress: b[f.recipient] as string,
      senderAddress: b[f.sender] as string,
      evmSenderAddress: swap.evmSenderAddress,
      options: b.options as RouterOptions,
    };
  };
  return body
    .superRefine((b, ctx) => {
      // A field that failed its own schema (reported already) leaves nothing to compare.
      const currency = b.currency as z.output<typeof swapCurrency> | undefined;
      const swap = b.swapOptions as z.output<typeof swapOptionsSchema> | undefined;
      if (currency?.selector === undefined || swap?.currencyTo === undefined) return;
      crossFieldRules(toRequest(b), ctx, SWAP_FIELD_NAMES(family));
    })
    .check(abortOnIssue)
    .transform(toRequest);
}
