import { z } from 'zod';
import type { Address } from 'viem';
import type { TCurrencyCore } from '@paraspell/sdk-pjs';
import { chainName } from './common';
import { doc } from './docs';
import { evmCurrency, evmSender } from './evm';
import type { Family } from './family';
import { abortOnIssue, typeError } from './zod-rules';

/** `POST /evm-approve`: the ERC-20 approval a Snowbridge transfer from Ethereum needs first. */
export interface EvmApproveRequest {
  /** One registry asset of Ethereum; `amount` as in `/evm-x-transfer` (whole units when abstractDecimals is on). */
  currency: TCurrencyCore & { amount: string };
  /** The EVM account that will sign (and later send the transfer), checksummed. */
  sender: Address;
  abstractDecimals: boolean;
}

const issue = (message: string, kind: string) => ({ message, params: { kind } });

const ethereumOrigin = doc(
  chainName.superRefine((value, ctx) => {
    if (value !== 'Ethereum') {
      ctx.addIssue({
        code: 'custom',
        ...issue(`must be Ethereum: the approval is for the Snowbridge gateway there; transfers from ${value} need no approval (/evm-x-transfer or /x-transfer builds them)`, 'UnsupportedOperationError'),
      });
    }
  }),
  { description: 'Ethereum: the approval is for its Snowbridge gateway (another chain is a 400 `UnsupportedOperationError`).', enum: ['Ethereum'] },
);

/** Only `abstractDecimals` means something here: nothing is dialled, so no endpoints or development mode. */
const approveOptions = (family: Family) =>
  z.preprocess((v) => v ?? {}, z.object({ abstractDecimals: z.boolean(typeError('must be true or false')).default(family === 'v2') }).strict());

const signer = doc(evmSender, { description: 'The EVM account that will sign the approval and the transfer (lower case or EIP-55 checksummed).' });

/** Amounts carry decimals only with abstractDecimals on, as in `/evm-x-transfer`. */
function wholeUnlessAbstract(b: { currency: { amount: string }; options: { abstractDecimals: boolean } }, ctx: z.RefinementCtx): void {
  if (!b.options.abstractDecimals && b.currency.amount.includes('.')) {
    ctx.addIssue({ code: 'custom', path: ['currency', 'amount'], ...issue('must be a whole number of base units (or turn on options.abstractDecimals)', 'NumberFormatError') });
  }
}

/** The `/evm-approve` body under the family's sender name (`senderAddress` in /v5, `sender` in /v2). */
export function evmApproveBody(family: Family) {
  const common = z.object({ from: ethereumOrigin, currency: evmCurrency, options: approveOptions(family) });
  const toModel = (b: z.output<typeof common>, sender: Address): EvmApproveRequest => ({ currency: b.currency, sender, abstractDecimals: b.options.abstractDecimals });
  if (family === 'v5') {
    return common
      .extend({ senderAddress: signer })
      .strict()
      .superRefine(wholeUnlessAbstract)
      .check(abortOnIssue)
      .transform((b) => toModel(b, b.senderAddress));
  }
  return common
    .extend({ sender: signer })
    .strict()
    .superRefine(wholeUnlessAbstract)
    .check(abortOnIssue)
    .transform((b) => toModel(b, b.sender));
}
