import { z } from 'zod';
import type { TChain, TLocation, TSubstrateChain } from '@paraspell/sdk-pjs';
import { byFamily, componentName, type Family } from './family';
import { sdk, SDK_VERSION } from '../sdk';
import { addressMismatch, EVM_ADDRESS, INVALID_ADDRESS, isEvmAddress, isValidAddress } from './address';
import { amountSchema } from './amount';
import { boundedArray, LIMITS, quoted } from './limits';
import { abortOnIssue, typeError } from './zod-rules';
import { assetId, chainName, location, SELECTORS, substrateChainName, symbolText } from './common';
import { doc, documentedAs, exactlyOne } from './docs';
import { nearest } from './suggest';
import { apiOverridesSchema, type TransferOptions } from './transfer';

/**
 * Router bodies (openapi.yaml: the /router operations; `POST /x-transfers` is in ./swap-transfer.ts).
 * xcm-router SDK_VERSION validates almost nothing itself (bad names, currencies and amounts end in plain
 * TypeErrors), so every rule of the contract's router table is checked here, before the router is
 * even loaded.
 */

/**
 * The exchanges of xcm-router SDK_VERSION (its EXCHANGE_CHAINS). Written out here so that validating
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

/** The chain names ParaSpell's XCM API 14 gives exchanges (`Hydration`), each for its `<Chain>Dex`. */
const EXCHANGE_BY_CHAIN = new Map<string, ExchangeName>(EXCHANGE_NAMES.map((name) => [exchangeBaseChain(name), name]));

export const exchangeName = doc(
  z
    .string(typeError('must be an exchange name (string)'))
    .superRefine((v, ctx) => {
      if (EXCHANGE_SET.has(v) || EXCHANGE_BY_CHAIN.has(v)) return;
      const hint = v === '' ? '' : ` (did you mean ${nearest(v, EXCHANGE_NAMES, 2).map((n) => `'${n}'`).join(' or ')}?)`;
      issue(ctx, [], `unknown exchange ${quoted(v)}${hint}; valid exchanges: ${EXCHANGE_NAMES.join(', ')}`, 'UnknownExchangeError');
    })
    .check(abortOnIssue)
    .transform((v) => EXCHANGE_BY_CHAIN.get(v) ?? (v as ExchangeName)),
  {
    id: 'ExchangeName',
    description: `An exchange of xcm-router ${SDK_VERSION}, named \`<Chain>Dex\`; the chain's own name (\`Hydration\` for \`HydrationDex\`, as the ParaSpell XCM API 14 names exchanges) is accepted as an alias, and answers use the \`<Chain>Dex\` name. Any other name is a 400 \`UnknownExchangeError\`.`,
    enum: [...EXCHANGE_NAMES, ...EXCHANGE_BY_CHAIN.keys()],
  },
);

/**
 * Exchange selection. Absent: automatic (best price of all); several: whitelist (best price among
 * them); one value, as a string or a one-element array: manual. Normalized to a de-duplicated list.
 */
export const exchangeSelection = doc(
  z
    .union([exchangeName, boundedArray(z.array(exchangeName).min(1, 'must list at least one exchange (leave exchange out for automatic selection)'), LIMITS.exchanges, `must list at most ${LIMITS.exchanges} exchanges`)], {
      error: (issue) => (issue.code === 'invalid_union' ? 'must be an exchange name or an array of exchange names' : undefined),
    })
    .check(abortOnIssue)
    .transform((v): ExchangeName[] => (typeof v === 'string' ? [v] : [...new Set(v)])),
  {
    id: 'ExchangeSelection',
    description: 'Absent = automatic (best price of all). Array of several = whitelist. One value (string or one-element array) = manual. Duplicates are ignored.',
  },
).optional();

export type ExchangeSelection = z.output<typeof exchangeSelection>;

/**
 * The exchange selection of the lookups (pairs, supported assets), where a whitelist is a set:
 * put in the registry's order, so that every ordering of the same exchanges is one cache entry
 * and one computation.
 */
