import { z } from 'zod';
import type { TChain } from '@paraspell/sdk-pjs';
import { substrateChainName } from './common';
import { doc } from './docs';
import type { Family } from './family';
import { apiOverridesSchema, transferBody, type TransferOptions } from './transfer';
import { abortOnIssue, typeError } from './zod-rules';

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
export const metadataHashOption = doc(z.boolean(typeError('must be true or false')).default(false), {
  id: 'MetadataHashOption',
  description:
    'Answer `SignableCall` (`{callData, metadataHash, specVersion}`) instead of the bare hex, for hardware wallets (RFC-0078). The hash is read alongside the build, over the same pooled connection; an origin that serves no metadata v15 is a 400 `UnsupportedOperationError`. `/evm-x-transfer` refuses it (400 `UnsupportedOperationError`: an EVM transaction has no metadata hash); the router and swap operations do not take it (their transactions are on several chains: ask `POST /metadata-hash` for each).',
});

/** The `/x-transfer` body: a transfer whose options may ask for the metadata hash. */
export const transferBuildBody = (family: Family) => transferBody(family, { senderRequired: false, options: { metadataHash: metadataHashOption } });

/** Where the option cannot apply: giving it at all is a 400 that says why. */
export const metadataHashNotApplicable = (why: string) =>
  doc(
    z
      .unknown()
      .superRefine((value, ctx) => {
        if (value !== undefined) ctx.addIssue({ code: 'custom', message: why, params: { kind: 'UnsupportedOperationError' } });
      })
      .optional(),
    { description: `Refused (400 \`UnsupportedOperationError\`): ${why}.`, not: {} },
  );

/** Call data as /explain bounds it; the extensions' parts are a few hundred bytes at most. */
const MAX_CALL_HEX = 64 * 1024;
const MAX_EXTENSIONS_HEX = 4 * 1024;

const hex = (max: number) =>
  z
    .string(typeError('must be a 0x-prefixed hex string'))
    .max(max, `must be at most ${max} characters`)
    .regex(/^0x([0-9a-fA-F]{2})+$/, 'must be 0x followed by an even number of hex digits')
    .check(abortOnIssue)
    .transform((v) => v.toLowerCase());

const options = doc(
  z
    .object({ development: doc(z.boolean().default(false), { description: 'Use only `apiOverrides` endpoints.' }), apiOverrides: apiOverridesSchema.default({}) })
    .strict()
    .prefault({}),
  { id: 'MetadataOptions' },
);

const chain = doc(substrateChainName, { description: 'A Substrate chain (not Ethereum).' });

export const metadataHashBody: z.ZodType<MetadataHashRequest, unknown> = z.object({ chain, options }).strict();

const PARTS = ['callData', 'includedInExtrinsic', 'includedInSignedData'] as const;

export const metadataProofBody: z.ZodType<MetadataProofRequest, unknown> = doc(
  z
    .object({
      chain,
      callData: doc(hex(MAX_CALL_HEX).optional(), { description: 'The call alone (no length prefix, no version byte).' }),
      includedInExtrinsic: doc(hex(MAX_EXTENSIONS_HEX).optional(), {
        description: "Every transaction extension's data that goes into the transaction, in the metadata's order (era, nonce, tip, CheckMetadataHash's mode, ...).",
      }),
      includedInSignedData: doc(hex(MAX_EXTENSIONS_HEX).optional(), {
        description: "Every extension's data that is only signed (spec and transaction version, genesis and block hash, the metadata hash, ...).",
      }),
      payload: doc(hex(MAX_CALL_HEX + 2 * MAX_EXTENSIONS_HEX).optional(), {
        description: 'The whole signing payload: callData, includedInExtrinsic and includedInSignedData concatenated (not hashed).',
      }),
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
    .check(abortOnIssue)
    .transform((b) => ({
      chain: b.chain,
      options: b.options,
      signing: b.payload !== undefined ? { payload: b.payload } : { callData: b.callData!, includedInExtrinsic: b.includedInExtrinsic!, includedInSignedData: b.includedInSignedData! },
    })),
  { description: 'The three parts, or `payload` alone.', oneOf: [{ required: [...PARTS] }, { required: ['payload'] }] },
);
