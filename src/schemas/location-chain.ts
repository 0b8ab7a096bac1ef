import type { TChain, TLocation, TSubstrateChain } from '@paraspell/sdk-pjs';
import { sdk } from '../sdk';

// Where a destination Location leads, read from the registry: pre-flight queries price transfers
// to a chain only, so a Location must name one.

/**
 * The chain a destination Location names, seen from `origin`: the relay (`{parents: 1, Here}` from
 * a parachain), a sibling parachain (`{parents: 1, X1: [Parachain]}`) or, from a relay chain, one
 * of its parachains (`{parents: 0, X1: [Parachain]}`). Anything else names no chain of the registry.
 */
export function chainOfLocation(origin: TChain, location: TLocation): TChain | undefined {
  if (origin === 'Ethereum') return undefined;
  const junctions = interiorJunctions(location.interior);
  if (junctions === undefined || junctions.length > 1) return undefined;
  const parents = Number(location.parents);
  const relay = sdk.getRelayChainOf(origin as TSubstrateChain);
  const fromRelay = sdk.isRelayChain(origin);
  if (junctions.length === 0) return fromRelay ? (parents === 0 ? origin : undefined) : parents === 1 ? relay : undefined;
  if (parents !== (fromRelay ? 0 : 1)) return undefined;
  const paraId = parachainOf(junctions[0]);
  return paraId === undefined ? undefined : (sdk.getTChain(paraId, relay) ?? undefined);
}

function interiorJunctions(interior: unknown): unknown[] | undefined {
  if (interior === 'Here') return [];
  if (typeof interior !== 'object' || interior === null) return undefined;
  const entries = Object.entries(interior);
  if (entries.length !== 1) return undefined;
  const [key, value] = entries[0];
  if (/^here$/i.test(key)) return [];
  const n = /^x(\d)$/i.exec(key);
  if (!n) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.length === Number(n[1]) ? list : undefined;
}

function parachainOf(junction: unknown): number | undefined {
  if (typeof junction !== 'object' || junction === null) return undefined;
  const entries = Object.entries(junction);
  if (entries.length !== 1 || !/^parachain$/i.test(entries[0][0])) return undefined;
  const id = Number(entries[0][1]);
  return Number.isSafeInteger(id) && id >= 0 ? id : undefined;
}
