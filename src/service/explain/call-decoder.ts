import type { Call } from '@polkadot/types/interfaces';
import type { Codec, Registry } from '@polkadot/types/types';
import { badRequest } from '../../errors';

/** A call's pallet, method and arguments as plain JSON; nested calls (batches, proxies) one by one. */
export interface CallView {
  pallet: string;
  method: string;
  args: Record<string, unknown>;
  calls?: CallView[];
}

export interface DecodedCallData {
  call: Call;
  /** True when the bytes were a whole unsigned extrinsic rather than call data. */
  wasExtrinsic: boolean;
}

export const hexBytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));

const undecodable = (offset: number, reason: string) =>
  badRequest('UndecodableCallError', `hex does not decode as a call of this chain at byte ${offset}: ${reason}`, [
    { path: 'body.hex', message: `does not decode at byte ${offset}: ${reason}` },
  ]);

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200);

/**
 * Decodes call data argument by argument, so that a failure names the byte where the argument
 * that failed starts (polkadot.js alone only says that decoding failed). Bytes left over after
 * the call are a failure too: call data is exactly one call.
 */
function decodeStrict(registry: Registry, bytes: Uint8Array): Call {
  // The whole call at once first (call data that decodes is decoded once); the argument-by-argument pass only names where it fails.
  try {
    const call = registry.createType<Call>('Call', bytes);
    if (call.encodedLength === bytes.length) return call;
  } catch {
    // named below
  }
  if (bytes.length < 2) throw undecodable(0, 'call data starts with a pallet index and a call index');
  let meta: ReturnType<Registry['findMetaCall']>;
  try {
    meta = registry.findMetaCall(bytes.subarray(0, 2));
  } catch {
    const pallet = registry.metadata.pallets.find((p) => p.index.toNumber() === bytes[0] && p.calls.isSome);
    throw pallet
      ? undecodable(1, `pallet ${pallet.name.toString()} has no call with index ${bytes[1]}`)
      : undecodable(0, `no pallet with calls has index ${bytes[0]}`);
  }
  let offset = 2;
  for (const { name, type } of meta.meta.fields) {
    let value: Codec;
    try {
      value = registry.createTypeUnsafe(registry.createLookupType(type), [bytes.subarray(offset)]);
    } catch (error) {
      throw undecodable(offset, `argument ${name.unwrapOr('?').toString()} of ${meta.section}.${meta.method}: ${reason(error)}`);
    }
    offset += value.encodedLength;
    if (offset > bytes.length) throw undecodable(bytes.length, `argument ${name.unwrapOr('?').toString()} of ${meta.section}.${meta.method} runs past the end`);
  }
  if (offset !== bytes.length) throw undecodable(offset, `${bytes.length - offset} byte(s) left over after ${meta.section}.${meta.method}`);
  return registry.createType<Call>('Call', bytes);
}

/** Call data, or (a common mistake) a whole unsigned extrinsic, which is then read as its call. */
export function decodeCallData(registry: Registry, bytes: Uint8Array): DecodedCallData {
  try {
    return { call: decodeStrict(registry, bytes), wasExtrinsic: false };
  } catch (callError) {
    try {
      const extrinsic = registry.createType('Extrinsic', bytes);
      if (extrinsic.encodedLength === bytes.length && !extrinsic.isSigned) {
        return { call: decodeStrict(registry, extrinsic.method.toU8a()), wasExtrinsic: true };
      }
    } catch {
      // not an extrinsic either: the call data error is the one to report
    }
    throw callError;
  }
}

/**
 * `toJSON()` writes integers above 2^53 as hex; `toPrimitive()` writes them as decimal strings (but
 * also turns printable byte strings into text). Keep the JSON shape and take the decimal string
 * only where both name the same integer.
 */
function withDecimalIntegers(json: unknown, prim: unknown): unknown {
  if (typeof json === 'string' && /^0x[0-9a-f]+$/i.test(json) && typeof prim === 'string' && /^\d+$/.test(prim)) {
    return BigInt(json) === BigInt(prim) ? prim : json;
  }
  if (typeof json === 'number' && !Number.isSafeInteger(json) && typeof prim === 'string') return prim;
  if (Array.isArray(json)) return json.map((v, i) => withDecimalIntegers(v, Array.isArray(prim) ? prim[i] : undefined));
  if (json !== null && typeof json === 'object') {
    const p = prim !== null && typeof prim === 'object' ? (prim as Record<string, unknown>) : {};
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, withDecimalIntegers(v, p[k])]));
  }
  return json;
}

/** A decoded value as JSON: enums as `{variant: value}`, big integers as decimal strings, bytes as hex. */
export function plain(value: Codec): unknown {
  return withDecimalIntegers(value.toJSON(), value.toPrimitive());
}

/** Calls that carry other calls: the index of the argument holding them. */
const NESTING: Record<string, number> = {
  'utility.batch': 0,
  'utility.batchAll': 0,
  'utility.forceBatch': 0,
  'utility.asDerivative': 1,
  'proxy.proxy': 2,
  'proxy.proxyAnnounced': 3,
};

/** The calls nested inside `call` (the items of a batch, the call a proxy makes), if any. */
export function innerCalls(call: Call): Call[] {
  const index = NESTING[`${call.section}.${call.method}`];
  if (index === undefined) return [];
  const arg = call.args[index] as unknown;
  return Array.isArray(arg) ? (arg as Call[]) : [arg as Call];
}

export function viewCall(call: Call): CallView {
  const nestedAt = NESTING[`${call.section}.${call.method}`];
  const args: Record<string, unknown> = {};
  call.argsEntries.forEach(([name, value], i) => {
    if (i !== nestedAt) args[name] = plain(value);
  });
  const calls = innerCalls(call);
  return { pallet: call.section, method: call.method, args, ...(calls.length > 0 ? { calls: calls.map(viewCall) } : {}) };
}
