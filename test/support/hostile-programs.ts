// XCM programs a hostile client sends to /explain (issue 42): many distinct unlisted assets, then
// reserve transfers nested hop after hop between AssetHubPolkadot and Hydration, encoded as call
// data with a test chain's own metadata. Shared by test/http/explain-bounds.test.ts and
// bench/explain.ts.
import type { Registry } from '@polkadot/types/types';

type Json = Record<string, unknown>;

/** Call data of `pallet.method(args)` (args by their metadata names), encoded with `registry`. */
export function callData(registry: Registry, pallet: string, method: string, args: Json): `0x${string}` {
  const found = registry.metadata.pallets.find((p) => p.name.toString() === pallet);
  if (!found?.calls.isSome) throw new Error(`no pallet ${pallet} with calls`);
  const variant = registry.lookup.getSiType(found.calls.unwrap().type).def.asVariant.variants.find((v) => v.name.toString() === method);
  if (!variant) throw new Error(`no call ${pallet}.${method}`);
  return registry.createType('Call', { callIndex: new Uint8Array([found.index.toNumber(), variant.index.toNumber()]), args }).toHex();
}

/** `count` distinct assets no registry lists (instances of pallet 50 past any real id), 1 unit each. */
export const unlistedAssets = (count: number, from = 0): Json[] =>
  Array.from({ length: count }, (_, i) => ({ id: { parents: 0, interior: { X2: [{ PalletInstance: 50 }, { GeneralIndex: 900_000_000 + from + i }] } }, fun: { Fungible: 1 } }));

/** `depth` DepositReserveAsset { Wild All } sends, each in the last's program, alternating Hydration (2034) and AssetHubPolkadot (1000). */
export function nestedReserveSends(depth: number): Json[] {
  let program: Json[] = [];
  for (let level = depth; level >= 1; level--) {
    const para = level % 2 === 1 ? 2034 : 1000;
    program = [{ DepositReserveAsset: { assets: { Wild: 'All' }, dest: { parents: 1, interior: { X1: [{ Parachain: para }] } }, xcm: program } }];
  }
  return program;
}

/** The program: withdraw `lists` lists of `perList` unlisted assets, then `depth` nested reserve sends. */
export function hostileProgram(lists: number, perList: number, depth: number): Json[] {
  const withdraws = Array.from({ length: lists }, (_, i) => ({ WithdrawAsset: unlistedAssets(perList, i * perList) }));
  return [...withdraws, ...nestedReserveSends(depth)];
}

/** `polkadotXcm.execute` of a V4 program on AssetHubPolkadot. */
export const executeCall = (registry: Registry, program: Json[]): `0x${string}` =>
  callData(registry, 'PolkadotXcm', 'execute', { message: { V4: program }, max_weight: { refTime: 1_000_000_000, proofSize: 100_000 } });
