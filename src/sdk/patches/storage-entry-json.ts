// Patch: a storage entry's JSON (what keys polkadot.js's query memo) is made once per runtime.
//
// Corrects: @polkadot/api 16 keys its RPC memo (`memoize` in rpc-core, and again to let the entry
// go: `unmemoize`) with `stringify` of the query's arguments, and a storage read's arguments hold
// the storage entry's function, whose `toJSON` (@polkadot/types' `createFunction`) converts the
// entry's metadata codec to JSON again every time: a read of System.Account or Tokens.Accounts
// walks its metadata, docs and all, twice. The SDK reads accounts and balances several times per
// priced transfer (2-4% of a transfer it prices by dry runs). The metadata is the runtime's: the
// same JSON for as long as the function lives (a runtime upgrade decorates new functions). Made on
// the first ask, frozen, and given to every later one.
//
// Still needed? Read @polkadot/types metadata/decorate/storage/createFunction.js `createWithMeta`:
// if `toJSON` keeps its result (or rpc-core keys the memo without it), the patch can go. Remove it
// and run the guard tests.
//
// Guarded by: test/sdk/storage-entry-json.test.ts (the same JSON, made once), test/http/priced-builds.test.ts.
import { leanPricing } from './lean-pricing';

type StorageFn = ((...args: unknown[]) => unknown) & { toJSON(): unknown };
type CreateFunction = (registry: unknown, itemFn: unknown, options: unknown) => StorageFn;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Wraps @polkadot/types' `createFunction` (loaded with `load`, the SDK's copy) before any metadata is decorated. */
export function makeStorageEntryJsonOnce(load: NodeJS.Require): void {
  const module = load('@polkadot/types/cjs/metadata/decorate/storage/createFunction') as { createFunction: CreateFunction };
  const { createFunction } = module;
  module.createFunction = (registry, itemFn, options) => {
    const fn = createFunction(registry, itemFn, options);
    const toJSON = fn.toJSON.bind(fn);
    let json: unknown;
    fn.toJSON = () => (leanPricing.on ? (json ??= deepFreeze(toJSON())) : toJSON());
    return fn;
  };
}
