// Call data read straight from its bytes into the view the walk reads (walk-types.ts CallView: the
// arguments as polkadot.js's toJSON spells them), without polkadot.js's codec objects: its decode
// and toJSON were three quarters of the check of bytes never seen (docs/performance.md, "The route
// check"). The readers follow the type definitions polkadot.js itself derives from the metadata
// (registry.lookup.getTypeDef), compiled once per runtime and type, and spell each value as its
// codec's toJSON does. Whatever they do not read exactly as polkadot.js would (a type they do not
// know, a byte polkadot.js reads leniently: an Option or bool tag other than 0 or 1, an index
// past the variants, truncated or trailing bytes) is not read here, and the caller decodes those
// bytes with polkadot.js as before: the view is the same either way, or polkadot.js's own error.
import type { TypeDef } from '@polkadot/types-create/types';
import type { Registry } from '@polkadot/types/types';
import { polkadotUtil } from '../../sdk';
import type { CallView } from './walk-types';

/** polkadot.js's TypeDefInfo values (@polkadot/types-create), the kinds read here. */
const INFO = { Compact: 2, Enum: 4, Null: 8, Option: 9, Plain: 10, Si: 15, Struct: 16, Tuple: 17, Vec: 19, VecFixed: 20 } as const;

/**
 * Thrown where bytes are not read as polkadot.js would read them: the caller decodes them with
 * polkadot.js. One instance, made once: an Error made at each throw would record a stack trace,
 * dearer than the read.
 */
const UNREADABLE = new Error('call-reader: not read here');

class Bytes {
  at = 0;
  constructor(readonly u8a: Uint8Array) {}

  take(length: number): number {
    const start = this.at;
    if (length > this.u8a.length - start) throw UNREADABLE;
    this.at = start + length;
    return start;
  }

  byte(): number {
    return this.u8a[this.take(1)]!;
  }
}

type Read = (bytes: Bytes) => unknown;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** `length` bytes from `start` as hex, in order (little-endian when `reverse` is false). */
function hexOf(u8a: Uint8Array, start: number, length: number, reverse = false): string {
  let out = '0x';
  for (let i = 0; i < length; i++) out += HEX[u8a[reverse ? start + length - 1 - i : start + i]!];
  return out;
}

/**
 * An unsigned integer of `bits` stored little-endian in `length` bytes from `start`, as polkadot.js's
 * toJSON spells it: a number up to 52 bits, else hex padded to the type's width (AbstractInt.toJSON).
 */
function uintJson(u8a: Uint8Array, start: number, length: number, bits: number): number | string {
  let top = length;
  while (top > 0 && u8a[start + top - 1] === 0) top--;
  if (top * 8 > bits) throw UNREADABLE;
  if (top <= 6 || (top === 7 && u8a[start + 6]! < 0x10)) {
    let value = 0;
    for (let i = top - 1; i >= 0; i--) value = value * 256 + u8a[start + i]!;
    return value;
  }
  let out = '0x' + '00'.repeat(bits / 8 - top);
  for (let i = top - 1; i >= 0; i--) out += HEX[u8a[start + i]!];
  return out;
}

const UINT_BITS: Record<string, number> = { u8: 8, u16: 16, u32: 32, u64: 64, u128: 128 };

/** A SCALE compact integer's value as the inner type's toJSON spells it. */
function compact(bits: number): Read {
  return (bytes) => {
    const u8a = bytes.u8a;
    const first = u8a[bytes.at];
    if (first === undefined) throw UNREADABLE;
    const mode = first & 3;
    let value: number;
    if (mode === 0) value = bytes.byte() >>> 2;
    else if (mode === 1) {
      const at = bytes.take(2);
      value = (u8a[at]! | (u8a[at + 1]! << 8)) >>> 2;
    } else if (mode === 2) {
      const at = bytes.take(4);
      value = (u8a[at]! | (u8a[at + 1]! << 8) | (u8a[at + 2]! << 16) | (u8a[at + 3]! << 24)) >>> 2;
    } else {
      const length = (first >>> 2) + 4;
      return uintJson(u8a, bytes.take(1 + length) + 1, length, bits);
    }
    if (bits < 32 && value >= 2 ** bits) throw UNREADABLE;
    return value;
  };
}

