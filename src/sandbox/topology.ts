// Where the sandbox's chains sit (relay chain or parachain, and which network): how they name each
// other, their pallet-xcm, and the queue a message from one arrives on at another.
import type { SandboxChainName } from './chain-node';

interface Place {
  network: 'Polkadot' | 'Kusama';
  /** Undefined for the relay chain. */
  paraId?: number;
}

export const PLACES: Record<SandboxChainName, Place> = {
  Polkadot: { network: 'Polkadot' },
  AssetHubPolkadot: { network: 'Polkadot', paraId: 1000 },
  BridgeHubPolkadot: { network: 'Polkadot', paraId: 1002 },
  Moonbeam: { network: 'Polkadot', paraId: 2004 },
  Hydration: { network: 'Polkadot', paraId: 2034 },
  Kusama: { network: 'Kusama' },
  AssetHubKusama: { network: 'Kusama', paraId: 1000 },
};

/** pallet-xcm's name on a chain: XcmPallet on relay chains, PolkadotXcm on parachains. */
export const xcmPalletOf = (chain: SandboxChainName): 'XcmPallet' | 'PolkadotXcm' => (PLACES[chain].paraId === undefined ? 'XcmPallet' : 'PolkadotXcm');

/** The message queue origin `to` processes a message from `from` under (MessageQueue.Processed's `origin`). */
export function queueOrigin(from: SandboxChainName, to: SandboxChainName): unknown {
  const fromPara = PLACES[from].paraId;
  if (PLACES[to].paraId === undefined) return { Ump: { Para: fromPara ?? 0 } };
  return fromPara === undefined ? { Parent: null } : { Sibling: fromPara };
}
