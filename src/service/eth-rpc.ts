import type { Hex } from 'viem';
import { ApiError, ProviderUnavailableError } from '../errors';

/** A call the node executed and the contract reverted: the request, not the node, is at fault. */
export class EthCallRevertedError extends Error {}

/** An endpoint as it may be shown: a URL's path and query can carry an API key. */
export function redactUrl(url: string): string {
  const { protocol, host } = new URL(url);
  return `${protocol}//${host}`;
}

interface RpcAnswer {
  result?: unknown;
  error?: { code?: number; message?: string };
}

/**
 * A minimal Ethereum JSON-RPC client over fetch: read-only calls, each bounded by the connect
 * deadline (an endpoint that does not answer is unavailable, a 503) and by the request's signal.
 */
export class EthRpc {
  #nextId = 1;

  constructor(
    private readonly url: string,
    private readonly answerTimeoutMs: number,
    private readonly signal: AbortSignal,
  ) {}

  /** The endpoint failed us (unreachable, not JSON-RPC, or an answer that makes no sense). */
  unavailable(reason: string): ProviderUnavailableError {
    return new ProviderUnavailableError('Ethereum', [redactUrl(this.url)], reason);
  }

  async request(method: string, params: unknown[]): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.answerTimeoutMs);
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.#nextId++, method, params }),
        signal: AbortSignal.any([this.signal, timeout]),
      });
    } catch (error) {
      if (this.signal.aborted) throw this.signal.reason;
      if (timeout.aborted) throw this.unavailable(`no answer to ${method} within ${this.answerTimeoutMs} ms`);
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw this.unavailable(cause);
    }
    if (!response.ok) throw this.unavailable(`HTTP ${response.status} to ${method}`);
    let answer: RpcAnswer;
    try {
      answer = (await response.json()) as RpcAnswer;
    } catch {
      throw this.unavailable(`the answer to ${method} is not JSON`);
    }
    if (answer.error) {
      const message = answer.error.message ?? 'unknown error';
      // Code 3 (and geth's -32000 "execution reverted") mean the contract refused the call.
      if (answer.error.code === 3 || /revert/i.test(message)) throw new EthCallRevertedError(message);
      throw this.unavailable(`${method} failed: ${message}`);
    }
    return answer.result;
  }

  async chainId(): Promise<number> {
    const result = await this.request('eth_chainId', []);
    if (typeof result !== 'string' || !/^0x[0-9a-f]+$/i.test(result)) throw this.unavailable('eth_chainId answered no chain id');
    return Number(BigInt(result));
  }

  /** eth_call at the latest block; the answer's bytes. */
  async call(to: Hex, data: Hex): Promise<Hex> {
    const result = await this.request('eth_call', [{ to, data }, 'latest']);
    if (typeof result !== 'string' || !/^0x([0-9a-f]{2})*$/i.test(result)) throw this.unavailable('eth_call answered no bytes');
    return result as Hex;
  }

  /** Checks the endpoint serves the expected chain (a testnet endpoint would quote the wrong gateway). */
  async expectChain(chainId: number): Promise<void> {
    const actual = await this.chainId();
    if (actual !== chainId) {
      throw new ApiError(503, 'ProviderUnavailableError', `The Ethereum endpoint ${redactUrl(this.url)} serves chain id ${actual}, not ${chainId}`, undefined, { 'Retry-After': '60' });
    }
  }
}
