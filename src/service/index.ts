import type { Logger } from 'pino';
import type { Config } from '../config';
import { AddressGuard, type Resolve } from '../chains/address-guard';
import { setDefaultSocketContext } from '../chains/chain-socket';
import { lookupClient, namedBy } from '../chains/clients';
import { nameResolver } from '../chains/name-resolver';
import { ConnectionPool } from '../chains/pool';
import { ChainActivity } from '../ops/chain-activity';
import { patchSdk } from '../sdk';
import { BridgeFeeService, EvmTransferService } from './evm';
import { ExplainService } from './explain';
import { MetadataService } from './metadata';
import { PreflightService } from './preflight';
import { RouteCheck } from './route-check';
import { realEngine, RouterService } from './router';
import { StatusService } from './status';
import { TransferService } from './transfer';
import { createWatchService, type WatchService } from './watch';

/** Everything below the HTTP layer that holds state; lookups are stateless functions. */
export interface Services {
  pool: ConnectionPool;
  /** Per-chain borrows and connect outcomes, for /status and /metrics. */
  chainActivity: ChainActivity;
  transfers: TransferService;
  /** Unsigned EVM transactions for transfers that start on an EVM chain. */
  evmTransfers: EvmTransferService;
  /** The Ethereum bridge fees a parachain -> Ethereum transfer pays on the asset hub. */
  bridgeFees: BridgeFeeService;
  preflight: PreflightService;
  /** Cross-chain swaps; the router engine loads on its first use. */
  router: RouterService;
  /** Reads call data (or an EVM transaction) back into what it will do. */
  explain: ExplainService;
  /** Follows signed transfers from chain to chain (answered at once or streamed). */
  status: StatusService;
  /** Watches: transfers followed on a client's behalf, told by signed webhooks. */
  watches: WatchService;
  /** RFC-0078 metadata hashes and proofs (hardware wallets). */
  metadata: MetadataService;
  /** Checks every call data answer hop by hop before it is sent; /metrics observes its outcomes. */
  routeCheck: RouteCheck;
  /** Whether the service can take traffic (false while shutting down). */
  ready(): boolean;
  /** Marks the service as shutting down (`ready()` is false from now on); close() follows. */
  drain(): void;
  close(): Promise<void>;
}

/** What tests replace: name resolution (tests never resolve real DNS names). */
export interface ServiceDeps {
  resolve?: Resolve;
  /** Webhook receivers on this machine (loopback) are allowed: the sandbox, local by nature. */
  localWebhooks?: boolean;
}

/** Runs request work on behalf of a client (the HTTP layer names it): whose connection budget it spends. */
export { asClient } from '../chains/clients';

export function createServices(config: Config, logger: Logger, deps: ServiceDeps = {}): Services {
  patchSdk();
  const operatorEndpoints = Object.values(config.CHAIN_ENDPOINTS).flat();
  const chainActivity = new ChainActivity(operatorEndpoints);
  // Names clients choose are resolved by c-ares (never a thread-pool thread), a bounded number at once per client.
  const names = nameResolver({ timeoutMs: config.DNS_TIMEOUT_MS, servers: config.DNS_SERVERS });
  const lookupBound = { maxPerClient: config.DNS_MAX_LOOKUPS_PER_CLIENT, clientOf: lookupClient };
  const guard = new AddressGuard(config.ALLOW_PRIVATE_OVERRIDES, deps.resolve ?? names.resolve, lookupBound);
  // Sockets the engines open on their own (outside the pool) obey the same policy.
  const restoreSocketDefaults = setDefaultSocketContext({ guard, maxFrameBytes: config.CHAIN_MAX_FRAME_BYTES });
  const pool = new ConnectionPool({
    connectTimeoutMs: config.CONNECT_TIMEOUT_MS,
    idleTimeoutMs: config.IDLE_TIMEOUT_MS,
    clientIdleTimeoutMs: config.CLIENT_IDLE_TIMEOUT_MS,
    maxChains: config.MAX_CHAINS,
    clientBudget: {
      total: config.MAX_OVERRIDE_CONNECTIONS,
      perClient: config.MAX_OVERRIDE_CONNECTIONS_PER_CLIENT,
      perHost: config.MAX_OVERRIDE_CONNECTIONS_PER_HOST,
    },
    // The operator's endpoints are the shared registry: one connection per chain, whoever asks.
    namedBy: (chain, endpoints) => namedBy(chain, endpoints, config.CHAIN_ENDPOINTS),
    guard,
    operatorEndpoints,
    maxFrameBytes: config.CHAIN_MAX_FRAME_BYTES,
    maxDecoding: config.MAX_METADATA_DECODING,
    decodesPerClientPerMinute: config.METADATA_DECODES_PER_CLIENT_PER_MINUTE,
    logger,
    observer: chainActivity,
  });
  let closing = false;
  const status = new StatusService(pool, config);
  // Webhooks pass the same guard, and with `localWebhooks` this machine's receivers too.
  const webhookGuard = deps.localWebhooks ? new AddressGuard(config.ALLOW_PRIVATE_OVERRIDES, deps.resolve ?? names.resolve, lookupBound, true) : guard;
  const watches = createWatchService(config, status, webhookGuard, logger);
  const metadata = new MetadataService(pool, config);
  const routeCheck = new RouteCheck(logger);
  return {
    pool,
    chainActivity,
    transfers: new TransferService(pool, config, metadata, routeCheck),
    evmTransfers: new EvmTransferService(config, pool, routeCheck),
    bridgeFees: new BridgeFeeService(pool, config),
    preflight: new PreflightService(pool, config),
    router: new RouterService(config, realEngine, pool, routeCheck),
    explain: new ExplainService(pool, config),
    status,
    watches,
    metadata,
    routeCheck,
    ready: () => !closing,
    drain: () => {
      closing = true;
      // Open streams end now (each sends what it knows): their clients can ask another instance.
      status.close();
    },
    close: async () => {
      closing = true;
      // Watches first: this process lets go of them (with Redis another replica carries on).
      await watches.close();
      status.close();
      await pool.close();
      names.close();
      restoreSocketDefaults();
    },
  };
}
