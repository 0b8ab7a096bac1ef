import type { z } from 'zod';
import { batchBody } from './batch';
import { evmTransferBody } from './evm';
import { evmApproveBody } from './evm-approve';
import { explainBody } from './explain';
import { componentName, FAMILIES, type Family } from './family';
import { assetInfoBody, chainParams, convertSs58Query, currencyBody, palletIndexQuery, paraIdParams, paraIdQuery, supportedAssetsQuery } from './lookups';
import { metadataHashBody, metadataProofBody, transferBuildBody } from './metadata';
import { paraEthFeesQuery } from './para-eth-fees';
import { balanceBody, preflightSchemas } from './preflight';
import { pairsBody, routerBody } from './router';
import { statusBody } from './status';
import { watchBody, watchParams } from './watch';
import { swapAssetsFromQuery, swapAssetsToQuery, swapPairsQuery } from './swap';
import { swapTransferBody } from './swap-transfer';
import { xcmAnalyserBody } from './xcm-analyser';

// The request schemas openapi.yaml documents, by the component name its operations refer to.
// `npm run openapi` writes them (and every schema they use that has an `id`, see ./docs.ts) into
// the document; a test fails when the document differs. A new operation adds its body here, and
// its path item in openapi.yaml refers to `#/components/schemas/<name>` (per family:
// `<name>V5` and `<name>V2`).

/** One component per family: `name` + `V5` / `V2`. */
function perFamily(name: string, make: (family: Family) => z.ZodType): Record<string, z.ZodType> {
  return Object.fromEntries(FAMILIES.map((family) => [componentName(name, family), make(family)]));
}

function preflightBodies(): Record<string, z.ZodType> {
  const names = {
    dryRun: 'DryRunBody',
    dryRunPreview: 'DryRunPreviewBody',
    xcmFee: 'XcmFeeBody',
    originXcmFee: 'OriginXcmFeeBody',
    transferInfo: 'TransferInfoBody',
    transferableAmount: 'TransferableAmountBody',
    minTransferableAmount: 'MinTransferableAmountBody',
    receivableAmount: 'ReceivableAmountBody',
    verifyEdOnDestination: 'VerifyEdBody',
    bestAmountOut: 'BestAmountOutBody',
  } as const satisfies Record<keyof ReturnType<typeof preflightSchemas>, string>;
  const out: Record<string, z.ZodType> = {};
  for (const family of FAMILIES) {
    const schemas = preflightSchemas(family);
    for (const [operation, name] of Object.entries(names)) out[componentName(name, family)] = schemas[operation as keyof typeof names];
  }
  return out;
}

export const REQUEST_BODIES: Record<string, z.ZodType> = {
  // ---- lookups
  CurrencyRequest: currencyBody,
  AssetInfoRequest: assetInfoBody,
  // ---- transfer
  ...perFamily('TransferBody', transferBuildBody),
  ...perFamily('TransferBatchBody', batchBody),
  ...perFamily('EvmTransferBody', evmTransferBody),
  ...perFamily('EvmApproveBody', evmApproveBody),
  // The same body in both families.
  TransferStatusBody: statusBody('v5'),
  TransferWatchBody: watchBody('v5'),
  // ---- RFC-0078 metadata
  MetadataHashBody: metadataHashBody,
  MetadataProofBody: metadataProofBody,
  // ---- pre-flight
  ...preflightBodies(),
  ...perFamily('BalanceBody', balanceBody),
  // ---- explain
  ...perFamily('ExplainBody', explainBody),
  // The same body in both families.
  XcmAnalyserBody: xcmAnalyserBody,
  // ---- router
  ...perFamily('RouterBuildBody', (f) => routerBody(f, 'build')),
  ...perFamily('RouterXcmFeesBody', (f) => routerBody(f, 'xcmFees')),
  ...perFamily('RouterDryRunBody', (f) => routerBody(f, 'dryRun')),
  ...perFamily('RouterTransferableAmountBody', (f) => routerBody(f, 'transferableAmount')),
  ...perFamily('RouterMinTransferableAmountBody', (f) => routerBody(f, 'minTransferableAmount')),
  ...perFamily('RouterBestAmountOutBody', (f) => routerBody(f, 'bestAmountOut')),
  ...perFamily('SwapTransferBody', swapTransferBody),
  RouterPairsBody: pairsBody,
};

/**
 * Path and query parameters: one component per field of `schema`, named `prefix` + the field's
 * name (`Chain`, `SupportedAssetsOrigin`); its description, example, `style` and `explode` come
 * from the field's docs. Sets may share a field when it is the same schema (`SwapExchange`).
 */
export interface ParameterSet {
  in: 'path' | 'query';
  /** Parses the whole query (or path) object: a z.object, maybe refined. */
  schema: z.ZodType;
  prefix: string;
}

export const PARAMETER_SETS: readonly ParameterSet[] = [
  { in: 'path', schema: chainParams, prefix: '' },
  { in: 'path', schema: paraIdParams, prefix: '' },
  { in: 'path', schema: watchParams, prefix: 'Watch' },
  { in: 'query', schema: paraIdQuery, prefix: '' },
  { in: 'query', schema: supportedAssetsQuery, prefix: 'SupportedAssets' },
  { in: 'query', schema: palletIndexQuery, prefix: '' },
  { in: 'query', schema: convertSs58Query, prefix: 'ConvertSs58' },
  { in: 'query', schema: paraEthFeesQuery, prefix: 'ParaEthFees' },
  // The swap lookups share `exchange`: one parameter, SwapExchange.
  { in: 'query', schema: swapPairsQuery, prefix: 'Swap' },
  { in: 'query', schema: swapAssetsFromQuery, prefix: 'Swap' },
  { in: 'query', schema: swapAssetsToQuery, prefix: 'Swap' },
];
