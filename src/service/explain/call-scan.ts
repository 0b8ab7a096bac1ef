// A bounded scan of call data before polkadot.js decodes it (issue 42). Walking the runtime's own
// lookup types over the bytes, it builds no codec objects: for each argument that may hold an XCM
// program it writes a sketch of what `toJSON()` would give (the keys, lists and variants
// xcm-bounds.ts reads; every other value a `null`), so that call data past a bound costs a scan,
// not a decode. It reads every byte (a message's size, and whether the call decodes at all, decide
// which 400 comes first), counts the values, and keeps its recursion within MAX_SCAN_DEPTH.
import type { Option, Text } from '@polkadot/types';
import type { Si1Field } from '@polkadot/types/interfaces';
import type { Registry } from '@polkadot/types/types';
import type { ApiError } from '../../errors';
import { nestedCallArgument } from './nested-calls';
import { checkMessageBounds, type CallTotals } from './xcm-bounds';

type Lookup = Registry['lookup'];

/** Why the bytes do not decode, and where (an offset into the call data scanned). */
export class ScanFailure extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** Type levels the scan follows into a value (a program nested 32 deep takes about 130). */
export const MAX_SCAN_DEPTH = 1_024;

type Leaf = { kind: 'leaf'; size: number } | { kind: 'compact' } | { kind: 'bytes' } | { kind: 'bits' };
type Node =
  | Leaf
  | { kind: 'inner'; type: number }
  | { kind: 'option'; type: number }
  | { kind: 'sequence'; type: number }
  | { kind: 'array'; len: number; type: number }
  | { kind: 'tuple'; types: number[] }
  | { kind: 'struct'; fields: { key: string; type: number }[] }
  | { kind: 'enum'; basic: boolean; variants: (Variant | undefined)[] };
interface Variant {
  name: string;
  /** The variant's key in toJSON(): its name in camelCase. */
  key: string;
  payload: Node;
}

const PRIMITIVE_BYTES: Record<string, number> = { Bool: 1, Char: 4, U8: 1, I8: 1, U16: 2, I16: 2, U32: 4, I32: 4, U64: 8, I64: 8, U128: 16, I128: 16, U256: 32, I256: 32 };

/** Each registry's lookup types as scan nodes, made when first met. */
const compiled = new WeakMap<Registry, Map<number, Node>>();

/** The SCALE compact integer at `at` and the bytes it takes, or null past the end (a number: exact for lengths, larger ones are only skipped). */
export function compactAt(bytes: Uint8Array, at: number): { value: number; size: number } | null {
  const first = bytes[at];
  if (first === undefined) return null;
  const mode = first & 3;
  const size = mode === 3 ? (first >>> 2) + 5 : 1 << mode;
  if (at + size > bytes.length) return null;
  let value = 0;
  for (let i = size - 1; i >= (mode === 3 ? 1 : 0); i--) value = value * 256 + bytes[at + i]!;
  return { value: mode === 3 ? value : Math.floor(value / 4), size };
}

/** The key toJSON() writes for a field or variant named `name`: in camelCase (polkadot.js's sanitizeField, as its alias map undoes it). */
function jsonKey(lookup: Lookup, name: Option<Text>): string {
  const [field, original] = lookup.sanitizeField(name);
  return original ?? field ?? '';
}

/** A composite's or a variant's fields. */
function fieldsNode(lookup: Lookup, fields: Si1Field[]): Node {
  if (fields.length === 0) return { kind: 'leaf', size: 0 };
  if (fields.every((f) => f.name.isNone)) {
    return fields.length === 1 ? { kind: 'inner', type: fields[0]!.type.toNumber() } : { kind: 'tuple', types: fields.map((f) => f.type.toNumber()) };
  }
  return { kind: 'struct', fields: fields.map((f) => ({ key: jsonKey(lookup, f.name), type: f.type.toNumber() })) };
}

