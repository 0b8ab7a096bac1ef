import { z } from 'zod';
import type { TChain, TCurrencyCore, TSubstrateChain } from '@paraspell/sdk-pjs';
import { SDK_VERSION } from '../sdk';
import { aliasOf, foldAlias } from './aliases';
import { FAMILY_FIELDS, type Family } from './family';
import { chainOfLocation } from './location-chain';
import { lookupCurrency } from './common';
import { doc, documentedAs } from './docs';
import { crossFieldRules, resolvePreferences, routerCurrency, type RouterRequest, type RouterRequestInput } from './router';
import { reportNested, SWAP_FIELD_NAMES, swapOptionsSchema } from './swap-transfer';
import { accountAddress, apiOverridesSchema, destination, transferBody, transferFields, wsUrls, type TransferRequest } from './transfer';
import { LIMITS } from './limits';
import { customAssetsSchema } from './custom-assets';
import { abortOnIssue, typeError } from './zod-rules';

/**
 * Pre-flight bodies: the family's transfer fields (sender required) plus per-endpoint extras.
 * Everything is translated into the family-neutral `PreflightRequest`.
 */

/** The contract writes the flag as the string `True`; JSON booleans are accepted too. */
const fallbackMessage = { error: 'must be true, false, "True" or "False"' };
export const disableFallbackSchema = doc(
  z.union([z.boolean(), z.enum(['True', 'False'], fallbackMessage)], fallbackMessage).transform((v) => v === true || v === 'True'),
  {
    id: 'DisableFallback',
    description: 'Disables the fallback to payment info. The contract writes `"True"`; booleans and `"False"` are accepted. Default false.',
  },
);

export interface PreflightRequest extends TransferRequest {
  to: TChain;
  recipient: string;
  sender: string;
}

interface Extras {
  swapOptions?: z.output<typeof swapOptionsSchema>;
  disableFallback?: boolean;
}

/** A parsed pre-flight body: the transfer request, or with swapOptions the router request that serves it. */
export interface PreflightBody {
  request: PreflightRequest & { disableFallback?: boolean };
  /** Present when the body carries swapOptions: the swap is priced by the router. */
  swap?: RouterRequest;
  extraOptions: Record<string, unknown>;
}

const unsupported = (ctx: z.RefinementCtx, path: (string | number)[], message: string) =>
  ctx.addIssue({ code: 'custom', path, message, params: { kind: 'UnsupportedOperationError' } });

/**
 * A pre-flight body with swapOptions, as the router request that prices it (the contract's
 * swapOptions rules: exchange absent = automatic, several = whitelist, one = manual; slippage
 * default 1). Fields the router has no place for are refused, not ignored.
 */
function toSwapRequest(family: Family, b: PreflightRequest & Extras, ctx: z.RefinementCtx): RouterRequest | undefined {
  const swap = b.swapOptions;
  if (!swap) return undefined;
  if (Array.isArray(b.currency)) {
    ctx.addIssue({ code: 'custom', path: ['currency'], message: 'must be one currency object with swapOptions: a swap sends one asset', params: { kind: 'InvalidCurrencyError' } });
    return undefined;
  }
  const { amount, ...selector } = b.currency;
  if (amount === 'ALL') ctx.addIssue({ code: 'custom', path: ['currency', 'amount'], message: 'must be an amount with swapOptions (ALL is not a swap amount)', params: { kind: 'NumberFormatError' } });
  const currencyFrom = routerCurrency.safeParse(selector);
  if (!currencyFrom.success) reportNested(ctx, ['currency'], currencyFrom.error, 'InvalidCurrencyError');
  if (b.from === 'Ethereum') unsupported(ctx, ['from'], 'must be a Substrate chain with swapOptions');
  if (b.feeAsset !== undefined) unsupported(ctx, ['feeAsset'], `cannot be combined with swapOptions: the router (xcm-router ${SDK_VERSION}) chooses the fee assets of a swap itself`);
  if (b.options.customAssets) unsupported(ctx, ['options', 'customAssets'], `cannot be combined with swapOptions: the router (xcm-router ${SDK_VERSION}) swaps and prices only the assets of its own registry`);
  if (b.options.xcmFormatCheck) unsupported(ctx, ['options', 'xcmFormatCheck'], 'cannot be combined with swapOptions: the router has no format check');
  if (b.disableFallback) unsupported(ctx, ['disableFallback'], 'cannot be combined with swapOptions: the router prices the leg after the swap with payment info, since the swapped asset is not there yet');
  if (amount === 'ALL' || !currencyFrom.success || b.from === 'Ethereum') return undefined;
  const request: RouterRequestInput = {
    from: b.from as TSubstrateChain,
    to: b.to,
    exchange: swap.exchange,
    currencyFrom: currencyFrom.data,
    currencyTo: swap.currencyTo,
    amount,
    slippagePct: String(swap.slippage),
    recipientAddress: b.recipient,
    senderAddress: b.sender,
    evmSenderAddress: swap.evmSenderAddress,
    options: { development: b.options.development, abstractDecimals: b.options.abstractDecimals, apiOverrides: b.options.apiOverrides },
  };
  crossFieldRules(request, ctx, SWAP_FIELD_NAMES(family));
  return resolvePreferences(request, ctx, SWAP_FIELD_NAMES(family));
}

