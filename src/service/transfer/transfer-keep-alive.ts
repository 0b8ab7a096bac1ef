import type { ApiPromise } from '../../sdk';
import { badRequest } from '../../errors';

type Extrinsic = ReturnType<ApiPromise['tx']>;

/**
 * sdk-pjs 11 has no keep-alive switch and is inconsistent about it: native local transfers use
 * `transfer_keep_alive`, most asset pallets use `transfer` (which may reap the account), and
 * `transfer_all` is built with `keep_alive: false`. We rebuild the local call so that it does
 * what the caller asked: keepAlive true (the default) never takes the account below its
 * existential deposit; false allows it to be reaped.
 */
const KEEP_ALIVE: Record<string, string> = { transfer: 'transferKeepAlive', transferAllowDeath: 'transferKeepAlive' };
const ALLOW_DEATH: Record<string, string> = { transferKeepAlive: 'transferAllowDeath' };

function pick(api: ApiPromise, section: string, candidates: string[]): string | undefined {
  const pallet = api.tx[section];
  return candidates.find((m) => pallet?.[m] !== undefined);
}

export function applyKeepAlive(api: ApiPromise, tx: Extrinsic, keepAlive: boolean): Extrinsic {
  const { section, method, args, meta } = tx.method;

  if (method === 'transferAll') {
    const index = meta.args.findIndex((a) => ['keepAlive', 'keep_alive'].includes(a.name.toString()));
    if (index < 0) return tx;
    const next = [...args] as unknown[];
    next[index] = keepAlive;
    return api.tx[section][method](...next);
  }

  if (section === 'currencies' && method === 'transfer') {
    // orml Currencies has no keep-alive variant; Tokens (same arguments) does.
    if (!keepAlive) return tx;
    if (!api.tx.tokens?.transferKeepAlive) {
      throw badRequest('UnsupportedOperationError', 'keepAlive: true is not available for this asset: the chain has no keep-alive transfer for it');
    }
    return api.tx.tokens.transferKeepAlive(...args);
  }

  const wanted = keepAlive ? KEEP_ALIVE[method] : ALLOW_DEATH[method];
  if (!wanted) return tx;
  const target = pick(api, section, keepAlive ? [wanted] : [wanted, 'transfer']);
  if (!target) {
    throw badRequest('UnsupportedOperationError', `keepAlive: ${keepAlive} is not available for ${section}.${method} on this chain`);
  }
  return api.tx[section][target](...args);
}
