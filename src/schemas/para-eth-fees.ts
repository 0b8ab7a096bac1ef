import { z } from 'zod';
import { doc, documentedAs } from './docs';
import { boundedArray } from './limits';
import { wsUrl } from './transfer';
import { abortOnIssue } from './zod-rules';

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
    endpoint: doc(
      documentedAs(
        z.union([wsUrl.check(abortOnIssue).transform((url) => [url]), boundedArray(z.array(wsUrl), MAX_ENDPOINT_VALUES, `must be given at most ${MAX_ENDPOINT_VALUES} times`)]),
        z.array(wsUrl).max(MAX_ENDPOINT_VALUES),
      ),
      {
        description: 'An AssetHubPolkadot endpoint; repeat the parameter for failover.',
        style: 'form',
        explode: true,
        examples: [['wss://asset-hub-polkadot-rpc.n.dwellir.com']],
      },
    ).optional(),
    development: doc(
      z
        .enum(['true', 'false'], { error: 'must be true or false' })
        .default('false')
        .transform((v) => v === 'true'),
      { description: '`true`: dial only `endpoint` (required then). Default `false`.' },
    ),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.development && q.endpoint === undefined) {
      ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'is required with development=true: the AssetHubPolkadot endpoint to read', params: { kind: 'MissingChainApiError' } });
    }
  })
  .check(abortOnIssue)
  .transform((q): ParaEthFeesRequest => ({ ...(q.endpoint ? { endpoints: q.endpoint } : {}), development: q.development }));
