// Patch: a type registry works out its signed extensions' types once, not for every extrinsic made.
//
// Corrects: the CPU of @polkadot/types 16's `TypeRegistry.getSignedExtensionTypes`, which expands
// the runtime's signed extensions into their types (an object spread per extension) each time it
// is called, and polkadot.js calls it for every extrinsic object it makes: each transaction the SDK
// builds (`api.tx.<pallet>.<call>(...)`, a batch, a dispatchAs wrap) makes one with an empty
// signature. An /xcm-fee answer of the teleport makes six: 2.6% of its CPU went there. The
// answer depends only on the registry's signed and user extensions, which change only through
// `setSignedExtensions` (when the registry gets its metadata): kept per registry until then, and
// every caller gets its own copy.
//
// Still needed? Read @polkadot/types create/registry.js `getSignedExtensionTypes`: if it keeps its
// result (or the extrinsic classes stop asking per instance), the patch can go. Remove it and run
// the guard tests.
//
// Guarded by: test/sdk/signed-extension-types.test.ts.
import { polkadotTypes } from '../load';

type ExtensionTypes = Record<string, string>;

interface RegistryProto {
  getSignedExtensionTypes(): ExtensionTypes;
  setSignedExtensions(...args: unknown[]): void;
}

export function expandSignedExtensionTypesOnce(): void {
  const proto = polkadotTypes.TypeRegistry.prototype as unknown as RegistryProto;
  const { getSignedExtensionTypes, setSignedExtensions } = proto;
  const kept = new WeakMap<object, ExtensionTypes>();
  proto.setSignedExtensions = function (this: RegistryProto, ...args) {
    kept.delete(this);
    setSignedExtensions.apply(this, args);
  };
  proto.getSignedExtensionTypes = function (this: RegistryProto) {
    let types = kept.get(this);
    if (!types) kept.set(this, (types = getSignedExtensionTypes.call(this)));
    return { ...types };
  };
}
