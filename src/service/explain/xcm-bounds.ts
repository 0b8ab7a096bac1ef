// The bounds within which a chain decodes an XCM message (polkadot-sdk's `xcm` crate), and the
// holding its executor keeps. A program past them would not decode, or fails at once, on the chain
// that receives it, so /explain refuses call data holding one (a 400 naming where) before anything
// reads or walks it: nothing a client writes makes the walk's cost grow past what a real message
// can hold. Call data is held to them by its scan, before it is decoded (call-scan.ts): each
// argument of each call (the calls of batches and proxies one by one) that is a versioned program,
// with totals over all of them.
import { badRequest } from '../../errors';
/**
 * Programs nested in one another, the outermost counting 1: an explanation's own bound. A chain
 * decodes a call's own message deeper than MAX_XCM_DECODE_DEPTH (8; the real runtimes run a 9-deep
 * `execute` and fail where it would send a message past 8, ExceedsMaxMessageSize), so past 8 the walk
 * says so at the hop that sends it; past this, nothing a real call holds, the call data is refused.
 */
export const MAX_EXPLAIN_NESTING = 32;
/** Instructions in one message, nested programs' included (the decoder counts them together). */
export const MAX_INSTRUCTIONS_TO_DECODE = 100;
/** Assets in one list (`WithdrawAsset`, a `Definite` filter, ...). */
export const MAX_ITEMS_IN_ASSETS = 20;
/** Bytes of one encoded message. */
export const MAX_XCM_ENCODED_SIZE = 12_402;
/** Assets one program brings into its holding (the executor's MaxAssetsIntoHolding on the system chains: past it, HoldingWouldOverflow). */
export const MAX_ASSETS_INTO_HOLDING = 64;

/**
 * Instructions, and assets in lists, in all the messages of one call data together (a batch): an
 * explanation's own bounds, past any real call's (a batch of ten transfers holds under 100
 * instructions) and well under what one request's CPU allows.
 */
export const MAX_CALL_INSTRUCTIONS = 256;
export const MAX_CALL_ASSETS = 128;