/** Fields of a transfer body that pre-flight queries do not take (the SDK's pre-flight cannot carry a transact; keepAlive is local-build only). */
const notForPreflight = (family: Family): string[] => [FAMILY_FIELDS[family].transact, 'keepAlive'];

/** What a pre-flight body holds: the transfer fields it takes, a chain as `to`, and its extras. */
function preflightShape(family: Family, extras: z.ZodRawShape, options?: z.ZodRawShape) {
  const fields = FAMILY_FIELDS[family];
  const { shape } = transferFields(family, { senderRequired: true, options });
  const taken = Object.fromEntries(Object.entries(shape).filter(([k]) => !notForPreflight(family).includes(k)));
  return z
    .object({
      ...taken,
      to: doc(destination(), {
        description:
          'A chain name, or a Location that names a chain seen from `from` (the relay, a sibling parachain, or from a relay chain one of its parachains), which is priced as that chain.',
      }),
      [fields.recipient]: doc(accountAddress, { description: 'Recipient address (an address string: pre-flight queries take no location).' }),
      ...extras,
    })
    .strict();
}

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
  const parser = z.unknown().transform((raw, ctx) => {
    const isObject = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
    const entries = isObject ? Object.entries(raw) : [];
    const rest = isObject ? Object.fromEntries(entries.filter(([k]) => !extraKeys.includes(k) && !notForPreflight(family).includes(k))) : raw;
    const refused = entries.map(([k]) => k).filter((k) => notForPreflight(family).includes(k));
    const transact = FAMILY_FIELDS[family].transact;
    if (refused.includes(transact)) {
      ctx.addIssue({ code: 'custom', path: [transact], message: `is not accepted by pre-flight queries: build the transact with POST /x-transfer and dry-run that call on the chain`, params: { kind: 'ValidationError' } });
    }
    const others = refused.filter((k) => k !== transact);
    if (others.length > 0) ctx.addIssue({ code: 'unrecognized_keys', keys: others, message: 'not accepted by pre-flight queries' });
    const extra = extraSchema.safeParse(Object.fromEntries(entries.filter(([k]) => extraKeys.includes(k))));
    const body = base.safeParse(rest);
    for (const issue of [...(body.success ? [] : body.error.issues), ...(extra.success ? [] : extra.error.issues)]) ctx.addIssue(issue as z.core.$ZodRawIssue);
    if (!body.success || !extra.success) return z.NEVER;
    const b = body.data;
    // The SDK prices transfers to a chain only (assertToIsString): a Location that names a chain
    // of the registry is priced as that chain; any other Location cannot be priced.
    const to = typeof b.to === 'string' ? b.to : chainOfLocation(b.from, b.to);
    if (to === undefined) {
      unsupported(ctx, ['to'], `this Location names no chain seen from ${b.from}, and the engine prices transfers to a chain only; give the chain name, or a Location of a chain: {"parents": 1, "interior": {"X1": [{"Parachain": <id>}]}} (a sibling), {"parents": 1, "interior": "Here"} (the relay), or from a relay chain {"parents": 0, "interior": {"X1": [{"Parachain": <id>}]}}`);
    }
    if (typeof b.recipient !== 'string') ctx.addIssue({ code: 'custom', path: [fields.recipient], message: 'must be an address string for pre-flight queries', params: { kind: 'InvalidAddressError' } });
    if (to === undefined || typeof b.recipient !== 'string' || b.sender === undefined) return z.NEVER;
    const { transact: _t, extraOptions, ...request } = b;
    const out = { ...request, to, recipient: b.recipient, sender: b.sender, ...(extra.data as Extras) } as PreflightRequest & Extras;
    const swap = toSwapRequest(family, out, ctx);
    if (out.swapOptions !== undefined && swap === undefined) return z.NEVER;
    const { swapOptions: _s, ...plain } = out;
    const parsed: PreflightBody = { request: plain, extraOptions: extraOptions as Record<string, unknown> };
    if (swap) parsed.swap = swap;
    return parsed;
  });
  return documentedAs(parser, preflightShape(family, extras, options));
}