export const exchangeSet = exchangeSelection.transform((v) => v && EXCHANGE_NAMES.filter((name) => v.includes(name)));

/** Manual selection (exactly one exchange) respects apiOverrides; automatic and whitelists do not. */
export const isManual = (exchange: ExchangeSelection): exchange is [ExchangeName] => exchange !== undefined && exchange.length === 1;

/** The router's currency: location (JSON or its text), id or a basic symbol; nothing else (contract rule 4). */
export type RouterCurrency = { location: TLocation } | { id: string | number | bigint } | { symbol: string };

/** A symbol with a preference (the ParaSpell XCM API's form), read on a chain's registry before the router sees it. */
type SymbolPreference = { type: 'Native' | 'Foreign' | 'ForeignAbstract'; value: string };
/** What a swap body names: a router selector, or a symbol with a preference still to be read. */
export type RouterCurrencyInput = RouterCurrency | { symbol: SymbolPreference };

export const symbolPreference = z.object({ type: z.enum(['Native', 'Foreign', 'ForeignAbstract']), value: symbolText }).strict();

export const routerCurrency = doc(
  z
    .object(
      {
        location: location.optional(),
        id: assetId.optional(),
        // Any value is taken, so that the refinement below names what the router refuses.
        symbol: documentedAs(z.unknown(), doc(z.union([symbolText, symbolPreference]), { description: 'A plain symbol, or `{type, value}` with `Native`, `Foreign` or `ForeignAbstract` (read on the chain\'s registry first).' })).optional(),
      },
      typeError('must be a currency object {location} | {id} | {symbol}'),
    )
    .strict()
    .superRefine((v, ctx) => {
      const count = [v.location, v.id, v.symbol].filter((x) => x !== undefined).length;
      if (count !== 1) issue(ctx, [], 'must carry exactly one of location, id or symbol', 'InvalidCurrencyError');
      if (v.symbol !== undefined && typeof v.symbol !== 'string') {
        if (!symbolPreference.safeParse(v.symbol).success) {
          issue(ctx, ['symbol'], 'must be a symbol string, or {type, value} with type Native, Foreign or ForeignAbstract', 'InvalidCurrencyError');
        }
      } else if (v.symbol === '') issue(ctx, ['symbol'], 'must not be empty', 'InvalidCurrencyError');
      else if (typeof v.symbol === 'string' && v.symbol.length > LIMITS.symbol) issue(ctx, ['symbol'], `must be at most ${LIMITS.symbol} characters`, 'InvalidCurrencyError');
    })
    .check(abortOnIssue)
    .transform((v): RouterCurrencyInput => {
      if (v.location !== undefined) return { location: v.location };
      if (v.id !== undefined) return { id: v.id };
      return typeof v.symbol === 'string' ? { symbol: v.symbol } : { symbol: v.symbol as SymbolPreference };
    }),
  {
    id: 'RouterCurrency',
    description:
      'One asset by exactly one of `location` (JSON or its JSON text), `id`, or `symbol`. A symbol with a preference (`{"type": "Native" | "Foreign" | "ForeignAbstract", "value": ...}`) is read on the registry of the chain it is on (the origin for what is sent; the chosen exchange, else the destination, for what is received) and handed to the router as that asset\'s location. Override and multi-asset arrays are refused (400 `InvalidCurrencyError`). The id form needs a manual exchange.',
    ...exactlyOne(SELECTORS),
  },
);

const AMOUNT = /^(\d+)(\.\d+)?$/;

/** An amount as the contract writes it (a string); a JSON number is taken as its decimal text. */
export const amountText = doc(amountSchema({ positive: true, typeMessage: 'must be an amount string, e.g. "10000000000"' }), {
  id: 'RouterAmount',
  description:
    'Amount to send. Base units (whole number) unless options.abstractDecimals, then a decimal in whole-asset units. Must be greater than 0 and at most 2^128-1; ASCII digits, no spaces or exponents, leading zeros dropped. A JSON number is taken as its decimal text when it is a safe integer or a decimal without an exponent.',
});

// ---- addresses --------------------------------------------------------------------------

