// The router's own registry (its exchanges, their assets and pairs) without the router engine.
//
// xcm-router 11.14.8 ships one CommonJS bundle (its `exports` map allows no deep require) that
// inlines the registry data and requires, at its top, the exchanges' SDKs (Acala, Bifrost,
// Hydration), polkadot-api and ethers: loading it costs 0.5-1.8 s and 50-75 MB of RSS. Its top
// level only binds those modules to variables; the registry functions use nothing of them but
// four registry helpers of @paraspell/sdk, which are sdk-core's (the very functions sdk-pjs
// re-exports). So the bundle is compiled a second time here, with a `require` that hands it those
// helpers and a stand-in for every other module that throws if touched: tens of milliseconds and
// about 1 MB (bench/swap-lookups.ts), nothing dialled, nothing of the exchanges loaded. The engine
// (router-engine.ts) still loads the real router on the first swap. test/http/swap.test.ts checks
// this copy against the real router, answer by answer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { compileFunction } from 'node:vm';
import { sdk } from '../../sdk';

type XcmRouter = typeof import('@paraspell/xcm-router');

/** What the swap lookups and `/router/pairs` read: the router's registry, as it exports it. */
export type RouterRegistry = Pick<XcmRouter, 'EXCHANGE_CHAINS' | 'getExchangePairs' | 'getExchangeAssets' | 'getSupportedAssetsFrom' | 'getSupportedAssetsTo'>;

/** The @paraspell/sdk functions the registry functions call (a newer router may need more: the test says which). */
const REGISTRY_HELPERS = new Set(['getAssets', 'deepEqual', 'normalizeSymbol', 'reverseTransformLocation']);

const load = createRequire(__filename);

/** A module the registry must not use: any read of it is a bug of this copy, reported by name. */
function untouchable(name: string, allowed: (key: string) => unknown = () => undefined): object {
  return new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key === 'string') {
          const value = allowed(key);
          if (value !== undefined) return value;
        }
        throw new Error(`xcm-router's registry copy reached ${name}.${String(key)}, which it does not load (src/service/router/registry.ts)`);
      },
    },
  );
}

const helpers = untouchable('@paraspell/sdk', (key) => (REGISTRY_HELPERS.has(key) ? (sdk as unknown as Record<string, unknown>)[key] : undefined));

let registry: RouterRegistry | undefined;

/** The router's registry functions, compiled once on first use. */
export function routerRegistry(): RouterRegistry {
  if (registry) return registry;
  const file = load.resolve('@paraspell/xcm-router');
  const wrapper = compileFunction(readFileSync(file, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  const module = { exports: {} as Record<string, unknown> };
  const requireStandIn = (id: string): object => (id === '@paraspell/sdk' ? helpers : untouchable(id));
  wrapper.call(module.exports, module.exports, requireStandIn, module, file, dirname(file));
  const r = module.exports as unknown as RouterRegistry;
  registry = {
    EXCHANGE_CHAINS: r.EXCHANGE_CHAINS,
    getExchangePairs: r.getExchangePairs,
    getExchangeAssets: r.getExchangeAssets,
    getSupportedAssetsFrom: r.getSupportedAssetsFrom,
    getSupportedAssetsTo: r.getSupportedAssetsTo,
  };
  return registry;
}
