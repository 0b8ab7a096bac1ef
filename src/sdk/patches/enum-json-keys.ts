// Patch: an enum made from JSON (`{ "<variant>": value }`) finds its variant in a map made once per
// enum type, not by lower-casing every variant's name again.
//
// Corrects: @polkadot/types-codec 16's `decodeFromJSON` (base/Enum.js), which maps each of the
// enum's variant names to lower case, searches them and reads the definition's values again for
// every enum value decoded from JSON. The SDK builds its calls from JSON (`api.tx...` of XCM
// programs: locations, junctions, assets, instructions, all enums), its dry-run origins
// (`OriginCaller`, dozens of variants) and its forced-run wraps: 3-6% of a transfer it prices by
// dry runs. The subclass that `Enum.with` makes for each enum type keeps the lower-cased names
// with their indexes (the first of a name wins, as `indexOf` does) and hands polkadot.js the
// variant's index and value, the path it takes for an index already known; a name it does not
// know (polkadot.js throws), or a value that is not a plain object, takes polkadot.js's own path.
// Errors read as polkadot.js's own (`Enum(<key>):: ...`).
//
// Still needed? Read @polkadot/types-codec base/Enum.js `decodeFromJSON`: if it no longer maps
// every name per decode (a map kept per definition), the patch can go. Remove it and run the
// guard tests.
//
// Guarded by: test/sdk/enum-json-keys.test.ts, test/http/priced-builds.test.ts.
import { leanPricing } from './lean-pricing';

type EnumClass = new (registry: unknown, value?: unknown, index?: number) => { readonly defKeys: string[]; readonly defIndexes: number[] };
interface EnumStatic {
  with(types: unknown): EnumClass;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Wraps `Enum.with` of @polkadot/types-codec (loaded with `load`, the copy polkadot.js uses) before any type is made. */
export function findEnumVariantsOnce(load: NodeJS.Require): void {
  const { Enum } = load('@polkadot/types-codec') as { Enum: EnumStatic };
  const withTypes = Enum.with.bind(Enum);
  Enum.with = (types) => {
    const Base = withTypes(types);
    /** Lower-cased variant name -> index, made from the first instance (its definition is the type's). */
    let indexOf: Map<string, number> | undefined;
    return class extends Base {
      constructor(registry: unknown, value?: unknown, index?: number) {
        const key = indexOf && index === undefined && leanPricing.on && isPlainObject(value) ? Object.keys(value)[0] : undefined;
        const known = key === undefined ? undefined : indexOf?.get(key.toLowerCase());
        if (key === undefined || known === undefined) {
          super(registry, value, index);
        } else {
          try {
            super(registry, (value as Record<string, unknown>)[key], known);
          } catch (error) {
            throw new Error(`Enum(${key}):: ${(error as Error).message}`);
          }
        }
        if (!indexOf) {
          const names = this.defKeys;
          const indexes = this.defIndexes;
          const map = new Map<string, number>();
          for (const [i, name] of names.entries()) if (!map.has(name.toLowerCase())) map.set(name.toLowerCase(), indexes[i]);
          indexOf = map;
        }
      }
    };
  };
}
