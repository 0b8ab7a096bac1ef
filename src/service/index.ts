import type { Logger } from 'pino';
import type { Config } from '../config';
import { AddressGuard, type Resolve } from '../chains/address-guard';
import { setDefaultSocketContext } from '../chains/chain-socket';
import { ConnectionPool } from '../chains/pool';
import { routeAllSdkChainsThroughOverrides } from '../chains/sdk-apis';
import { PreflightService } from './preflight';
import { RouterService } from './router';
import { TransferService } from './transfers';

/** Everything below the HTTP layer that holds state; lookups are stateless functions. */
export interface Services {
  pool: ConnectionPool;
  transfers: TransferService;
  preflight: PreflightService;
  /** Cross-chain swaps; the router engine loads on its first use. */
  router: RouterService;
  /** Whether the service can take traffic (false while shutting down). */
  ready(): boolean;
  /** Marks the service as shutting down (`ready()` is false from now on); close() follows. */
  drain(): void;
  close(): Promise<void>;
}

/** What tests replace: name resolution (tests never resolve real DNS names). */
export interface ServiceDeps {
  resolve?: Resolve;
}

export function createServices(config: Config, logger: Logger, deps: ServiceDeps = {}): Services {
  routeAllSdkChainsThroughOverrides();
  const guard = new AddressGuard(config.ALLOW_PRIVATE_OVERRIDES, deps.resolve);
  // Sockets the engines open on their own (outside the pool) obey the same policy.
  setDefaultSocketContext({ guard, maxFrameBytes: config.CHAIN_MAX_FRAME_BYTES });
  const pool = new ConnectionPool({
    connectTimeoutMs: config.CONNECT_TIMEOUT_MS,
    idleTimeoutMs: config.IDLE_TIMEOUT_MS,
    maxChains: config.MAX_CHAINS,
    guard,
    maxFrameBytes: config.CHAIN_MAX_FRAME_BYTES,
    maxDecoding: config.MAX_METADATA_DECODING,
    logger,
  });
  let closing = false;
  return {
    pool,
    transfers: new TransferService(pool, config),
    preflight: new PreflightService(pool, config),
    router: new RouterService(config, undefined, pool),
    ready: () => !closing,
    drain: () => {
      closing = true;
    },
    close: async () => {
      closing = true;
      await pool.close();
    },
  };
}