/** A compact length (of a Vec or Bytes): at most what polkadot.js decodes, and no more than the bytes left. */
function lengthOf(bytes: Bytes): number {
  const value = compact(32)(bytes);
  if (typeof value !== 'number' || value > 65_536 || value > bytes.u8a.length - bytes.at) throw UNREADABLE;
  return value;
}

/** Readers of types not read here: a call whose argument has one is left to polkadot.js without reading. */
const NOT_READ = new WeakSet<Read>();

function unreadable(): Read {
  const read: Read = () => {
    throw UNREADABLE;
  };
  NOT_READ.add(read);
  return read;
}

/** The readers of one runtime's types, compiled at first use. */
class TypeReaders {
  private readonly byId = new Map<number, Read>();

  constructor(private readonly registry: Registry) {}

  byLookup(id: number): Read {
    const kept = this.byId.get(id);
    if (kept) return kept;
    let read: Read | undefined;
    // Recursive types (an XCM program inside an instruction) reach themselves while compiling.
    this.byId.set(id, (bytes) => read!(bytes));
    read = this.compile(this.registry.lookup.getTypeDef(id));
    this.byId.set(id, read);
    return read;
  }

  private compile(def: TypeDef): Read {
    const sub = def.sub;
    switch (def.info) {
      case INFO.Si: {
        const id = /^Lookup(\d+)$/.exec(def.type)?.[1];
        return id === undefined ? unreadable() : this.byLookup(Number(id));
      }
      case INFO.Null:
        return () => null;
      case INFO.Plain:
        return this.plain(def.type);
      case INFO.Compact: {
        const bits = !Array.isArray(sub) && sub?.info === INFO.Plain ? UINT_BITS[sub.type] : undefined;
        return bits === undefined ? unreadable() : compact(bits);
      }
      case INFO.Option: {
        if (Array.isArray(sub) || !sub || (sub.info === INFO.Plain && sub.type === 'bool')) return unreadable();
        const inner = this.compile(sub);
        return (bytes) => {
          const tag = bytes.byte();
          if (tag === 0) return null;
          if (tag !== 1) throw UNREADABLE;
          return inner(bytes);
        };
      }
      case INFO.Vec: {
        if (Array.isArray(sub) || !sub || sub.info === INFO.Plain && sub.type === 'u8') return unreadable();
        const item = this.compile(sub);
        return (bytes) => {
          const length = lengthOf(bytes);
          const out: unknown[] = [];
          for (let i = 0; i < length; i++) out.push(item(bytes));
          return out;
        };
      }
      case INFO.VecFixed: {
        const length = def.length;
        if (Array.isArray(sub) || !sub || length === undefined) return unreadable();
        if (sub.info === INFO.Plain && sub.type === 'u8') return (bytes) => hexOf(bytes.u8a, bytes.take(length), length);
        const item = this.compile(sub);
        return (bytes) => {
          const out: unknown[] = [];
          for (let i = 0; i < length; i++) out.push(item(bytes));
          return out;
        };
      }
      case INFO.Tuple: {
        if (!Array.isArray(sub)) return unreadable();
        const items = sub.map((s) => this.compile(s));
        return (bytes) => items.map((item) => item(bytes));
      }
      case INFO.Struct: {
        if (!Array.isArray(sub) || sub.some((s) => s.name === undefined)) return unreadable();
        // Struct.toJSON names a field by its alias where the definition gives one.
        const fields = sub.map((s) => [def.alias?.get(s.name!) ?? s.name!, this.compile(s)] as const);
        return (bytes) => {
          const out: Record<string, unknown> = {};
          for (const [name, read] of fields) out[name] = read(bytes);
          return out;
        };
      }
      case INFO.Enum:
        return this.enumeration(def);
      default:
        return unreadable();
    }
  }

