import type { Call } from '@polkadot/types/interfaces';
import type { Codec, Registry } from '@polkadot/types/types';
import { badRequest } from '../../errors';
import { compactAt, MAX_EXPLAIN_CALLS, MAX_EXPLAIN_VALUES, ScanFailure, scanCallData, type CallScan } from './call-scan';
import { innerCalls, nestedCallArgument } from './nested-calls';

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

/** Refuses (400) call data holding more values or calls than an explanation reads. */
function tooLarge(scan: CallScan): void {
  const why =
    scan.calls > MAX_EXPLAIN_CALLS
      ? `it holds ${scan.calls} calls (a batch's and a proxy's counted), more than the ${MAX_EXPLAIN_CALLS} an explanation reads (MAX_EXPLAIN_CALLS)`
      : scan.values > MAX_EXPLAIN_VALUES
        ? `it holds ${scan.values} values (numbers, lists, variants, calls...), more than the ${MAX_EXPLAIN_VALUES} an explanation reads (MAX_EXPLAIN_VALUES)`
        : null;
  if (why) throw badRequest('ExplanationTooLargeError', `hex is too large to explain: ${why}`, [{ path: 'body.hex', message: why }]);
}

/** The call of a whole unsigned extrinsic (its length, version 4 or 5 unsigned and bare, then the call), or null. */
function extrinsicCall(bytes: Uint8Array): Uint8Array | null {
  const length = compactAt(bytes, 0);
  if (!length || length.size + length.value !== bytes.length) return null;
  const version = bytes[length.size];
  return version === 4 || version === 5 ? bytes.subarray(length.size + 1) : null;
}

/**
 * Call data, or (a common mistake) a whole unsigned extrinsic, which is then read as its call.
 * The bytes are scanned first (call-scan.ts: nothing built, within MAX_EXPLAIN_VALUES), so that
 * call data that does not decode, holds XCM past its bounds (with `xcmBounds`, the 400 of
 * xcm-bounds.ts) or too many values or calls costs a scan, not a decode by polkadot.js. A failure names
 * the byte where the argument that failed starts (polkadot.js alone only says that decoding
 * failed); bytes left over after the call fail too: call data is exactly one call.
 */
export function decodeCallData(registry: Registry, bytes: Uint8Array, xcmBounds = false): DecodedCallData {
  let callBytes = bytes;
  let scan: CallScan;
  try {
    scan = scanCallData(registry, bytes, xcmBounds);
  } catch (callError) {
    if (!(callError instanceof ScanFailure)) throw callError;
    const inner = extrinsicCall(bytes);
    try {
      if (!inner) throw callError;
      scan = scanCallData(registry, inner, xcmBounds);
      callBytes = inner;
    } catch {
      // not an extrinsic either: the call data's failure is the one to report
      throw undecodable(callError.offset, callError.message);
    }
  }
  if (scan.refusal) throw scan.refusal;
  tooLarge(scan);
  const call = registry.createType<Call>('Call', callBytes);
  if (call.encodedLength !== callBytes.length) throw undecodable(0, `polkadot.js reads ${call.encodedLength} of its ${callBytes.length} bytes`);
  return { call, wasExtrinsic: callBytes !== bytes };
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

/** Each decoded value's plain form, written once: the reading of a call and its view both take it. */
const plainForms = new WeakMap<Codec, unknown>();

/** A decoded value as JSON: enums as `{variant: value}`, big integers as decimal strings, bytes as hex. */
export function plain(value: Codec): unknown {
  if (!plainForms.has(value)) plainForms.set(value, withDecimalIntegers(value.toJSON(), value.toPrimitive()));
  return plainForms.get(value);
}

export function viewCall(call: Call): CallView {
  const nestedAt = nestedCallArgument(call.section, call.method);
  const args: Record<string, unknown> = {};
  call.argsEntries.forEach(([name, value], i) => {
    if (i !== nestedAt) args[name] = plain(value);
  });
  const calls = innerCalls(call);
  return { pallet: call.section, method: call.method, args, ...(calls.length > 0 ? { calls: calls.map(viewCall) } : {}) };
}
