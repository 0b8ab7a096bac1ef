// The events a chain emits for a message it executed (the block's, and the dry run's): a deposit
// event per beneficiary in the pallet that holds the asset, the execution fee deposited to the fee
// account last (where a wallet's pre-flight, the SDK's dry run, reads the fee), and the assets a
// failed program trapped.
import type { Loc } from '../xcm/location';
import { assetOf as chainAssetOf } from './assets';
import type { EventSpec } from './blocks';
import type { SandboxChainName } from './chain-data';
import { xcmPalletOf } from './topology';
import type { Outcome } from './xcm-executor';
import { assetJson, locJson, type Asset } from './xcm-program';
import { crypto, util } from './polkadot-libs';

export type Event = Omit<EventSpec, 'phase'>;

function depositEvent(chain: SandboxChainName, who: string, asset: Asset): Event | undefined {
  const held = chainAssetOf(chain, asset.id);
  switch (held?.store.pallet) {
    case 'System':
      return { pallet: 'Balances', name: 'Minted', fields: { who, amount: asset.amount } };
    case 'Tokens':
      return { pallet: 'Tokens', name: 'Deposited', fields: { currency_id: held.store.id, who, amount: asset.amount } };
    case 'Assets':
      return { pallet: 'Assets', name: 'Issued', fields: { asset_id: held.store.id, owner: who, amount: asset.amount } };
    case 'ForeignAssets':
      return { pallet: 'ForeignAssets', name: 'Issued', fields: { asset_id: locJson(held.store.location), owner: who, amount: asset.amount } };
    default:
      return undefined;
  }
}

const json = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

export function messageEvents(chain: SandboxChainName, outcome: Outcome, origin: Loc): Event[] {
  const events: Event[] = [];
  for (const { who, asset } of [...outcome.deposited, ...outcome.collected]) {
    const event = depositEvent(chain, who, asset);
    if (event) events.push(event);
  }
  // What stays in the holding is trapped whether or not the program failed (polkadot-sdk's post_process).
  if (outcome.trapped.length) {
    const assets = { V5: outcome.trapped.map(assetJson) };
    const hash = crypto.blake2AsHex(util.stringToU8a(json({ origin: locJson(origin), assets })), 256);
    events.push({ pallet: xcmPalletOf(chain), name: 'AssetsTrapped', fields: { hash, origin: locJson(origin), assets } });
  }
  return events;
}
