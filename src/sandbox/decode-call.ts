// Call data decoded the way a polkadot.js wallet decodes it, with the chain's own metadata.
//
// Loading rule: @polkadot/* through `require`, like chain-data.ts.
import { createRequire } from 'node:module';
import type { Call } from '@polkadot/types/interfaces';
import { registryForChain, type SandboxChainName } from './chain-data';

const load = createRequire(__filename);

export interface DecodedCall {
  section: string;
  method: string;
  args: Record<string, unknown>;
}

/** The part of a node decoding needs: which chain, and the metadata it serves. */
export interface DecodableChain {
  readonly chain: SandboxChainName;
  readonly metadataHex: `0x${string}`;
}

/**
 * `toJSON()` writes integers above 2^53 as hex; `toPrimitive()` writes them as decimal strings
 * (but also turns printable byte strings into text). Take the JSON shape and only swap in the
 * decimal string where both name the same integer.
 */
function withDecimalBigInts(json: unknown, prim: unknown): unknown {
  if (typeof json === 'string' && /^0x[0-9a-f]+$/i.test(json) && typeof prim === 'string' && /^\d+$/.test(prim)) {
    return BigInt(json) === BigInt(prim) ? prim : json;
  }
  if (Array.isArray(json)) {
    return json.map((v, i) => withDecimalBigInts(v, Array.isArray(prim) ? prim[i] : undefined));
  }
  if (json !== null && typeof json === 'object') {
    const p = prim !== null && typeof prim === 'object' ? (prim as Record<string, unknown>) : {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(json)) out[k] = withDecimalBigInts(v, p[k]);
    return out;
  }
  return json;
}

/**
 * Decodes call data (`tx.method.toHex()`, what the service answers) with the chain's metadata,
 * the way a polkadot.js wallet does (`api.createType('Call', hex)`); throws unless the bytes are
 * exactly one call (an extrinsic, with its length and version prefix, is refused). `section`/`method` are camelCase as polkadot.js names them (`xcmPallet`,
 * `limitedTeleportAssets`). `args` are keyed like `call.toHuman().args`, i.e. by the metadata's
 * argument names (`dest`, `beneficiary`, `assets`, `fee_asset_item`, `weight_limit`), and hold
 * `toJSON()` values: enums as `{ variant: value }` with camelCase variant names, e.g.
 * `{ v5: { parents: 0, interior: { x1: [{ parachain: 1000 }] } } }`, `{ accountId32: { network: null,
 * id: '0x…' } }`, `{ fungible: 10000000000 }`; integers are numbers up to 2^53 and decimal strings
 * above (not toJSON's hex); byte arrays and account ids in XCM junctions are hex.
 */
export async function decodeCall(chain: DecodableChain, hex: string): Promise<DecodedCall> {
  const registry = registryForChain(chain.chain, chain.metadataHex);
  const { hexToU8a, u8aEq } = load('@polkadot/util') as typeof import('@polkadot/util');
  const u8a = hexToU8a(hex);
  const call = registry.createType<Call>('Call', u8a);
  if (!u8aEq(call.toU8a(), u8a)) throw new Error(`sandbox: ${hex.slice(0, 18)}... is not exactly one ${chain.chain} call`);
  const args: Record<string, unknown> = {};
  for (const [name, value] of call.argsEntries) args[name] = withDecimalBigInts(value.toJSON(), value.toPrimitive());
  return Promise.resolve({ section: call.section, method: call.method, args });
}