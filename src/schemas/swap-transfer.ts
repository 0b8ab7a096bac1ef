import { z } from 'zod';
import type { TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import { assetId, chainName, location, SELECTORS, substrateChainName, symbolText } from './common';
import { doc, documentedAs, exactlyOne } from './docs';
import { FAMILY_FIELDS, type Family } from './family';
import {
  address,
  amountText,
  crossFieldRules,
  evmSenderValue,
  exchangeSelection,
  routerCurrency,
  routerOptionsSchema,
  type RouterOptions,
  resolvePreferences,
  symbolPreference,
  type RouterRequestInput,
  type SwapFieldNames,
} from './router';
import { abortOnIssue, typeError } from './zod-rules';

// Swaps that come with a transfer: `POST /x-transfers` (the swap transfer) and the `swapOptions`
// of pre-flight bodies. Both are priced and built by the router, as one RouterRequest.

/** `swapOptions` of the contract: currencyTo, exchange (absent: automatic, several: whitelist, one: manual), slippage (default 1), evmSenderAddress. */
export const swapOptionsSchema = doc(
  z
    .object(
      {
        currencyTo: routerCurrency,
        exchange: exchangeSelection,
        slippage: doc(z.number(typeError('must be a number (percent)')).gt(0, 'must be above 0').max(100, 'must be at most 100').default(1), { description: 'Percent.' }),
        evmSenderAddress: doc(evmSenderValue.optional(), { description: 'For an EVM origin chain.' }),
      },
      typeError('must be an object {currencyTo, exchange?, slippage?, evmSenderAddress?}', 'is required'),
    )
    .strict(),
  { id: 'SwapOptions', description: 'The swap before the transfer: what to receive, where to swap (as `exchange` of the router), the slippage.' },
);

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
const swapCurrencyParser = z.unknown().transform((v, ctx) => {
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
const swapCurrency = doc(
  documentedAs(
    swapCurrencyParser,
    z.object({ location: location.optional(), id: assetId.optional(), symbol: doc(z.union([symbolText, symbolPreference]), { description: 'A plain symbol, or `{type, value}` with `Native`, `Foreign` or `ForeignAbstract` (read on the origin\'s registry first).' }).optional(), amount: amountText }).strict(),
  ),
  { id: 'SwapCurrency', description: 'One asset (exactly one of location, id or symbol) with its amount.', ...exactlyOne(SELECTORS) },
);

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
  const toRequest = (b: z.output<typeof body>): RouterRequestInput => {
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
    .transform((b, ctx) => resolvePreferences(toRequest(b), ctx, SWAP_FIELD_NAMES(family)));
}
