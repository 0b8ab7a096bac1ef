import type { Logger } from 'pino';
import type { Config } from '../config';
import { ConnectionPool } from '../chains/pool';
import { routeAllSdkChainsThroughOverrides } from '../chains/sdk-apis';
import { ChainActivity } from '../ops/chain-activity';
import { EvmTransferService } from './evm-transfer';
import { ExplainService } from './explain';
import { PreflightService } from './preflight';
import { RouterService } from './router';
import { TransferService } from './transfers';

/** Everything below the HTTP layer that holds state; lookups are stateless functions. */
export interface Services {
  pool: ConnectionPool;
  /** Per-chain borrows and connect outcomes, for /status and /metrics. */
  chainActivity: ChainActivity;
  transfers: TransferService;
  /** Unsigned EVM transactions for transfers that start on an EVM chain. */
  evmTransfers: EvmTransferService;
  preflight: PreflightService;
  /** Cross-chain swaps; the router engine loads on its first use. */
  router: RouterService;
  /** Reads call data (or an EVM transaction) back into what it will do. */
  explain: ExplainService;
  /** Whether the service can take traffic (false while shutting down). */
  ready(): boolean;
  close(): Promise<void>;
}

export function createServices(config: Config, logger: Logger): Services {
  routeAllSdkChainsThroughOverrides();
  const chainActivity = new ChainActivity();
  const pool = new ConnectionPool({
    connectTimeoutMs: config.CONNECT_TIMEOUT_MS,
    idleTimeoutMs: config.IDLE_TIMEOUT_MS,
    maxChains: config.MAX_CHAINS,
    logger,
    observer: chainActivity,
  });
  let closing = false;
  return {
    pool,
    chainActivity,
    transfers: new TransferService(pool, config),
    evmTransfers: new EvmTransferService(config),
    preflight: new PreflightService(pool, config),
    router: new RouterService(config),
    explain: new ExplainService(pool, config),
    ready: () => !closing,
    close: async () => {
      closing = true;
      await pool.close();
    },
  };
}
