import { z } from 'zod';
import type { TChain } from '@paraspell/sdk-pjs';
import type { Family } from './family';
import { isValidAddress, INVALID_ADDRESS } from './address';
import { chainName } from './common';
import { doc } from './docs';
import { balanceOptionsSchema } from './preflight';
import { abortOnIssue, typeError } from './zod-rules';

export interface ExplainRequest {
  chain: TChain;
  /** Call data of a Substrate chain, or a serialized EVM transaction for an EVM origin. */
  hex: `0x${string}`;
  /** The account that will sign, when the caller names it: local-transfer and reaping checks use it. */
  sender?: string;
  options: z.output<typeof balanceOptionsSchema>;
}

/** Call data is bounded by the body limit; the cap keeps one request's decoding small. */
const MAX_HEX_CHARS = 64 * 1024;

const hex = doc(
  z
    .string(typeError('must be a 0x-prefixed hex string'))
    .max(MAX_HEX_CHARS, `must be at most ${MAX_HEX_CHARS} characters`)
    .regex(/^0x([0-9a-fA-F]{2})+$/, 'must be 0x followed by an even number of hex digits')
    .check(abortOnIssue)
    .transform((v) => v.toLowerCase() as `0x${string}`),
  { description: 'Call data of the chain, or a serialized EVM transaction for an EVM chain.' },
);

const sender = doc(
  z
    .string(typeError('must be an address string'))
    .max(128, 'is too long for an address')
    .refine(isValidAddress, { message: INVALID_ADDRESS, params: { kind: 'InvalidAddressError' } })
    .optional(),
  { description: 'The signer (optional): local-transfer and reaping checks use it.' },
);

/** `{chain, hex, sender?, options?}`; the sender is `senderAddress` in /v5 and `sender` in /v2. */
export function explainBody(family: Family): z.ZodType<ExplainRequest, unknown> {
  const base = z.object({ chain: chainName, hex, options: balanceOptionsSchema });
  if (family === 'v5') return base.extend({ senderAddress: sender }).strict().check(abortOnIssue).transform(({ senderAddress, ...b }) => ({ ...b, sender: senderAddress }));
  return base.extend({ sender }).strict();
}
