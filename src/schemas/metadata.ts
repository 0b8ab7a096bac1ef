import { z } from 'zod';
import type { TChain } from '@paraspell/sdk-pjs';
import { substrateChainName } from './common';
import { apiOverridesSchema, type TransferOptions } from './transfer';

/**
 * Bodies of the RFC-0078 operations (the same in both families) and the transfer option that
 * answers call data with its metadata hash.
 */

export type MetadataOptions = Pick<TransferOptions, 'development' | 'apiOverrides'>;

export interface MetadataHashRequest {
  chain: TChain;
  options: MetadataOptions;
}

/** The parts a signer has once it assembled the transaction, or the whole signing payload. */
export type SigningPayload = { callData: string; includedInExtrinsic: string; includedInSignedData: string } | { payload: string };

export interface MetadataProofRequest extends MetadataHashRequest {
  signing: SigningPayload;
}

/** `options.metadataHash` of /x-transfer and /x-transfer-batch: answer `{callData, metadataHash, specVersion}`. */
export const metadataHashOption = z.boolean({ invalid_type_error: 'must be true or false' }).default(false);

/** Where the option cannot apply: giving it at all is a 400 that says why. */
export const metadataHashNotApplicable = (why: string) =>
  z.unknown().superRefine((value, ctx) => {
    if (value !== undefined) ctx.addIssue({ code: 'custom', message: why, params: { kind: 'UnsupportedOperationError' } });
  });

/** Call data as /explain bounds it; the extensions' parts are a few hundred bytes at most. */
const MAX_CALL_HEX = 64 * 1024;
const MAX_EXTENSIONS_HEX = 4 * 1024;

const hex = (max: number) =>
  z
    .string({ invalid_type_error: 'must be a 0x-prefixed hex string' })
    .max(max, `must be at most ${max} characters`)
    .regex(/^0x([0-9a-fA-F]{2})+$/, 'must be 0x followed by an even number of hex digits')
    .transform((v) => v.toLowerCase());

const options = z
  .object({ development: z.boolean().default(false), apiOverrides: apiOverridesSchema.default({}) })
  .strict()
  .default({});

export const metadataHashBody: z.ZodType<MetadataHashRequest, z.ZodTypeDef, unknown> = z.object({ chain: substrateChainName, options }).strict();

const PARTS = ['callData', 'includedInExtrinsic', 'includedInSignedData'] as const;

export const metadataProofBody: z.ZodType<MetadataProofRequest, z.ZodTypeDef, unknown> = z
  .object({
    chain: substrateChainName,
    callData: hex(MAX_CALL_HEX).optional(),
    includedInExtrinsic: hex(MAX_EXTENSIONS_HEX).optional(),
    includedInSignedData: hex(MAX_EXTENSIONS_HEX).optional(),
    payload: hex(MAX_CALL_HEX + 2 * MAX_EXTENSIONS_HEX).optional(),
    options,
  })
  .strict()
  .superRefine((b, ctx) => {
    for (const part of PARTS) {
      if (b.payload !== undefined && b[part] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [part], message: 'cannot be given with payload: send the whole signing payload or its three parts', params: { kind: 'ValidationError' } });
      }
      if (b.payload === undefined && b[part] === undefined) {
        ctx.addIssue({ code: 'custom', path: [part], message: 'is required (or send the whole signing payload as payload)', params: { kind: 'MissingParameterError' } });
      }
    }
  })
  .transform((b) => ({
    chain: b.chain,
    options: b.options,
    signing: b.payload !== undefined ? { payload: b.payload } : { callData: b.callData!, includedInExtrinsic: b.includedInExtrinsic!, includedInSignedData: b.includedInSignedData! },
  }));
