// What a parachain -> Ethereum transfer pays the asset hub today: the bridge fee (Snowbridge's
// delivery to Ethereum, AssetHubPolkadot's `BridgeHubEthereumBaseFee`) and the asset hub's
// execution fee, both in DOT, as sdk-pjs 11.14.8's `getParaEthTransferFees` reads and pads them
// (10% each; the runtime's default bridge fee while the storage item is unset).
import type { Config } from '../../config';
import type { ConnectionPool } from '../../chains/pool';
import { ApiError, ChainResponseError } from '../../errors';
import { sdk, type ApiPromise } from '../../sdk';
import { U128_MAX } from '../../schemas/limits';
import type { ParaEthFeesRequest } from '../../schemas/para-eth-fees';
import { runOnChains } from '../chain-calls';

const ASSET_HUB = 'AssetHubPolkadot';

/** DOT as the asset hub registers it: what both fees are paid in. */
const DOT = sdk.findAssetInfoOrThrow(ASSET_HUB, { location: { parents: 1, interior: { Here: null } } }, null);

export interface ParaEthFees {
  /** Base units of `asset` (answered as decimal strings). */
  bridgeFee: bigint;
  executionFee: bigint;
  asset: { symbol: string; decimals: number; location: object };
}

/** The largest fee the SDK can derive from a u128 in storage (it adds 10%). */
const MAX_PADDED_FEE = (U128_MAX * 110n) / 100n;

/** Endpoints arrive as the query's `endpoint`; the pool's checks name them as a POST's apiOverrides. */
const OVERRIDE_FIELD = `options.apiOverrides.${ASSET_HUB}`;

function asQueryError(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.details?.some((d) => d.path === `body.${OVERRIDE_FIELD}`)) return error;
  return new ApiError(
    error.status,
    error.kind,
    error.message.replace(OVERRIDE_FIELD, 'query.endpoint'),
    error.details.map((d) => ({ ...d, path: 'query.endpoint' })),
  );
}

export class BridgeFeeService {
  constructor(
    private readonly pool: ConnectionPool,
    private readonly config: Config,
  ) {}

  /** Reads AssetHubPolkadot through the pool, under the request deadline; unreachable: 503 naming it. */
  async paraEthFees(req: ParaEthFeesRequest): Promise<ParaEthFees> {
    const options = { apiOverrides: req.endpoints ? { [ASSET_HUB]: req.endpoints } : {}, development: req.development };
    let fees: [bigint, bigint];
    try {
      fees = await runOnChains(this.pool, this.config, options, `Reading the Ethereum bridge fees on ${ASSET_HUB}`, async ({ apiOverrides }) => {
        // A pooled ApiPromise: the SDK uses it as is and cannot disconnect it.
        const assetHub = (await apiOverrides[ASSET_HUB]) as ApiPromise;
        return sdk.getParaEthTransferFees(assetHub);
      });
    } catch (error) {
      throw asQueryError(error);
    }
    const [bridgeFee, executionFee] = fees;
    // The SDK reads however many bytes the node stores there as one little-endian number.
    if (bridgeFee > MAX_PADDED_FEE) throw new ChainResponseError(ASSET_HUB, 'holds more than a u128 under BridgeHubEthereumBaseFee');
    return { bridgeFee, executionFee, asset: { symbol: DOT.symbol, decimals: DOT.decimals, location: DOT.location as object } };
  }
}