  private plain(type: string): Read {
    const bits = UINT_BITS[type];
    if (bits !== undefined) {
      const length = bits / 8;
      return (bytes) => uintJson(bytes.u8a, bytes.take(length), length, bits);
    }
    if (type === 'bool') {
      return (bytes) => {
        const value = bytes.byte();
        if (value > 1) throw UNREADABLE;
        return value === 1;
      };
    }
    if (type === 'Bytes') {
      return (bytes) => {
        const length = lengthOf(bytes);
        return hexOf(bytes.u8a, bytes.take(length), length);
      };
    }
    if (type === 'H256' || type === 'H160') {
      const length = type === 'H256' ? 32 : 20;
      return (bytes) => hexOf(bytes.u8a, bytes.take(length), length);
    }
    return unreadable();
  }

  /** Enum.toJSON: a basic enum (no variant carries a value) is its variant's name, else `{ camelCaseName: value }`. */
  private enumeration(def: TypeDef): Read {
    const sub = def.sub;
    if (!Array.isArray(sub) || sub.some((s) => s.name === undefined)) return unreadable();
    const variants = new Map<number, { name: string; read: Read }>();
    if (sub.every((s) => s.info === INFO.Null)) {
      // polkadot.js indexes a basic enum by each variant's index.
      sub.forEach((s, position) => {
        if (!s.name!.startsWith('__Unused')) variants.set(s.index || position, { name: s.name!, read: () => null });
      });
      return (bytes) => {
        const variant = variants.get(bytes.byte());
        if (!variant) throw UNREADABLE;
        return variant.name;
      };
    }
    // Any other by its position in the definition: read here only where that is its index.
    if (sub.some((s, position) => s.index !== undefined && s.index !== position)) return unreadable();
    sub.forEach((s, position) => {
      if (!s.name!.startsWith('__Unused')) variants.set(position, { name: polkadotUtil.stringCamelCase(s.name!), read: this.compile(s) });
    });
    return (bytes) => {
      const variant = variants.get(bytes.byte());
      if (!variant) throw UNREADABLE;
      return { [variant.name]: variant.read(bytes) };
    };
  }
}

interface CallShape {
  section: string;
  method: string;
  args: [string, Read][];
}

/** Call data read into views with one runtime's metadata. */
export class CallReader {
  private readonly types: TypeReaders;
  private readonly calls = new Map<number, CallShape | null>();

  constructor(private readonly registry: Registry) {
    this.types = new TypeReaders(registry);
  }

  /**
   * The view of call data `hex` (what viewOf of polkadot.js's decode gives), or null where these
   * readers cannot tell it exactly (a batch or a proxy, a type or byte they do not read, bytes left
   * over): decode those with polkadot.js.
   */
  view(hex: string): CallView | null {
    const u8a = Buffer.from(hex.slice(2), 'hex');
    if (!hex.startsWith('0x') || u8a.length * 2 !== hex.length - 2 || u8a.length < 2) return null;
    const shape = this.shape(u8a[0]!, u8a[1]!);
    if (!shape) return null;
    const bytes = new Bytes(u8a);
    bytes.at = 2;
    const args: Record<string, unknown> = {};
    try {
      for (const [name, read] of shape.args) args[name] = read(bytes);
    } catch (error) {
      if (error === UNREADABLE) return null;
      throw error;
    }
    return bytes.at === u8a.length ? { section: shape.section, method: shape.method, args } : null;
  }

  private shape(pallet: number, call: number): CallShape | null {
    const key = pallet * 256 + call;
    const kept = this.calls.get(key);
    if (kept !== undefined) return kept;
    let shape: CallShape | null = null;
    try {
      const { section, method, meta } = this.registry.findMetaCall(new Uint8Array([pallet, call]));
      // Calls inside a call are walked from polkadot.js's decode (read-calls.ts).
      if (section !== 'utility' && section !== 'proxy') {
        // Call.argsEntries names each argument as the metadata does (param<i> when it has no name).
        const args = meta.fields.map((f, i): [string, Read] => [f.name.unwrapOr(`param${i}`).toString(), this.types.byLookup(f.type.toNumber())]);
        if (!args.some(([, read]) => NOT_READ.has(read))) shape = { section, method, args };
      }
    } catch {
      shape = null;
    }
    this.calls.set(key, shape);
    return shape;
  }
}