function compile(registry: Registry, id: number): Node {
  const lookup = registry.lookup;
  const type = lookup.getSiType(id);
  const def = type.def;
  const isU8 = (item: number) => {
    const d = lookup.getSiType(item).def;
    return d.isPrimitive && d.asPrimitive.type === 'U8';
  };
  if (def.isPrimitive) {
    const name = def.asPrimitive.type;
    return name === 'Str' ? { kind: 'bytes' } : { kind: 'leaf', size: PRIMITIVE_BYTES[name] ?? 0 };
  }
  if (def.isCompact) return { kind: 'compact' };
  if (def.isBitSequence) return { kind: 'bits' };
  if (def.isSequence) return isU8(def.asSequence.type.toNumber()) ? { kind: 'bytes' } : { kind: 'sequence', type: def.asSequence.type.toNumber() };
  if (def.isArray) {
    const [len, item] = [def.asArray.len.toNumber(), def.asArray.type.toNumber()];
    return isU8(item) ? { kind: 'leaf', size: len } : { kind: 'array', len, type: item };
  }
  if (def.isTuple) return def.asTuple.length === 0 ? { kind: 'leaf', size: 0 } : { kind: 'tuple', types: def.asTuple.map((t) => t.toNumber()) };
  if (def.isComposite) return fieldsNode(lookup, def.asComposite.fields);
  if (def.isVariant) {
    // polkadot.js reads a variant type without variants as nothing.
    if (def.asVariant.variants.length === 0) return { kind: 'leaf', size: 0 };
    if (type.path[0]?.toString() === 'Option' && type.params.length === 1) return { kind: 'option', type: type.params[0]!.type.unwrap().toNumber() };
    // polkadot.js fills the gaps between indices with unit variants, which decode.
    const variants: (Variant | undefined)[] = [];
    for (const v of def.asVariant.variants) {
      const name = v.name.toString();
      variants[v.index.toNumber()] = { name, key: jsonKey(lookup, registry.createType('Option<Text>', name)), payload: fieldsNode(lookup, v.fields) };
    }
    for (let i = 0; i < variants.length; i++) variants[i] ??= { name: `__Unused${i}`, key: `__Unused${i}`, payload: { kind: 'leaf', size: 0 } };
    const basic = variants.every((v) => v!.payload.kind === 'leaf' && (v!.payload as { size: number }).size === 0);
    return { kind: 'enum', basic, variants };
  }
  throw new ScanFailure(0, `type ${id} has a definition the scan does not read`);
}

/**
 * Values (numbers, lists, variants, byte strings, calls...) and calls (a batch's and a proxy's
 * included) in call data an explanation reads: its own bounds, over what real call data holds (a
 * batch of ten transfers: 11 calls, about 250 values; three programs of 20 assets and 70 reserve
 * sends: about 3,000 values) and within what one request's CPU allows (each value decoded, read
 * and written costs polkadot.js and the explanation about 10 µs, each call about 60).
 */
export const MAX_EXPLAIN_VALUES = 3_072;
export const MAX_EXPLAIN_CALLS = 128;

/** What a scan found: the first XCM bound crossed (the 400 xcm-bounds.ts gives), and the values and calls read. */
export interface CallScan {
  refusal: ApiError | null;
  values: number;
  calls: number;
}

/** A reader over call data's bytes that knows each lookup type's encoding. */
class Scanner {
  offset = 0;
  values = 0;
  calls = 0;
  refusal: ApiError | null = null;
  private depth = 0;
  private readonly nodes: Map<number, Node>;

  constructor(
    private readonly registry: Registry,
    private readonly bytes: Uint8Array,
    /** The XCM messages' totals, when the call's XCM is held to its bounds. */
    private readonly totals: CallTotals | null,
  ) {
    let nodes = compiled.get(registry);
    if (!nodes) compiled.set(registry, (nodes = new Map()));
    this.nodes = nodes;
  }

  private get left(): number {
    return this.bytes.length - this.offset;
  }

  private node(id: number): Node {
    let node = this.nodes.get(id);
    if (!node) this.nodes.set(id, (node = compile(this.registry, id)));
    return node;
  }

  private take(count: number, what: string): number {
    if (count > this.left) throw new ScanFailure(this.offset, `${what} runs past the end`);
    const at = this.offset;
    this.offset += count;
    return at;
  }

  private byte(what: string): number {
    return this.bytes[this.take(1, what)]!;
  }

  /** A SCALE compact integer, as a number (exact for lengths; larger ones are only skipped). */
  private compact(what: string): number {
    const read = compactAt(this.bytes, this.offset);
    if (!read) throw new ScanFailure(this.offset, `${what} runs past the end`);
    this.offset += read.size;
    return read.value;
  }

