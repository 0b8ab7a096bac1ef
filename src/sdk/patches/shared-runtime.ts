// Patch: a connection reuses another connection's decoded runtime (metadata, type registry and the
// decorated query/tx/consts), through polkadot.js's own `source` option (what `api.clone()` uses).
//
// Corrects: every ApiPromise decodes and decorates its node's metadata again. Measured over the
// sandbox's Polkadot node: a fresh ApiPromise holds about 15 MB of heap, one made from a source
// about 2 MB. `source` also takes the source's provider (a clone of it); here the new api takes the
// provider it is given: the source's provider is swapped for the few synchronous lines of the
// constructor that read it (@polkadot/api 16.5.6: base/Decorate.js, the constructor).
//
// What a source shares is trusted by every api made from it, so the caller shares only runtimes it
// trusts (the registry's connections), and an api made here never changes the shared runtime:
// - polkadot.js does not follow runtime upgrades on such an api (`_loadMeta` subscribes only when
//   there is no source); the caller closes it when its node announces another runtime version;
// - a read at a block of another runtime would add a registry to the shared list
//   (`getBlockRegistry`): it fails instead, and a block of the same runtime is decoded with the
//   shared one.
//
// Still needed? It reads polkadot.js internals (`_rpcCore.provider`, `getBlockRegistry`,
// `_getDefaultRegistry`): on any @polkadot/api upgrade, read base/Decorate.js and base/Init.js for
// them and run the guard tests. An @polkadot/api that takes a provider beside `source`, or shares
// decorated runtimes between instances itself, makes this file unnecessary.
//
// Guarded by: test/chains/shared-runtimes.test.ts, all 3 tests (shares the registry and reads;
// keeps reading once the registry connection is gone; another runtime gets a registry of its own).
import type { ApiPromise } from '@polkadot/api';
import type { ProviderInterface } from '@polkadot/rpc-provider/types';
import { firstValueFrom, type Observable } from 'rxjs';
import { polkadotApi } from '../load';

/** The runtime a node runs: what two connections must agree on to share a decoded runtime. */
export interface RuntimeVersionKey {
  genesisHash: string;
  specName: string;
  specVersion: number;
}

/** `genesisHash-specVersion`, polkadot.js's own key for a runtime's metadata. */
export const runtimeKey = (version: Pick<RuntimeVersionKey, 'genesisHash' | 'specVersion'>): string => `${version.genesisHash}-${version.specVersion}`;

/** The runtime `api` decodes with now. */
export function runtimeOf(api: ApiPromise): RuntimeVersionKey {
  return { genesisHash: api.genesisHash.toHex(), specName: api.runtimeVersion.specName.toString(), specVersion: api.runtimeVersion.specVersion.toNumber() };
}

interface Internals {
  _rpcCore: {
    provider: unknown;
    chain: { getHeader: { raw(hash: unknown): Observable<{ parentHash: string }> } };
    state: { getRuntimeVersion: { raw(hash: unknown): Observable<{ specName: string; specVersion: number | string }> } };
  };
  _getDefaultRegistry(): unknown;
  getBlockRegistry(blockHash: Uint8Array): Promise<unknown>;
}

/**
 * A new api over `provider` (connected, to a node that runs `source`'s runtime: the caller checked)
 * that decodes with `source`'s runtime. Resolve `isReady` as any api's.
 */
export function apiOnSharedRuntime(source: ApiPromise, provider: ProviderInterface): ApiPromise {
  const core = (source as unknown as Internals)._rpcCore;
  const own = core.provider;
  core.provider = { isClonable: true, clone: () => provider };
  let api: ApiPromise;
  try {
    api = new polkadotApi.ApiPromise({ source, noInitWarn: true });
  } finally {
    core.provider = own;
  }
  // Read by others as any api's (the Hydration SDK takes `_options.provider.endpoint`); polkadot.js
  // reads it only in the constructor, where `source` came first.
  (api as unknown as { _options: { provider?: ProviderInterface } })._options.provider = provider;
  const runtime = runtimeOf(source);
  const internals = api as unknown as Internals;
  const ownCore = internals._rpcCore;
  let checked = '';
  internals.getBlockRegistry = async (blockHash) => {
    const hex = Buffer.from(blockHash).toString('hex');
    if (hex !== checked) {
      const header = await firstValueFrom(ownCore.chain.getHeader.raw(blockHash));
      const version = await firstValueFrom(ownCore.state.getRuntimeVersion.raw(header.parentHash));
      if (String(version.specName) !== runtime.specName || Number(version.specVersion) !== runtime.specVersion) {
        throw new Error(`block 0x${hex} is of runtime ${String(version.specName)} ${String(version.specVersion)}, not ${runtime.specName} ${runtime.specVersion}, which this connection decodes with`);
      }
      checked = hex;
    }
    return internals._getDefaultRegistry();
  };
  return api;
}

/**
 * The provider `api`'s RPC calls go over: what a raw subscription or call must use to be on the
 * api's own connection: the RPC core's, which every api has (`_options.provider` is set after the
 * fact on an api made here, and is a clone's source's on `api.clone()`).
 */
export function rpcProvider(api: ApiPromise): ProviderInterface {
  return (api as unknown as Internals)._rpcCore.provider as ProviderInterface;
}
