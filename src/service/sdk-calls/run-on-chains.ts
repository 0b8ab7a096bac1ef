import type { Config } from '../../config';
import type { ConnectionPool } from '../../chains/pool';
import { createChainScope } from '../../chains/chain-scope';
import { withDeadline } from '../../chains/deadline';
import type { TransferOptions } from '../../schemas/transfer';
import { checkOverrideHosts, endpointResolver } from './override-endpoints';
import { fromChainFailure, fromSdkError, type ChainUsed } from './sdk-errors';

export interface ChainCall {
  /** What the SDK gets as `apiOverrides`: every chain it touches is borrowed from our pool. */
  apiOverrides: Record<string, unknown>;
  /** A chain the work reaches beyond those the request asked for, through the client's own budget (`ChainScope.own`). */
  own(chain: string): Promise<unknown>;
  signal: AbortSignal;
  /** Every chain the work asked for so far. */
  chains(): string[];
}

/**
 * Runs SDK work that reaches chains: through the pool, under the request deadline, with SDK
 * failures translated. Borrowed connections go back to the pool even when the deadline wins.
 */
export async function runOnChains<T>(
  pool: ConnectionPool,
  config: Config,
  options: Pick<TransferOptions, 'apiOverrides' | 'development'>,
  what: string,
  work: (call: ChainCall) => Promise<T>,
): Promise<T> {
  await checkOverrideHosts(options.apiOverrides, pool.guard);
  const resolve = endpointResolver(options, config.CHAIN_ENDPOINTS);
  let release = (): void => undefined;
  let used: readonly ChainUsed[] = [];
  try {
    return await withDeadline(
      async (signal) => {
        const scope = createChainScope(pool, resolve, signal);
        release = scope.release;
        used = scope.leases;
        return work({ apiOverrides: scope.apiOverrides, own: scope.own, signal, chains: scope.chains });
      },
      config.REQUEST_TIMEOUT_MS,
      what,
    );
  } catch (error) {
    throw fromChainFailure(error, used) ?? fromSdkError(error);
  } finally {
    release();
  }
}
