import { z } from 'zod';
import type { TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import type { Family } from './family';
import { chainName } from './common';
import { apiOverridesSchema, type TransferOptions } from './transfer';

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
  .string({ invalid_type_error: 'must be a hash: 0x and 64 hex digits' })
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a hash: 0x and 64 hex digits')
  .transform((v) => v.toLowerCase() as `0x${string}`);

const origin = chainName.superRefine((value, ctx) => {
  if (value === 'Ethereum') {
    ctx.addIssue({
      code: 'custom',
      message: 'following an EVM-signed transaction is not supported yet: from must be the Substrate chain where the extrinsic was included',
      params: { kind: 'UnsupportedOperationError' },
    });
  }
});

const statusOptions = z.preprocess(
  (v) => v ?? {},
  z.object({ development: z.boolean().default(false), apiOverrides: apiOverridesSchema.default({}) }).strict(),
);

const body = z
  .object({ from: origin, to: chainName, txHash: hash32, blockHash: hash32.optional(), options: statusOptions })
  .strict()
  .transform((b): StatusRequest => ({ ...b, from: b.from as TSubstrateChain }));

/** The same body in both families: it carries no address, sender or amount. */
export function statusBody(_family: Family): z.ZodType<StatusRequest, z.ZodTypeDef, unknown> {
  return body;
}