  /** Counts a value and its nesting: past MAX_SCAN_DEPTH or far past MAX_EXPLAIN_VALUES (values that take no bytes), the scan stops. */
  private enter(): void {
    if (++this.values > 16 * MAX_EXPLAIN_VALUES) throw new ScanFailure(this.offset, `more than ${16 * MAX_EXPLAIN_VALUES} values`);
    if (++this.depth > MAX_SCAN_DEPTH) throw new ScanFailure(this.offset, `values nested more than ${MAX_SCAN_DEPTH} deep`);
  }

  /**
   * Reads one value of lookup type `id`; with `sketch`, returns what its toJSON() looks like where
   * xcm-bounds.ts looks (objects, lists, basic variants as their name), leaves as null.
   */
  private value(id: number, sketch: boolean): unknown {
    this.enter();
    try {
      return this.read(this.node(id), sketch);
    } finally {
      this.depth--;
    }
  }

  private read(node: Node, sketch: boolean): unknown {
    switch (node.kind) {
      case 'leaf':
        this.take(node.size, 'a value');
        return null;
      case 'compact':
        this.compact('a compact integer');
        return null;
      case 'bytes':
        this.take(this.compact('a length'), 'bytes');
        return null;
      case 'bits':
        this.take(Math.ceil(this.compact('a bit length') / 8), 'bits');
        return null;
      case 'inner':
        return this.value(node.type, sketch);
      case 'option':
        // polkadot.js reads any first byte but 0 as Some.
        return this.byte('an option') === 0 ? null : this.value(node.type, sketch);
      case 'sequence':
        return this.items(this.compact('a length'), node.type, sketch);
      case 'array':
        return this.items(node.len, node.type, sketch);
      case 'tuple': {
        const out = node.types.map((t) => this.value(t, sketch));
        return sketch ? out : null;
      }
      case 'struct': {
        const out: Record<string, unknown> = {};
        for (const f of node.fields) out[f.key] = this.value(f.type, sketch);
        return sketch ? out : null;
      }
      case 'enum': {
        const at = this.offset;
        const index = this.byte('a variant index');
        const variant = node.variants[index];
        if (!variant) throw new ScanFailure(at, `no variant has index ${index}`);
        const payload = this.read(variant.payload, sketch);
        if (!sketch) return null;
        return node.basic ? variant.name : { [variant.key]: payload };
      }
    }
  }

