import type { TChain } from '@paraspell/sdk-pjs';
import { AddressRefusedError, quote, type AddressGuard } from '../../chains/address-guard';
import { distinctEndpoints, endpointParts } from '../../chains/endpoint';
import type { Config } from '../../config';
import { ApiError, TooManyLookupsError, badRequest } from '../../errors';
import { sdk } from '../../sdk';
import type { TransferOptions } from '../../schemas/transfer';

/** Distinct endpoints (after normalisation) one request may name for one chain. */
export const MAX_OVERRIDE_ENDPOINTS = 4;

const refused = (chain: string, message: string, detail: string): ApiError =>
  new ApiError(400, 'ValidationError', `options.apiOverrides.${chain}: ${message}`, [{ path: `body.options.apiOverrides.${chain}`, message: detail }]);

/**
 * Caller-supplied endpoints make this service dial out. Before anything is dialled: no
 * credentials in the URL (they would end up in logs), at most MAX_OVERRIDE_ENDPOINTS distinct
 * nodes per chain, and unless the operator allows private addresses (ALLOW_PRIVATE_OVERRIDES)
 * every address the host has must be public unicast, so a request cannot reach the operator's
 * own network. The socket checks again when it connects (names can change their answer).
 * Messages quote at most the first 200 characters of a URL.
 */
export async function checkOverrideHosts(overrides: TransferOptions['apiOverrides'], guard: AddressGuard): Promise<void> {
  checkOverrideUrls(overrides, guard);
  if (guard.allowPrivate) return;
  for (const [chain, urls = []] of Object.entries(overrides)) {
    for (const url of urls) {
      const u = new URL(url);
      try {
        await guard.addressesOf(u.hostname);
      } catch (error) {
        if (error instanceof TooManyLookupsError) throw error;
        // A name that does not resolve now may later: the connect reports it (503).
        if (!(error instanceof AddressRefusedError)) continue;
        throw refused(chain, `${quote(url)} is not a public address (${error.message}), which this service does not dial`, 'must point at a public address');
      }
    }
  }
}

/**
 * What can be judged from the URLs alone, with no DNS: credentials, the number of distinct
 * endpoints, local names and non-public IP literals. The offline checks (service/offline-checks)
 * run this; the names are resolved and checked when the request dials (`checkOverrideHosts`).
 */
export function checkOverrideUrls(overrides: TransferOptions['apiOverrides'], guard: AddressGuard): void {
  for (const [chain, urls = []] of Object.entries(overrides)) {
    const parsed = urls.map((url) => ({ url, parts: endpointParts(url) }));
    if (parsed.some(({ parts }) => parts.credentials)) {
      throw refused(chain, 'endpoint URLs must not carry credentials (user:password@)', 'must not carry credentials');
    }
    if (distinctEndpoints(urls).length > MAX_OVERRIDE_ENDPOINTS) {
      throw refused(chain, `at most ${MAX_OVERRIDE_ENDPOINTS} distinct endpoints per chain`, `must name at most ${MAX_OVERRIDE_ENDPOINTS} distinct endpoints`);
    }
    for (const { url, parts } of parsed) {
      try {
        guard.checkLiteral(parts.hostname);
      } catch (error) {
        if (!(error instanceof AddressRefusedError)) throw error;
        throw refused(chain, `${quote(url)} is not a public address (${error.message}), which this service does not dial`, 'must point at a public address');
      }
    }
  }
}

/**
 * The endpoints for a chain: the caller's override, else the operator's (CHAIN_ENDPOINTS), else the
 * registry's (never in development mode).
 */
export function endpointResolver(options: Pick<TransferOptions, 'apiOverrides' | 'development'>, operator: Config['CHAIN_ENDPOINTS']): (chain: string) => readonly string[] {
  return (chain) => {
    const override = options.apiOverrides[chain as TChain];
    if (override) return override;
    if (options.development) {
      throw badRequest('MissingChainApiError', `options.development is on and options.apiOverrides has no endpoint for ${chain}, which this request needs`);
    }
    if (chain === 'Ethereum') throw badRequest('UnsupportedOperationError', 'Ethereum is not reached through a Substrate endpoint');
    if (Object.hasOwn(operator, chain)) return operator[chain]!;
    return sdk.getChainProviders(chain as Exclude<TChain, 'Ethereum'>);
  };
}
