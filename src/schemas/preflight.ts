import { z } from 'zod';
import type { TChain, TCurrencyCore } from '@paraspell/sdk-pjs';
import type { Family } from '../http/context';
import { sdk } from '../sdk';
import { chainName, lookupCurrency } from './common';
import { apiOverridesSchema, FAMILY_FIELDS, transferBody, type TransferRequest } from './transfer';
import { LIMITS } from './limits';

/**
 * Pre-flight bodies: the family's transfer fields (sender required) plus per-endpoint extras.
 * Everything is translated into the family-neutral `PreflightRequest`.
 */

const CHAIN_SET = new Set<string>(sdk.CHAINS);

/** The contract names exchanges `<ChainName>Dex`; the chain part must be a chain we know. */
const exchangeName = z.string().refine((v) => v.endsWith('Dex') && CHAIN_SET.has(v.slice(0, -3)), {
  message: 'must be an exchange name of the form <ChainName>Dex, e.g. HydrationDex',
  params: { kind: 'ValidationError' },
});

export interface SwapOptions {
  currencyTo: TCurrencyCore;
  /** Absent: automatic; several: whitelist; one: manual. Always an array here. */
  exchange?: string[];
  slippage: number;
  evmSenderAddress?: string;
}

export const swapOptionsSchema = z
  .object({
    currencyTo: lookupCurrency,
    exchange: z
      .union([exchangeName, z.array(exchangeName).min(1, 'must list at least one exchange')])
      .transform((v) => (typeof v === 'string' ? [v] : [...new Set(v)]))
      .optional(),
    slippage: z.number({ invalid_type_error: 'must be a number (percent)' }).gt(0, 'must be above 0').max(100, 'must be at most 100').default(1),
    evmSenderAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 20-byte hex EVM address').optional(),
  })
  .strict();

/** The contract writes the flag as the string `True`; JSON booleans are accepted too. */
const fallbackMessage = { errorMap: () => ({ message: 'must be true, false, "True" or "False"' }) };
export const disableFallbackSchema = z
  .union([z.boolean(), z.enum(['True', 'False'], fallbackMessage)], fallbackMessage)
  .transform((v) => v === true || v === 'True');

export interface PreflightRequest extends TransferRequest {
  to: TChain;
  recipient: string;
  sender: string;
  swapOptions?: SwapOptions;
}

interface Extras {
  swapOptions?: SwapOptions;
  disableFallback?: boolean;
}

/** Fields of a transfer body that pre-flight queries do not take (11.x cannot dry-run a transact; keepAlive is local-build only). */
const notForPreflight = (family: Family): string[] => [FAMILY_FIELDS[family].transact, 'keepAlive'];

/**
 * Splits a raw body into the endpoint's extra fields and the transfer fields, validates each with
 * its own schema (transferBody stays strict, so anything else is still an unknown field), and
 * reports every issue at its own path.
 */
function preflightBody<E extends z.ZodRawShape, O extends z.ZodRawShape>(family: Family, extras: E, options?: O) {
  const base = transferBody(family, { senderRequired: true, options });
  const extraSchema = z.object(extras);
  const extraKeys = Object.keys(extras);
  const fields = FAMILY_FIELDS[family];
  return z.unknown().transform((raw, ctx) => {
    const isObject = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
    const entries = isObject ? Object.entries(raw) : [];
    const rest = isObject ? Object.fromEntries(entries.filter(([k]) => !extraKeys.includes(k) && !notForPreflight(family).includes(k))) : raw;
    const refused = entries.map(([k]) => k).filter((k) => notForPreflight(family).includes(k));
    if (refused.length > 0) ctx.addIssue({ code: 'unrecognized_keys', keys: refused, message: 'not accepted by pre-flight queries' });
    const extra = extraSchema.safeParse(Object.fromEntries(entries.filter(([k]) => extraKeys.includes(k))));
    const body = base.safeParse(rest);
    for (const issue of [...(body.success ? [] : body.error.issues), ...(extra.success ? [] : extra.error.issues)]) ctx.addIssue(issue);
    if (!body.success || !extra.success) return z.NEVER;
    const b = body.data;
    // The SDK's pre-flight queries need a chain name and a plain address (assertToIsString / assertAddressIsString).
    if (typeof b.to !== 'string') ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be a chain name for pre-flight queries', params: { kind: 'ValidationError' } });
    if (typeof b.recipient !== 'string') ctx.addIssue({ code: 'custom', path: [fields.recipient], message: 'must be an address string for pre-flight queries', params: { kind: 'InvalidAddressError' } });
    if (typeof b.to !== 'string' || typeof b.recipient !== 'string' || b.sender === undefined) return z.NEVER;
    const { transact: _t, extraOptions, ...request } = b;
    const out = { ...request, to: b.to, recipient: b.recipient, sender: b.sender, ...(extra.data as Extras) };
    return { request: out as PreflightRequest & Extras, extraOptions: extraOptions as Record<string, unknown> };
  });
}

const swap = { swapOptions: swapOptionsSchema.optional() };
const fallback = { disableFallback: disableFallbackSchema.optional() };

export function preflightSchemas(family: Family) {
  return {
    dryRun: preflightBody(family, swap),
    dryRunPreview: preflightBody(family, {}, { mintFeeAssets: z.boolean({ invalid_type_error: 'must be true or false' }).default(false) }),
    xcmFee: preflightBody(family, { ...swap, ...fallback }),
    originXcmFee: preflightBody(family, fallback),
    transferInfo: preflightBody(family, {}),
    transferableAmount: preflightBody(family, swap),
    minTransferableAmount: preflightBody(family, swap),
    receivableAmount: preflightBody(family, {}),
    verifyEdOnDestination: preflightBody(family, {}),
    bestAmountOut: preflightBody(family, { swapOptions: swapOptionsSchema }),
  };
}

// ---- balance ----------------------------------------------------------------------------

/** Not in the contract for balance; accepted so a caller (and the tests) can pick the endpoint. */
export const balanceOptionsSchema = z
  .object({
    development: z.boolean().default(false),
    apiOverrides: apiOverridesSchema.default({}),
  })
  .strict()
  .default({});

export interface BalanceRequest {
  chain: TChain;
  address: string;
  /** Absent: the chain's native asset. */
  currency?: TCurrencyCore;
  options: z.output<typeof balanceOptionsSchema>;
}

const account = z.string({ invalid_type_error: 'must be an address string' }).min(1, 'must not be empty').max(LIMITS.address, `must be at most ${LIMITS.address} characters`);

export const balanceParams = z.object({ chain: chainName });

/** `/v5`: `address`, optional `currency`; `/v2`: `recipient` and a required `currency`. */
export function balanceBody(family: Family) {
  if (family === 'v5') {
    return z
      .object({ address: account, currency: lookupCurrency.optional(), options: balanceOptionsSchema })
      .strict()
      .transform((b) => ({ address: b.address, currency: b.currency, options: b.options }));
  }
  return z
    .object({ recipient: account, currency: lookupCurrency, options: balanceOptionsSchema })
    .strict()
    .transform((b) => ({ address: b.recipient, currency: b.currency as TCurrencyCore | undefined, options: b.options }));
}
