import { z } from 'zod';
import { getAddress, type Address } from 'viem';
import type { TChain, TCurrencyCore } from '@paraspell/sdk-pjs';
import { doc, exactlyOne } from './docs';
import type { Family } from './family';
import { sdk } from '../sdk';
import { addressMismatch, EVM_ADDRESS, INVALID_ADDRESS, isEvmAddress, isValidAddress } from './address';
import { amountSchema } from './amount';
import { assetId, chainName, location, SELECTORS, symbolSpecifier } from './common';
import { LIMITS } from './limits';
import { metadataHashNotApplicable } from './metadata';
import { optionsSchema, type TransferOptions } from './transfer';
import { abortOnIssue, typeError } from './zod-rules';

/** An Ethereum-origin transfer (`/evm-x-transfer`), whatever the family. */
export interface EvmTransferRequest {
  from: TChain;
  to: TChain;
  /** One registry asset; `amount` is a decimal string (whole units when abstractDecimals is on). */
  currency: TCurrencyCore & { amount: string };
  /** The EVM account that signs, checksummed. */
  sender: Address;
  recipient: string;
  /** Moonbeam -> Ethereum only: the sender's asset hub account, where what is left there goes. */
  ahAddress?: string;
  options: TransferOptions;
}

const issue = (message: string, kind: string) => ({ message, params: { kind } });

/**
 * EIP-55: an address in one case carries no checksum and is taken as is; a mixed-case address
 * is a checksum, and a wrong one is a typo that must not become a transfer.
 */
export function evmAddressProblem(address: string): string | undefined {
  if (!isEvmAddress(address)) return 'must be a 20-byte EVM address (0x followed by 40 hex digits)';
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return undefined;
  return getAddress(address) === address ? undefined : 'has a wrong EIP-55 checksum (mixed-case letters that do not match the address); check it or send it in lower case';
}

export const evmSender = doc(
  z
    .string(typeError('must be a 20-byte EVM address (string)'))
    .superRefine((value, ctx) => {
      const problem = evmAddressProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', ...issue(problem, 'InvalidAddressError') });
    })
    .check(abortOnIssue)
    .transform((value) => getAddress(value)),
  { id: 'EvmAddress', description: 'A 20-byte EVM address, in one case or EIP-55 checksummed (a wrong checksum is a 400 `InvalidAddressError`).', pattern: EVM_ADDRESS.source },
);

const TOO_LONG = `must be at most ${LIMITS.address} characters`;

const recipientValue = z
  .string(typeError('must be an address (string)'))
  .min(1, 'must not be empty')
  .max(LIMITS.address, TOO_LONG)
  // An over-long value is named for its length only.
  .refine((v) => v.length > LIMITS.address || isValidAddress(v), issue(INVALID_ADDRESS, 'InvalidAddressError'));

/** An asset hub account: SS58 or 0x + 32 bytes (a 20-byte address has no account there). */
const ahAddressValue = doc(
  z
    .string(typeError('must be an address (string)'))
    .max(LIMITS.address, TOO_LONG)
    .refine((v) => v.length > LIMITS.address || (isValidAddress(v) && !isEvmAddress(v)), issue('must be an asset hub account: SS58 or 0x + 32-byte account id', 'InvalidAddressError')),
  {
    id: 'EvmTransferAhAddress',
    description:
      "Moonbeam -> Ethereum only, and required there: the sender's account on the asset hub (SS58 or 0x + 32-byte account id), where what is left on the asset hub goes. Any other route answers 400 `ValidationError` at `body.ahAddress`.",
  },
);

/** The one route that takes `ahAddress` (the registry's, upstream's `transferMoonbeamToEth`). */
export const needsAhAddress = (from: string, to: string): boolean => from === 'Moonbeam' && to === 'Ethereum';

/** A positive amount under `/x-transfer`'s rules (ASCII digits, at most one point, no spaces); EVM transfers take no `ALL`. */
const evmAmount = doc(amountSchema({ positive: true, typeMessage: 'must be a positive number, as a string or number (ALL is not available here)' }), {
  description:
    'Greater than 0. Base units, unless `options.abstractDecimals` is on (whole units, decimals allowed). ASCII digits with at most one point, no spaces or exponents, as for `/x-transfer`; `ALL` is not available here. Integers beyond 2^53 must be strings.',
});