  private items(count: number, type: number, sketch: boolean): unknown {
    // A length past the bytes left fails at once (polkadot.js would loop over it), unless the items take no bytes.
    if (count > this.left && this.takesBytes(type)) throw new ScanFailure(this.offset, `a list of ${count} items runs past the end`);
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const item = this.value(type, sketch);
      if (sketch) out.push(item);
    }
    return sketch ? out : null;
  }

  /** Whether every value of the type takes a byte at least (a few levels deep; deeper, taken as yes). */
  private takesBytes(id: number, level = 0): boolean {
    const node = this.node(id);
    if (level > 8) return true;
    switch (node.kind) {
      case 'leaf':
        return node.size > 0;
      case 'inner':
        return this.takesBytes(node.type, level + 1);
      case 'array':
        return node.len > 0 && this.takesBytes(node.type, level + 1);
      case 'tuple':
        return node.types.some((t) => this.takesBytes(t, level + 1));
      case 'struct':
        return node.fields.some((f) => this.takesBytes(f.type, level + 1));
      default:
        return true;
    }
  }

  /**
   * Reads one call (pallet and call index, then its arguments) as checkXcmBounds walks a decoded
   * one: the calls a batch or proxy carries one by one, named `where`; each other argument that
   * is a versioned XCM program held to the bounds, the first refusal kept. The call data's own
   * call (`top`) says where it does not decode as decodeCallData always has: the argument, at the
   * byte it starts.
   */
  call(where: string, top = false): void {
    const at = this.offset;
    this.enter();
    this.calls++;
    const index = this.bytes.subarray(at, at + 2);
    if (top && index.length < 2) throw new ScanFailure(0, 'call data starts with a pallet index and a call index');
    this.take(2, 'a call index');
    let found: ReturnType<Registry['findMetaCall']>;
    try {
      found = this.registry.findMetaCall(index);
    } catch {
      if (!top) throw new ScanFailure(at, `no call has index [${index[0]}, ${index[1]}]`);
      const pallet = this.registry.metadata.pallets.find((p) => p.index.toNumber() === index[0] && p.calls.isSome);
      throw pallet ? new ScanFailure(1, `pallet ${pallet.name.toString()} has no call with index ${index[1]}`) : new ScanFailure(0, `no pallet with calls has index ${index[0]}`);
    }
    const name = `${where}${found.section}.${found.method}`;
    const nested = nestedCallArgument(found.section, found.method);
    found.meta.fields.forEach(({ name: field, type }, i) => {
      const start = this.offset;
      try {
        this.argument(type.toNumber(), i === nested ? name : null, nested === undefined ? `${name} ${field.unwrapOr(`param${i}`).toString()}` : null);
      } catch (error) {
        if (!top || !(error instanceof ScanFailure)) throw error;
        throw new ScanFailure(start, `argument ${field.unwrapOr('?').toString()} of ${found.section}.${found.method}: ${error.message}`);
      }
    });
    this.depth--;
  }

  /** One argument: the calls a batch or proxy carries (`calls`, the carrier's name), else a value held to the XCM bounds as `checked`. */
  private argument(type: number, calls: string | null, checked: string | null): void {
    if (calls !== null) {
      const count = this.node(type).kind === 'sequence' ? this.compact('a length') : 1;
      if (count > this.left) throw new ScanFailure(this.offset, `a list of ${count} calls runs past the end`);
      for (let c = 0; c < count; c++) this.call(`${calls} call ${c + 1}: `);
      return;
    }
    const start = this.offset;
    const check = checked !== null && this.totals !== null && this.refusal === null;
    const sketch = this.value(type, check);
    if (!check) return;
    try {
      checkMessageBounds(sketch, this.offset - start, checked, this.totals!);
    } catch (error) {
      this.refusal = error as ApiError;
    }
  }

  /** Reads one value of lookup type `id` with its sketch (see value). */
  sketch(id: number): unknown {
    return this.value(id, true);
  }

  /** Bytes left after the call data's call. */
  leftOver(): number {
    return this.left;
  }
}

/**
 * Scans `bytes` as exactly one value of the type polkadot.js names `typeName` (an EVM
 * transaction's customXcmOnDest: `XcmVersionedXcm`): throws a ScanFailure where it does not decode
 * or holds more than MAX_EXPLAIN_VALUES values; else returns its sketch for xcm-bounds.ts.
 */
export function scanValue(registry: Registry, typeName: string, bytes: Uint8Array): unknown {
  // The lookup type polkadot.js registered under that name (`Lookup539`).
  const id = Number(/^Lookup(\d+)$/.exec(registry.getDefinition(typeName) ?? '')?.[1] ?? NaN);
  if (!Number.isInteger(id)) throw new ScanFailure(0, `the metadata has no ${typeName}`);
  const scanner = new Scanner(registry, bytes, null);
  const sketch = scanner.sketch(id);
  if (scanner.leftOver() > 0) throw new ScanFailure(bytes.length - scanner.leftOver(), `${scanner.leftOver()} byte(s) left over after the ${typeName}`);
  if (scanner.values > MAX_EXPLAIN_VALUES) throw new ScanFailure(0, `more than the ${MAX_EXPLAIN_VALUES} values an explanation reads (MAX_EXPLAIN_VALUES)`);
  return sketch;
}

/**
 * Scans call data (`bytes` holding one call) with `registry`'s types: throws a ScanFailure where it
 * does not decode (or is nested past MAX_SCAN_DEPTH); else says which XCM bound it crosses first
 * (with `xcmBounds`) and how many values and calls it holds.
 */
export function scanCallData(registry: Registry, bytes: Uint8Array, xcmBounds: boolean): CallScan {
  const scanner = new Scanner(registry, bytes, xcmBounds ? { instructions: 0, assets: 0 } : null);
  scanner.call('', true);
  const left = scanner.leftOver();
  if (left > 0) {
    const at = bytes.length - left;
    const [pallet, method] = [bytes[0]!, bytes[1]!];
    const found = registry.findMetaCall(new Uint8Array([pallet, method]));
    throw new ScanFailure(at, `${left} byte(s) left over after ${found.section}.${found.method}`);
  }
  return { refusal: scanner.refusal, values: scanner.values, calls: scanner.calls };
}