export const address = doc(
  z
    .string(typeError('must be an address string'))
    .min(1, 'must not be empty')
    .max(LIMITS.address, `must be at most ${LIMITS.address} characters`)
    .refine((a) => a.length > LIMITS.address || isValidAddress(a), { message: INVALID_ADDRESS, params: { kind: 'InvalidAddressError' } }),
  {
    id: 'RouterAddress',
    description: 'SS58, 0x + 32-byte account id, or 0x + 20-byte EVM address (EVM destinations need an EVM recipient; the sender must be a Substrate address).',
  },
);

// ---- options ----------------------------------------------------------------------------

export type RouterOptions = Pick<TransferOptions, 'development' | 'abstractDecimals' | 'apiOverrides'>;

const ROUTER_OPTIONS = byFamily((family) =>
  doc(
    z.preprocess(
      (v, ctx) => {
        // Named, not just unknown: a client moving from upstream sends it on every operation.
        if (typeof v === 'object' && v !== null && 'customAssets' in v) {
          ctx.addIssue({ code: 'custom', path: ['customAssets'], message: 'is not accepted by the router: it swaps and prices only the assets of its own registry', params: { kind: 'UnsupportedOperationError' }, fatal: true });
        }
        return v ?? {};
      },
      z
        .object({
          development: z.boolean(typeError('must be true or false')).default(false),
          abstractDecimals: z.boolean(typeError('must be true or false')).default(family === 'v2'),
          apiOverrides: apiOverridesSchema.default({}),
        })
        .strict(),
    ),
    {
      id: componentName('RouterOptions', family),
      description: 'The router accepts only these options. abstractDecimals defaults to false in /v5 and true in /v2.',
    },
  ),
);

/** The router takes abstractDecimals, development and apiOverrides only (contract: API options). */
export const routerOptionsSchema = (family: Family) => ROUTER_OPTIONS[family];

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

const slippageText = doc(
  z
    .union([z.string().trim(), z.number().transform(String)], { error: 'must be a percentage, e.g. "1"' })
    .refine((v) => /^\d+(\.\d+)?$/.test(v) && Number(v) > 0 && Number(v) <= 100, 'must be a percentage above 0 and at most 100'),
  {
    id: 'SlippagePct',
    description: 'Maximum slippage, percent, above 0 and at most 100.',
    anyOf: [{ type: 'string', pattern: '^\\d+(\\.\\d+)?$' }, { type: 'number', exclusiveMinimum: 0, maximum: 100 }],
  },
);

const opt = <T extends z.ZodTypeAny>(schema: T, need: Need) => (need === 'required' ? schema : schema.optional());

/** What every router body shares: the request without the operation-specific slippage. */
/** A router request as a body names it: its currencies may still be symbols with a preference. */
export type RouterRequestInput = Omit<RouterRequest, 'currencyFrom' | 'currencyTo'> & { currencyFrom: RouterCurrencyInput; currencyTo: RouterCurrencyInput };

type Shared = Omit<RouterRequestInput, 'slippagePct'>;

/** Where each router field sits in the caller's body (router bodies, /x-transfers, pre-flight swapOptions). */
export interface SwapFieldNames {
  amount: string[];
  recipient: string[];
  sender: string[];
  evmSender: string[];
  currencyFrom: string[];
  currencyTo: string[];
}

/** Where the router bodies' own fields sit. */
const ROUTER_FIELD_NAMES: SwapFieldNames = {
  amount: ['amount'],
  recipient: ['recipientAddress'],
  sender: ['senderAddress'],
  evmSender: ['evmSenderAddress'],
  currencyFrom: ['currencyFrom'],
  currencyTo: ['currencyTo'],
};

/**
 * The request the router sees: a symbol with a preference is read on the registry of the chain it
 * is on (what is sent on the origin, or the chosen exchange's chain when there is no origin; what
 * is received on the chosen exchange's chain, else the destination) and becomes that asset's
 * location (its symbol when the registry has no location). The router itself takes no preference.
 */
