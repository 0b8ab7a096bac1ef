import { z } from 'zod';
import type { TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import type { Family } from './family';
import { chainName } from './common';
import { doc } from './docs';
import { apiOverridesSchema, type TransferOptions } from './transfer';
import { abortOnIssue, typeError } from './zod-rules';

/** What `POST /x-transfer/status` follows: one signed extrinsic and the message it sent. */
export interface StatusRequest {
  from: TSubstrateChain;
  to: TChain;
  /** Hash of the signed extrinsic, lower-case `0x` hex. */
  txHash: `0x${string}`;
  /** The origin block that included it, when the caller knows it. */
  blockHash?: `0x${string}`;
  options: Pick<TransferOptions, 'apiOverrides' | 'development'>;
}

const hash32 = z
  .string(typeError('must be a hash: 0x and 64 hex digits'))
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a hash: 0x and 64 hex digits')
  .check(abortOnIssue)
  .transform((v) => v.toLowerCase() as `0x${string}`);

const origin = doc(
  chainName.superRefine((value, ctx) => {
    if (value === 'Ethereum') {
      ctx.addIssue({
        code: 'custom',
        message: 'following an EVM-signed transaction is not supported yet: from must be the Substrate chain where the extrinsic was included',
        params: { kind: 'UnsupportedOperationError' },
      });
    }
  }),
  { description: 'The Substrate chain that included the extrinsic (`Ethereum` is a 400).' },
);

const statusOptions = z.preprocess(
  (v) => v ?? {},
  z
    .object({
      development: doc(z.boolean().default(false), { description: 'Use only `apiOverrides` endpoints; a chain of the route without one is a 400 `MissingChainApiError`.' }),
      apiOverrides: apiOverridesSchema.default({}),
    })
    .strict(),
);

/** The fields of the status body (a watch's body has them too). */
export const statusFields = {
  from: origin,
  to: doc(chainName, { description: 'The destination; equal to `from` for a local transfer.' }),
  txHash: doc(hash32, { description: 'Hash of the signed extrinsic.' }),
  blockHash: doc(hash32.optional(), { description: 'The origin block that included it (exact and fast); without it the last TRACK_LOOKBACK_BLOCKS blocks are searched.' }),
  options: statusOptions,
};

const body = z
  .object(statusFields)
  .strict()
  .check(abortOnIssue)
  .transform((b): StatusRequest => ({ ...b, from: b.from as TSubstrateChain }));

/** The same body in both families: it carries no address, sender or amount. */
export function statusBody(_family: Family): z.ZodType<StatusRequest, unknown> {
  return body;
}
