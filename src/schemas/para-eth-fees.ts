import { z } from 'zod';
import { boundedArray } from './limits';
import { wsUrl } from './transfer';

/** `GET /x-transfer/para-eth-fees`: where to read AssetHubPolkadot, the one chain it dials. */
export interface ParaEthFeesRequest {
  /** AssetHubPolkadot endpoints in failover order (`options.apiOverrides.AssetHubPolkadot` of a POST); the registry's without. */
  endpoints?: string[];
  /** Dial nothing but `endpoints` (`options.development` of a POST). */
  development: boolean;
}

/** Raw values counted before any is parsed; the service allows at most 4 distinct endpoints, as for apiOverrides. */
const MAX_ENDPOINT_VALUES = 16;

/**
 * A GET has no body for `options`, so the two options that apply travel as query parameters:
 * `endpoint` (repeated for failover) and `development=true|false`.
 */
export const paraEthFeesQuery = z
  .object({
    endpoint: z
      .union([wsUrl.transform((url) => [url]), boundedArray(z.array(wsUrl), MAX_ENDPOINT_VALUES, `must be given at most ${MAX_ENDPOINT_VALUES} times`)])
      .optional(),
    development: z
      .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
      .default('false')
      .transform((v) => v === 'true'),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.development && q.endpoint === undefined) {
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'is required with development=true: the AssetHubPolkadot endpoint to read', params: { kind: 'MissingChainApiError' } });
    }
  })
  .transform((q): ParaEthFeesRequest => ({ ...(q.endpoint ? { endpoints: q.endpoint } : {}), development: q.development }));
