import * as http from 'node:http';
import * as https from 'node:https';
import type { Hex } from 'viem';
import { quote, type AddressGuard } from '../../chains/address-guard';
import { ApiError, ProviderUnavailableError } from '../../errors';

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

export interface EthRpcOptions {
  /** How long one answer may take; an endpoint slower than this is unavailable. */
  answerTimeoutMs: number;
  /** The request's own deadline. */
  signal: AbortSignal;
  /** Which addresses the endpoint may have: the socket connects only to addresses it checked. */
  guard: AddressGuard;
  /** The largest answer read (CHAIN_MAX_FRAME_BYTES): an endpoint is a stranger. */
  maxBytes: number;
}

/**
 * A minimal Ethereum JSON-RPC client over node:http(s): read-only calls, each bounded by the
 * answer timeout (an endpoint that does not answer is unavailable, a 503), the request's signal and
 * an answer size. The host is checked by the address guard when the socket connects (no DNS
 * rebinding window), and redirects are not followed (a public endpoint cannot send us inside).
 */
export class EthRpc {
  #nextId = 1;
  readonly #url: URL;

  constructor(
    private readonly url: string,
    private readonly options: EthRpcOptions,
  ) {
    this.#url = new URL(url);
  }

  /** The endpoint failed us (unreachable, not JSON-RPC, or an answer that makes no sense). */
  unavailable(reason: string): ProviderUnavailableError {
    return new ProviderUnavailableError('Ethereum', [redactUrl(this.url)], reason);
  }

  async request(method: string, params: unknown[]): Promise<unknown> {
    const text = await this.post(method, JSON.stringify({ jsonrpc: '2.0', id: this.#nextId++, method, params }));
    let answer: RpcAnswer;
    try {
      answer = JSON.parse(text) as RpcAnswer;
    } catch {
      throw this.unavailable(`the answer to ${method} is not JSON`);
    }
    if (typeof answer !== 'object' || answer === null) throw this.unavailable(`the answer to ${method} is not a JSON-RPC answer`);
    if (answer.error) {
      const message = typeof answer.error.message === 'string' ? answer.error.message : 'unknown error';
      // Code 3 (and geth's -32000 "execution reverted") mean the contract refused the call.
      if (answer.error.code === 3 || /revert/i.test(message)) throw new EthCallRevertedError(message);
      throw this.unavailable(`${method} failed: ${quote(message)}`);
    }
    return answer.result;
  }

  /** One POST; the answer's text, or the reason the endpoint is unavailable. */
  private post(method: string, body: string): Promise<string> {
    const { answerTimeoutMs, signal, guard, maxBytes } = this.options;
    const url = this.#url;
    const transport = url.protocol === 'https:' ? https : http;
    // Node dials an IP literal without a lookup: check it here.
    try {
      guard.checkLiteral(url.hostname);
    } catch (error) {
      return Promise.reject(this.unavailable((error as Error).message));
    }
    const timeout = AbortSignal.timeout(answerTimeoutMs);
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          lookup: guard.lookup,
          // One connection per call, closed after it: nothing is left open between requests.
          agent: false,
          signal: AbortSignal.any([signal, timeout]),
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            reject(this.unavailable(`HTTP ${res.statusCode} to ${method}`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              req.destroy();
              reject(this.unavailable(`the answer to ${method} is larger than ${maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', (error) => reject(this.failure(method, error, timeout)));
        },
      );
      req.on('error', (error) => reject(this.failure(method, error, timeout)));
      req.end(body);
    });
  }

  private failure(method: string, error: Error, timeout: AbortSignal): unknown {
    if (this.options.signal.aborted) return this.options.signal.reason;
    if (timeout.aborted) return this.unavailable(`no answer to ${method} within ${this.options.answerTimeoutMs} ms`);
    const code = (error as NodeJS.ErrnoException).code;
    return this.unavailable(code && !error.message.includes(code) ? `${error.message} (${code})` : error.message);
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
