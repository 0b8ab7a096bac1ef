import { distinctEndpoints } from '../chains/endpoint';
import type { RuntimeOrigin } from '../chains/connect';
import type { PoolObserver } from '../chains/pool';
import { DeadlineExceededError } from '../errors';
import { rpcProvider, sdk, type ApiPromise } from '../sdk';

/** Why a connect failed, as a bounded label (the full message stays in the logs). */
export type ConnectFailure = 'timeout' | 'refused' | 'dns' | 'closed' | 'cancelled' | 'other';

export function classifyConnectFailure(error: unknown): ConnectFailure {
  if (error instanceof DeadlineExceededError) return 'cancelled';
  const text = error instanceof Error ? error.message : String(error);
  if (/pool is closed|evicted|idle|abort/i.test(text)) return 'cancelled';
  if (/within \d+ ms|timed? ?out/i.test(text)) return 'timeout';
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/i.test(text)) return 'dns';
  if (/ECONNREFUSED|refused|socket error/i.test(text)) return 'refused';
  if (/closed|disconnect/i.test(text)) return 'closed';
  return 'other';
}

export interface ChainRecord {
  /** Connections to this chain lent to a request (one request can borrow several chains); a failed connect lends none. */
  requestsServed: number;
  connectAttempts: number;
  failures: Partial<Record<ConnectFailure, number>>;
  /** Connects by where their decoded runtime came from (`decoded`: a metadata decode). */
  runtimes: Partial<Record<RuntimeOrigin, number>>;
  connectedAt?: Date;
  /** A registry (or operator) endpoint, or `override` when the connection used a caller's own URL. */
  endpoint?: string;
  lastFailure?: { reason: ConnectFailure; at: Date };
}

/** The endpoint an api was opened on (its RPC core's provider: one on a shared runtime keeps none in its options). */
function endpointOf(api: ApiPromise): string | undefined {
  const provider = rpcProvider(api) as { endpoint?: unknown };
  return typeof provider.endpoint === 'string' ? provider.endpoint : undefined;
}

function isRegistryEndpoint(chain: string, url: string): boolean {
  try {
    return sdk.getChainProviders(chain as Parameters<typeof sdk.getChainProviders>[0]).includes(url);
  } catch {
    return false;
  }
}

/**
 * Per-chain counts and the latest connect outcome, fed by the connection pool. Caller-supplied
 * override URLs are never kept: they belong to another client.
 */
export class ChainActivity implements PoolObserver {
  readonly #chains = new Map<string, ChainRecord>();
  /** The operator's own endpoints (CHAIN_ENDPOINTS), shown like the registry's. */
  readonly #operator: ReadonlySet<string>;

  constructor(operatorEndpoints: readonly string[] = []) {
    this.#operator = new Set(distinctEndpoints(operatorEndpoints));
  }

  #record(chain: string): ChainRecord {
    let record = this.#chains.get(chain);
    if (!record) {
      record = { requestsServed: 0, connectAttempts: 0, failures: {}, runtimes: {} };
      this.#chains.set(chain, record);
    }
    return record;
  }

  acquired(chain: string): void {
    this.#record(chain).requestsServed++;
  }

  connected(chain: string, api: ApiPromise, runtime: RuntimeOrigin): void {
    const record = this.#record(chain);
    record.connectAttempts++;
    record.runtimes[runtime] = (record.runtimes[runtime] ?? 0) + 1;
    record.connectedAt = new Date();
    const url = endpointOf(api);
    record.endpoint = url && (this.#operator.has(url) || isRegistryEndpoint(chain, url)) ? url : 'override';
  }

  failed(chain: string, error: unknown): void {
    const record = this.#record(chain);
    const reason = classifyConnectFailure(error);
    record.connectAttempts++;
    record.failures[reason] = (record.failures[reason] ?? 0) + 1;
    record.lastFailure = { reason, at: new Date() };
  }

  chains(): ReadonlyMap<string, Readonly<ChainRecord>> {
    return this.#chains;
  }
}
