import { isIP } from 'node:net';
import type { TChain } from '@paraspell/sdk-pjs';
import { ApiError, badRequest } from '../errors';
import { sdk } from '../sdk';
import type { TransferOptions } from '../schemas/transfer';

const PRIVATE_V4 = [
  [0x0a000000, 8], // 10.0.0.0/8
  [0x7f000000, 8], // 127.0.0.0/8
  [0xac100000, 12], // 172.16.0.0/12
  [0xc0a80000, 16], // 192.168.0.0/16
  [0xa9fe0000, 16], // 169.254.0.0/16 (link-local, cloud metadata)
  [0x64400000, 10], // 100.64.0.0/10 (carrier-grade NAT)
  [0x00000000, 8], // 0.0.0.0/8
] as const;

function isPrivateHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal')) return true;
  const family = isIP(name);
  if (family === 4) {
    const n = name.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
    return PRIVATE_V4.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));
  }
  if (family === 6) {
    if (name === '::1' || name === '::') return true;
    if (name.startsWith('::ffff:')) return isPrivateHost(name.slice(7));
    return /^(fc|fd|fe8|fe9|fea|feb)/.test(name);
  }
  return false;
}

/**
 * Caller-supplied endpoints make this service dial out; loopback and private hosts are refused
 * unless the operator allows them (ALLOW_PRIVATE_OVERRIDES), so a request cannot probe the
 * operator's own network.
 */
export function checkOverrideHosts(overrides: TransferOptions['apiOverrides'], allowPrivate: boolean): void {
  if (allowPrivate) return;
  for (const [chain, urls] of Object.entries(overrides)) {
    for (const url of urls ?? []) {
      if (isPrivateHost(new URL(url).hostname)) {
        throw new ApiError(400, 'ValidationError', `options.apiOverrides.${chain}: ${url} points at a loopback or private network address, which this service does not dial`, [
          { path: `body.options.apiOverrides.${chain}`, message: 'must not point at a loopback or private network address' },
        ]);
      }
    }
  }
}

/** The endpoints for a chain: the caller's override, else the registry's (never in development mode). */
export function endpointResolver(options: Pick<TransferOptions, 'apiOverrides' | 'development'>): (chain: string) => readonly string[] {
  return (chain) => {
    const override = options.apiOverrides[chain as TChain];
    if (override) return override;
    if (options.development) {
      throw badRequest('MissingChainApiError', `options.development is on and options.apiOverrides has no endpoint for ${chain}, which this request needs`);
    }
    if (chain === 'Ethereum') throw badRequest('UnsupportedOperationError', 'Ethereum is not reached through a Substrate endpoint');
    return sdk.getChainProviders(chain as Exclude<TChain, 'Ethereum'>);
  };
}
