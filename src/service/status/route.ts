// The chains a message passes after the origin, in order. The first is where the origin sent it
// (its `Sent` event's destination, seen from the origin): when that is not the destination, it is a
// hop (a reserve such as the asset hub, which forwards the message under the same topic). A
// destination in another ecosystem (or Ethereum) ends, for this service, at the origin ecosystem's
// bridge hub: beyond the bridge is not followed.
import type { TChain, TRelaychain, TSubstrateChain } from '@paraspell/sdk-pjs';
import { sdk } from '../../sdk';
import type { LegRole } from './answer';

export interface RouteStep {
  chain: string;
  role: LegRole;
}

const KNOWN = new Set<string>(sdk.CHAINS);

function relayOf(chain: TChain): TRelaychain | undefined {
  return chain === 'Ethereum' ? undefined : (sdk.getRelayChainOf(chain as TSubstrateChain) as TRelaychain);
}

/** The system chain `prefix` of an ecosystem (`AssetHub`, `BridgeHub` + `Polkadot`), if the registry has it. */
const systemChain = (prefix: string, relay: TRelaychain): string | undefined => (KNOWN.has(`${prefix}${relay}`) ? `${prefix}${relay}` : undefined);

const lower = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), v])) : {};

/**
 * The chain a location (polkadot.js JSON of an XCM location) names, seen from `from`: its relay
 * (`{parents: 1, Here}`), a sibling (`{parents: 1, X1: [Parachain]}`) or, from a relay, one of its
 * parachains. Undefined for anything else (another ecosystem, an account, a pallet).
 */
export function chainAt(from: TSubstrateChain, location: unknown): string | undefined {
  const { parents, interior } = lower(location);
  const relay = relayOf(from);
  if (!relay) return undefined;
  const junctions = lower(interior);
  if ('here' in junctions) return parents === 1 && !sdk.isRelayChain(from) ? relay : undefined;
  const list = Object.values(junctions)[0];
  if (!Array.isArray(list) || list.length !== 1) return undefined;
  const para = lower(list[0])['parachain'];
  const fromRelay = parents === 0 && sdk.isRelayChain(from);
  const fromSibling = parents === 1 && !sdk.isRelayChain(from);
  if (typeof para !== 'number' || !(fromRelay || fromSibling)) return undefined;
  return sdk.getTChain(para, relay) ?? undefined;
}

/** The legs after the origin; none for a local transfer. `sentTo` is the `Sent` event's destination, when there is one. */
export function laterLegs(from: TSubstrateChain, to: TChain, sentTo: unknown): RouteStep[] {
  if (from === to) return [];
  const relay = relayOf(from)!;
  const first = sentTo === undefined ? undefined : chainAt(from, sentTo);
  if (to === 'Ethereum' || relayOf(to) !== relay) {
    const bridgeHub = systemChain('BridgeHub', relay);
    const assetHub = systemChain('AssetHub', relay);
    // A message for another ecosystem goes through the bridge hub, from an asset hub.
    const hop = first ?? (from === assetHub ? undefined : assetHub);
    const steps: RouteStep[] = hop && hop !== bridgeHub ? [{ chain: hop, role: 'hop' }] : [];
    return bridgeHub ? [...steps, { chain: bridgeHub, role: 'bridge' }] : [{ chain: to, role: 'destination' }];
  }
  if (first && first !== to && first !== from) return [{ chain: first, role: 'hop' }, { chain: to, role: 'destination' }];
  return [{ chain: to, role: 'destination' }];
}