/** The location, id and symbol forms only: no Override locations, no several assets. */
export const evmCurrency = doc(
  z
    .object({ location: location.optional(), id: assetId.optional(), symbol: symbolSpecifier.optional(), amount: evmAmount }, typeError('must be one currency object {symbol|id|location, amount}'))
    .strict()
    .superRefine((v, ctx) => {
      const count = [v.location, v.id, v.symbol].filter((x) => x !== undefined).length;
      if (count !== 1) ctx.addIssue({ code: 'custom', ...issue('must carry exactly one of location, id or symbol', 'InvalidCurrencyError') });
    })
    .check(abortOnIssue)
    .transform((v): TCurrencyCore & { amount: string } => {
      if (v.location !== undefined) return { location: v.location, amount: v.amount };
      if (v.id !== undefined) return { id: v.id, amount: v.amount };
      return { symbol: v.symbol!, amount: v.amount };
    }),
  {
    id: 'EvmTransferCurrency',
    description: 'One registry asset and its amount; exactly one of `location`, `id` or `symbol` (no Override, no array, no `ALL`).',
    ...exactlyOne(SELECTORS),
  },
);

const EVM_CHAINS: readonly string[] = sdk.CHAINS.filter((c) => sdk.isChainEvm(c));

const evmOrigin = doc(
  chainName.superRefine((value, ctx) => {
    if (!sdk.isChainEvm(value)) {
      ctx.addIssue({ code: 'custom', ...issue(`'${value}' is not an EVM chain; this route starts on one of ${EVM_CHAINS.join(', ')} (GET /chains/evm), and POST /x-transfer builds transfers from Substrate chains`, 'UnsupportedOperationError') });
    }
  }),
  { description: `An EVM chain: ${EVM_CHAINS.join(', ')} (see GET /chains/evm).` },
);

interface ParsedBody {
  from: TChain;
  to: TChain;
  currency: TCurrencyCore & { amount: string };
  ahAddress?: string;
  options: TransferOptions;
}

/** Rules across fields, reported at the field to change; all of them need no chain. */
function crossFieldRules(body: ParsedBody, recipient: { field: string; value: string }, ctx: z.RefinementCtx): void {
  const mismatch = addressMismatch(recipient.value, body.to, sdk.isChainEvm(body.to));
  if (mismatch) ctx.addIssue({ code: 'custom', path: [recipient.field], ...issue(mismatch, 'InvalidAddressError') });
  if (!body.options.abstractDecimals && body.currency.amount.includes('.')) {
    ctx.addIssue({ code: 'custom', path: ['currency', 'amount'], ...issue('must be a whole number of base units (or turn on options.abstractDecimals)', 'NumberFormatError') });
  }
  if (needsAhAddress(body.from, body.to) && body.ahAddress === undefined) {
    ctx.addIssue({ code: 'custom', path: ['ahAddress'], ...issue('is required for Moonbeam -> Ethereum: the sender\'s asset hub account (SS58), where what is left on the asset hub after the bridge fees goes', 'MissingParameterError') });
  }
  if (!needsAhAddress(body.from, body.to) && body.ahAddress !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['ahAddress'], ...issue(`applies to Moonbeam -> Ethereum only (what is left on the asset hub goes there); leave it out for ${body.from} -> ${body.to}`, 'ValidationError') });
  }
  if ('Ethereum' in body.options.apiOverrides) {
    ctx.addIssue({ code: 'custom', path: ['options', 'apiOverrides', 'Ethereum'], ...issue('overrides Substrate chains only; Ethereum is reached through the operator\'s ETHEREUM_RPC_URL', 'ValidationError') });
  }
}

const NO_METADATA_HASH = 'does not apply here: an EVM transaction is signed with an Ethereum key and carries no Substrate metadata hash (RFC-0078)';

/** The `/evm-x-transfer` body under the family's field names, translated into one model. */
export function evmTransferBody(family: Family) {
  const options = optionsSchema(family, { metadataHash: metadataHashNotApplicable(NO_METADATA_HASH) });
  const common = z.object({ from: evmOrigin, to: chainName, currency: evmCurrency, ahAddress: ahAddressValue.optional(), options });
  const signer = doc(evmSender, { description: 'The EVM account that signs (lower case or EIP-55 checksummed).' });
  const recipient = doc(recipientValue, { description: 'The recipient: SS58 or 0x + 32-byte account id on Substrate destinations, 0x + 20-byte address on EVM ones.' });
  const toModel = (b: ParsedBody, sender: Address, recipient: string): EvmTransferRequest => ({
    from: b.from,
    to: b.to,
    currency: b.currency,
    sender,
    recipient,
    ...(b.ahAddress !== undefined ? { ahAddress: b.ahAddress } : {}),
    options: b.options,
  });
  if (family === 'v5') {
    return common
      .extend({ senderAddress: signer, address: recipient })
      .strict()
      .superRefine((b, ctx) => crossFieldRules(b, { field: 'address', value: b.address }, ctx))
      .check(abortOnIssue)
      .transform((b) => toModel(b, b.senderAddress, b.address));
  }
  return common
    .extend({ sender: signer, recipient })
    .strict()
    .superRefine((b, ctx) => crossFieldRules(b, { field: 'recipient', value: b.recipient }, ctx))
    .check(abortOnIssue)
    .transform((b) => toModel(b, b.sender, b.recipient));
}
