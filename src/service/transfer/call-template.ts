// One route shape's answer with the request's own values cut out: the call data the SDK built
// and its arguments as the route check reads them (polkadot.js's toJSON), each split at every
// place the amount, the recipient's account or the sender's account was written. Filling it with
// another request's values gives that request's call data and arguments without the SDK. Whether
// a template may be trusted is proven where it is made (build-templates.ts): `reproduces` must
// hold for builds with other values.
import type { CallView } from '../route-check';

/** What a request brings to a build that a template puts in. */
export interface Values {
  /** The amount in base units. */
  units: bigint;
  /** The recipient's account bytes: lower-case hex, no 0x (32 or 20 bytes). */
  recipient: string;
  /** The sender's, when the request names one. */
  sender?: string;
}

/** How a value is written: SCALE compact or u128 (little-endian) in the bytes; JSON in the arguments. */
type Slot = 'compact' | 'u128' | 'amountJson' | 'recipient' | 'sender' | 'recipientJson' | 'senderJson';

/** Text with holes: `parts[i]` is followed by `slots[i]` (one part more than slots). */
interface Holed {
  parts: string[];
  slots: Slot[];
}

export interface CallTemplate {
  section: string;
  method: string;
  /** The call data's hex, without its 0x. */
  hex: Holed;
  /** `JSON.stringify` of the arguments the route check walks. */
  args: Holed;
}

/** A build: the values it was asked for, the call data it answered, and that call data read back. */
export interface Sample {
  values: Values;
  hex: string;
  view: CallView;
}

/** `value` little-endian in `bytes` bytes, as hex. */
const hexBytes = (value: bigint, bytes: number): string => {
  const big = value.toString(16).padStart(bytes * 2, '0');
  let out = '';
  for (let i = big.length - 2; i >= 0; i -= 2) out += big.slice(i, i + 2);
  return out;
};

/** SCALE's compact encoding of an unsigned integer, as hex. */
export function compactHex(value: bigint): string {
  if (value < 1n << 6n) return hexBytes(value << 2n, 1);
  if (value < 1n << 14n) return hexBytes((value << 2n) | 1n, 2);
  if (value < 1n << 30n) return hexBytes((value << 2n) | 2n, 4);
  const length = Math.max(4, Math.ceil(value.toString(16).length / 2));
  return hexBytes(BigInt(((length - 4) << 2) | 3), 1) + hexBytes(value, length);
}

/** A u128 as polkadot.js's toJSON writes it: a number up to 52 bits, else 0x and 32 hex digits. */
const amountJson = (value: bigint): string => (value < 1n << 52n ? value.toString() : `"0x${value.toString(16).padStart(32, '0')}"`);

function written(slot: Slot, v: Values): string {
  switch (slot) {
    case 'compact':
      return compactHex(v.units);
    case 'u128':
      return hexBytes(v.units, 16);
    case 'amountJson':
      return amountJson(v.units);
    case 'recipient':
      return v.recipient;
    case 'recipientJson':
      return `"0x${v.recipient}"`;
    case 'sender':
      return v.sender ?? '';
    case 'senderJson':
      return v.sender === undefined ? '' : `"0x${v.sender}"`;
  }
}

const render = ({ parts, slots }: Holed, v: Values): string => {
  let out = parts[0]!;
  for (let i = 0; i < slots.length; i++) out += written(slots[i]!, v) + parts[i + 1]!;
  return out;
};

/**
 * Cuts `text` wherever one of `slots` is written with `v`; earlier slots win where two overlap.
 * `step` 2 keeps hex cuts on whole bytes.
 */
function cut(text: string, slots: Slot[], v: Values, step: number): Holed {
  const found: { at: number; end: number; slot: Slot }[] = [];
  for (const slot of slots) {
    const needle = written(slot, v);
    if (needle === '') continue;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (at % step === 0 && !found.some((f) => at < f.end && f.at < end)) found.push({ at, end, slot });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const parts: string[] = [];
  let from = 0;
  for (const f of found) {
    parts.push(text.slice(from, f.at));
    from = f.end;
  }
  parts.push(text.slice(from));
  return { parts, slots: found.map((f) => f.slot) };
}

/** The template `sample` makes: its call data and arguments with its values cut out. */
export function makeTemplate({ values, hex, view }: Sample): CallTemplate {
  return {
    section: view.section,
    method: view.method,
    hex: cut(hex.slice(2), ['u128', 'compact', 'recipient', 'sender'], values, 2),
    args: cut(JSON.stringify(view.args), ['amountJson', 'recipientJson', 'senderJson'], values, 1),
  };
}

/** The call data and arguments for `values`. */
export function fill(template: CallTemplate, values: Values): { hex: string; view: CallView } {
  const args = JSON.parse(render(template.args, values)) as Record<string, unknown>;
  return { hex: `0x${render(template.hex, values)}`, view: { section: template.section, method: template.method, args } };
}

/** Whether filling `template` with a build's values gives exactly that build's bytes and arguments. */
export function reproduces(template: CallTemplate, { values, hex, view }: Sample): boolean {
  return (
    template.section === view.section &&
    template.method === view.method &&
    `0x${render(template.hex, values)}` === hex &&
    render(template.args, values) === JSON.stringify(view.args)
  );
}
