// Patch: an api that decodes a runtime (detached-runtime.ts's) gives the event loop back between the
// pieces of the decode, instead of holding it from the metadata answer to ready.
//
// Corrects: @polkadot/api 16.5.6 (base/Init.js) decodes the metadata answer (`new Metadata` in
// `_retrieveMetadata`), sets the registry up from it (`_initRegistry`), checks its types
// (`getUniqTypes`) and decorates the api (`_initFromMeta`) with nothing but microtasks between them:
// one task of 170-250 ms of CPU for Asset Hub's metadata, which every other client's request
// arriving meanwhile waits for. Here that api's own `_retrieveMetadata` and `_metaFromChain` are
// wrapped so that a turn (`turn`, the caller's: src/chains/turns.ts) is taken after the decode,
// after the latest form of the metadata is built (`asLatest`: a conversion for v14 and v15, kept by
// the metadata), after the registry is set up and after the type check. The pieces run on the same
// objects in polkadot.js's order, but for the type check, which runs just after `_metaFromChain`
// instead of at its end (it only warns: `throwOnUnknown` is not set). Each piece is still one task
// (figures in docs/security.md, "Decoded runtimes"): splitting them means rewriting polkadot.js.
//
// Still needed? On an @polkadot/api upgrade, read base/Init.js `_loadMeta`, `_metaFromChain` and
// `_retrieveMetadata`: if they await a macrotask between these pieces themselves, or the names
// changed (the wrappers then wrap nothing: `decodeInTurns` throws), revisit this file.
//
// Guarded by: test/chains/runtime-cache.test.ts ("another client's work gets turns while a runtime
// is decoded").
import type { ApiPromise } from '@polkadot/api';
import type { Metadata } from '@polkadot/types';
import { SliceClock } from '../../chains/slice-clock';

interface InitSteps {
  _retrieveMetadata(...args: unknown[]): Promise<Metadata>;
  _metaFromChain(...args: unknown[]): Promise<unknown>;
}

/**
 * CPU a slice of the type check may take before it gives the loop a turn. 10 ms, a request's decode
 * slice (read-budget.ts): a client's runtime decode costs other clients what its requests' do. A
 * pallet's reads are not split, so a slice may run past it.
 */
const SLICE_MS = 10;

/**
 * Each pallet's type definitions, read in `getUniqTypes`'s order (metadata/util/getUniqTypes.js
 * `getPalletNames`): the lookup keeps each (`getTypeDef`), so the check that follows reads them
 * kept. One reader a pallet.
 */
function palletTypeReads(metadata: Metadata): (() => void)[] {
  const { lookup, pallets } = metadata.asLatest;
  type TypeId = Parameters<typeof lookup.getTypeDef>[0];
  const types = (list: { type: TypeId }[]) => list.forEach(({ type }) => lookup.getTypeDef(type));
  const variants = (type: TypeId) => lookup.getSiType(type).def.asVariant.variants.forEach(({ fields }) => types(fields));
  return pallets.map(({ calls, constants, events, storage }) => () => {
    types(constants);
    if (calls.isSome) variants(calls.unwrap().type);
    if (events.isSome) variants(events.unwrap().type);
    if (storage.isNone) return;
    for (const { type } of storage.unwrap().items) {
      if (type.isPlain) {
        lookup.getTypeDef(type.asPlain);
        continue;
      }
      const { hashers, key, value } = type.asMap;
      lookup.getTypeDef(value);
      if (hashers.length === 1) lookup.getTypeDef(key);
      else lookup.getSiType(key).def.asTuple.forEach((t) => lookup.getTypeDef(t));
    }
  });
}

/**
 * The type check `_metaFromChain` runs last, moved out of it: a no-op on `metadata` until the
 * returned check runs, which reads the type definitions pallet by pallet, a turn after each
 * `SLICE_MS` of CPU, then runs polkadot.js's own check over them (kept by then).
 */
function deferTypeCheck(metadata: Metadata, turn: () => Promise<void>): () => Promise<void> {
  const own = metadata as unknown as { getUniqTypes(throwError: boolean): string[] };
  own.getUniqTypes = () => [];
  return async () => {
    delete (own as Partial<typeof own>).getUniqTypes;
    const slice = new SliceClock(SLICE_MS, { turn });
    for (const read of palletTypeReads(metadata)) {
      read();
      if (slice.over()) await slice.next();
    }
    own.getUniqTypes(false);
  };
}

/**
 * Makes `api` (constructed, not yet loading its metadata: its provider not yet connected) take a
 * `turn` between the pieces of its metadata decode. Only for an api at the chain's head (the
 * registries of other blocks are decoded by `_retrieveMetadata` too, with an `at`: left as they are).
 */
export function decodeInTurns(api: ApiPromise, turn: () => Promise<void>): void {
  const steps = api as unknown as InitSteps;
  const retrieve = steps._retrieveMetadata;
  const metaFromChain = steps._metaFromChain;
  if (typeof retrieve !== 'function' || typeof metaFromChain !== 'function') throw new Error('@polkadot/api: _retrieveMetadata or _metaFromChain is gone (src/sdk/patches/decode-in-turns.ts)');
  let checkTypes: (() => Promise<void>) | undefined;
  steps._retrieveMetadata = async function (this: unknown, ...args: unknown[]) {
    const metadata = await retrieve.apply(this, args);
    if (args[1] !== undefined) return metadata; // a block's: not the decode this patch is for
    await turn();
    void metadata.asLatest;
    await turn();
    checkTypes = deferTypeCheck(metadata, turn);
    return metadata;
  };
  steps._metaFromChain = async function (this: unknown, ...args: unknown[]) {
    const result = await metaFromChain.apply(this, args);
    await turn();
    if (checkTypes) {
      await checkTypes();
      checkTypes = undefined;
      await turn();
    }
    return result;
  };
}