export function resolvePreferences(r: RouterRequestInput, ctx: z.RefinementCtx, names: SwapFieldNames): RouterRequest {
  const exchangeChain = isManual(r.exchange) ? exchangeBaseChain(r.exchange[0]) : undefined;
  const read = (currency: RouterCurrencyInput, chain: TChain | undefined, path: string[], where: string): RouterCurrency => {
    if (!('symbol' in currency) || typeof currency.symbol === 'string') return currency as RouterCurrency;
    const named = `{"type":"${currency.symbol.type}","value":${JSON.stringify(currency.symbol.value)}}`;
    if (chain === undefined) {
      issue(ctx, [...path, 'symbol'], `${named} is read on ${where}: choose one exchange (or name the destination), or give a plain symbol or a location`, 'InvalidCurrencyError');
      return currency as RouterCurrency;
    }
    let asset: ReturnType<typeof sdk.findAssetInfo> = null;
    try {
      asset = sdk.findAssetInfo(chain, { symbol: currency.symbol } as Parameters<typeof sdk.findAssetInfo>[1], null);
    } catch (error) {
      // The SDK throws for a preference several assets meet (DuplicateAssetError) and for one it cannot read.
      const several = error instanceof Error && /Duplicate/.test(error.name + error.constructor.name);
      issue(ctx, [...path, 'symbol'], several ? `${named} names several assets of ${chain}; give the asset's location (GET /assets/${chain} lists them)` : `${named} names no asset of ${chain}`, several ? 'AmbiguousAssetError' : 'InvalidCurrencyError');
      return currency as RouterCurrency;
    }
    if (!asset) {
      issue(ctx, [...path, 'symbol'], `${named} names no asset of ${chain}`, 'InvalidCurrencyError');
      return currency as RouterCurrency;
    }
    return asset.location ? { location: asset.location } : { symbol: asset.symbol };
  };
  const receiving = exchangeChain ?? (r.to !== 'Ethereum' ? r.to : undefined);
  return {
    ...r,
    currencyFrom: read(r.currencyFrom, r.from ?? exchangeChain, names.currencyFrom, 'the origin'),
    currencyTo: read(r.currencyTo, receiving, names.currencyTo, 'the chosen exchange or the destination'),
  };
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

export const evmSenderValue = doc(z.string(typeError('must be a 20-byte EVM address (0x...)')), { pattern: EVM_ADDRESS.source });

/** A router body for one operation, under the family's defaults, translated into RouterRequest. */
export function routerBody(family: Family, operation: RouterOperation) {
  const rules = ROUTER_RULES[operation];
  const measured = rules.senderAddress === 'optional' && rules.recipientAddress === 'required';
  return z
    .object({
      from: doc(substrateChainName.optional(), { description: 'Origin (a Substrate chain). Optional only with a manual exchange.' }),
      to: opt(chainName, rules.to),
      exchange: exchangeSelection,
      currencyFrom: routerCurrency,
      currencyTo: routerCurrency,
      amount: amountText,
      slippagePct: rules.slippagePct === 'required' ? slippageText : doc(slippageText.optional(), { description: 'Default 1.' }),
      recipientAddress: opt(address, rules.recipientAddress),
      senderAddress: measured ? doc(address.optional(), { description: 'The account measured; defaults to recipientAddress.' }) : opt(address, rules.senderAddress),
      // The contract's table calls it evmInjectorAddress, its examples evmSenderAddress: both are taken.
      evmSenderAddress: doc(evmSenderValue.optional(), { description: 'Required for an EVM origin.' }),
      evmInjectorAddress: doc(evmSenderValue.optional(), { description: "The contract table's name for evmSenderAddress; give one of the two." }),
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
    .transform((b, ctx): RouterRequest =>
      resolvePreferences(
        {
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
        },
        ctx,
        ROUTER_FIELD_NAMES,
      ),
    );
}

/** `POST /router/pairs`: an optional exchange (string, array, or absent for all). */
export const pairsBody = z.preprocess((v) => v ?? {}, z.object({ exchange: exchangeSet }).strict());