const swap = { swapOptions: swapOptionsSchema.optional() };
const fallback = { disableFallback: disableFallbackSchema.optional() };

export function preflightSchemas(family: Family) {
  return {
    dryRun: preflightBody(family, swap),
    dryRunPreview: preflightBody(family, {}, { mintFeeAssets: doc(z.boolean(typeError('must be true or false')).default(false), { description: 'Mint the fee assets on the origin before the dry run.' }) }),
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

const ethereumRpcUrl = doc(
  z
    .string()
    .url('must be a URL')
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL (Ethereum is read over JSON-RPC)'),
  { pattern: '^[hH][tT][tT][pP][sS]?://' },
);
const ethereumRpcUrls = z.union([ethereumRpcUrl, z.array(ethereumRpcUrl).min(1, 'must list at least one URL')]);

/**
 * Substrate chains take WebSocket endpoints; Ethereum (balances only) takes HTTP JSON-RPC URLs.
 * Out: the Substrate overrides, and Ethereum's URLs apart.
 */
const balanceOverrides = doc(
  documentedAs(
    z
      .record(z.string(), z.unknown())
      .superRefine((o, ctx) => {
        const { Ethereum: ethereum, ...substrate } = o;
        const checks: [z.ZodSafeParseResult<unknown>, PropertyKey[]][] = [[apiOverridesSchema.safeParse(substrate), []]];
        if (ethereum !== undefined) checks.push([ethereumRpcUrls.safeParse(ethereum), ['Ethereum']]);
        for (const [result, at] of checks) if (!result.success) for (const i of result.error.issues) ctx.addIssue({ ...i, path: [...at, ...i.path] } as z.core.$ZodRawIssue);
      })
      .check(abortOnIssue)
      .transform((o) => {
        const { Ethereum: ethereum, ...substrate } = o;
        return {
          apiOverrides: apiOverridesSchema.parse(substrate),
          ethereum: ethereum === undefined ? undefined : typeof ethereum === 'string' ? [ethereum] : (ethereum as string[]),
        };
      }),
    z.object({ Ethereum: ethereumRpcUrls.optional() }).catchall(wsUrls),
  ),
  {
    description: `Substrate chains take WebSocket URLs (as \`ApiOverrides\`); \`Ethereum\` takes HTTP(S) JSON-RPC URLs. One URL or an array, in failover order; at most ${LIMITS.overrideChains} chains.`,
  },
);

/** Not in the contract for balance; accepted so a caller (and the tests) can pick the endpoint. */
export const balanceOptionsSchema = doc(
  z
    .object({
      development: z.boolean().default(false),
      apiOverrides: balanceOverrides.prefault({}),
      customAssets: customAssetsSchema.optional(),
    })
    .strict()
    .prefault({})
    .check(abortOnIssue)
    .transform((o) => ({ development: o.development, apiOverrides: o.apiOverrides.apiOverrides, ethereumRpc: o.apiOverrides.ethereum, customAssets: o.customAssets })),
  { id: 'BalanceOptions', description: 'Not in the contract for balances; accepted so a caller can pick the endpoint.' },
);

export interface BalanceRequest {
  chain: TChain;
  address: string;
  /** Absent: the chain's native asset. */
  currency?: TCurrencyCore;
  options: z.output<typeof balanceOptionsSchema>;
}

const account = doc(z.string(typeError('must be an address string')).min(1, 'must not be empty').max(LIMITS.address, `must be at most ${LIMITS.address} characters`), {
  description: 'The account whose balance is read.',
});

/**
 * `/v5`: `address`; `/v2`: `recipient`, or `address` as the ParaSpell XCM API names it. In both,
 * `currency` is optional (the chain's native asset).
 */
export function balanceBody(family: Family) {
  if (family === 'v5') {
    return z
      .object({ address: account, currency: lookupCurrency.optional(), options: balanceOptionsSchema })
      .strict()
      .check(abortOnIssue)
      .transform((b) => ({ address: b.address, currency: b.currency, options: b.options }));
  }
  return z
    .object({
      recipient: doc(account.optional(), { description: 'The account whose balance is read (required, or its alternative `address`).' }),
      address: doc(account.optional(), { description: aliasOf('recipient') }),
      currency: lookupCurrency.optional(),
      options: balanceOptionsSchema,
    })
    .strict()
    .check(abortOnIssue)
    .transform((raw, ctx) => {
      const b = foldAlias(raw, 'recipient', 'address', ctx);
      if (b.recipient === undefined) ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'Required', input: undefined });
      return { address: b.recipient as string, currency: b.currency as TCurrencyCore | undefined, options: b.options };
    });
}