/** Instructions that bring their assets into the holding. */
const INTO_HOLDING = new Set(['WithdrawAsset', 'ReserveAssetDeposited', 'ReceiveTeleportedAsset', 'ClaimAsset']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const pascal = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** `{v4: [...]}` whose items are instructions (one key each), not assets (`{id, fun}`). */
function versionedProgram(json: unknown): unknown[] | null {
  if (!isObject(json)) return null;
  const keys = Object.keys(json);
  if (keys.length !== 1 || !/^v\d+$/i.test(keys[0]!)) return null;
  const items = json[keys[0]!];
  if (!Array.isArray(items)) return null;
  return items.every((item) => typeof item === 'string' || (isObject(item) && Object.keys(item).length === 1)) ? items : null;
}

const isAssetList = (v: unknown): v is unknown[] => Array.isArray(v) && v.length > 0 && v.every((a) => isObject(a) && 'id' in a && 'fun' in a);

/** Where a program holds the programs nested in it: an instruction's field, or the instruction itself. */
function nestedPrograms(name: string, value: unknown): [string, unknown][] {
  if (name === 'SetAppendix' || name === 'SetErrorHandler') return [['', value]];
  if (!isObject(value)) return [];
  return (['xcm', 'remoteXcm'] as const).filter((field) => Array.isArray(value[field])).map((field) => [`.${field}`, value[field]]);
}

/** What all the messages of one call data hold so far. */
export interface CallTotals {
  instructions: number;
  assets: number;
}

class MessageBounds {
  instructions = 0;

  constructor(
    private readonly refuse: (place: string, why: string) => never,
    private readonly totals: CallTotals,
  ) {}

  /** `depth`: the outermost program is 1, as the route check's depthOf counts. */
  program(program: unknown[], place: string, depth: number): void {
    if (depth > MAX_EXPLAIN_NESTING) this.refuse(place, `programs nested ${depth} deep, past the ${MAX_EXPLAIN_NESTING} an explanation reads (MAX_EXPLAIN_NESTING; a chain sends none past 8, MAX_XCM_DECODE_DEPTH)`);
    this.instructions += program.length;
    this.totals.instructions += program.length;
    if (this.instructions > MAX_INSTRUCTIONS_TO_DECODE) {
      this.refuse(place, `more than ${MAX_INSTRUCTIONS_TO_DECODE} instructions in one message, nested programs' included (MAX_INSTRUCTIONS_TO_DECODE)`);
    }
    if (this.totals.instructions > MAX_CALL_INSTRUCTIONS) this.refuse(place, `more than ${MAX_CALL_INSTRUCTIONS} instructions in the call data's messages together (MAX_CALL_INSTRUCTIONS)`);
    let held = 0;
    program.forEach((instruction, i) => {
      const [key, value] = typeof instruction === 'string' ? [instruction, null] : Object.entries(instruction as Json)[0]!;
      const name = pascal(key);
      const at = `${place}.${i}.${name}`;
      this.assets(value, at);
      if (INTO_HOLDING.has(name)) {
        held += Array.isArray(value) ? value.length : isObject(value) && Array.isArray(value.assets) ? value.assets.length : 0;
        if (held > MAX_ASSETS_INTO_HOLDING) {
          this.refuse(at, `more than ${MAX_ASSETS_INTO_HOLDING} assets brought into the holding of one program, which no chain's executor holds (MaxAssetsIntoHolding: HoldingWouldOverflow)`);
        }
      }
      for (const [field, inner] of nestedPrograms(name, value)) this.program(inner as unknown[], `${at}${field}`, depth + 1);
    });
  }

  /** Any asset list within an instruction's value (its nested programs aside: they are counted as programs). */
  private assets(value: unknown, place: string): void {
    if (isAssetList(value)) {
      if (value.length > MAX_ITEMS_IN_ASSETS) this.refuse(place, `${value.length} assets in one list, more than the ${MAX_ITEMS_IN_ASSETS} a chain decodes (MAX_ITEMS_IN_ASSETS)`);
      this.totals.assets += value.length;
      if (this.totals.assets > MAX_CALL_ASSETS) this.refuse(place, `more than ${MAX_CALL_ASSETS} assets listed in the call data's messages together (MAX_CALL_ASSETS)`);
      return;
    }
    if (Array.isArray(value)) value.forEach((v, i) => this.assets(v, `${place}.${i}`));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) if (k !== 'xcm' && k !== 'remoteXcm') this.assets(v, `${place}.${k}`);
  }
}

/**
 * Refuses (400, naming `name` and the place) a value that is a versioned XCM program, given its
 * toJSON() and encoded length (or the scan's sketch of them, call-scan.ts), past the bounds
 * (nested past MAX_EXPLAIN_NESTING, more than MAX_INSTRUCTIONS_TO_DECODE
 * instructions or MAX_ITEMS_IN_ASSETS assets in a list, more than MAX_XCM_ENCODED_SIZE bytes, more
 * than MAX_ASSETS_INTO_HOLDING assets brought into one program's holding; with `totals`, more than
 * MAX_CALL_INSTRUCTIONS instructions or MAX_CALL_ASSETS listed assets in all); other values pass.
 */
export function checkMessageBounds(json: unknown, encodedLength: number, name: string, totals: CallTotals = { instructions: 0, assets: 0 }): void {
  const program = versionedProgram(json);
  if (!program) return;
  const refuse = (place: string, why: string): never => {
    const at = `${name}${place}`;
    throw badRequest('XcmBoundsError', `hex holds an XCM message no chain would decode, at ${at}: ${why}`, [{ path: 'body.hex', message: `${at}: ${why}` }]);
  };
  if (encodedLength > MAX_XCM_ENCODED_SIZE) refuse('', `${encodedLength} bytes, more than the ${MAX_XCM_ENCODED_SIZE} of one message (MAX_XCM_ENCODED_SIZE)`);
  new MessageBounds(refuse, totals).program(program, '', 1);
}
