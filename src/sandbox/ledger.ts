// One chain's state that moves: each account's nonce and its free and reserved balance of every
// asset the chain holds (assets.ts), written to the node's storage the way the runtime lays it out
// (System.Account, Assets.Account, ForeignAssets.Account, Tokens.Accounts; on Moonbeam an XC-20's
// balances in its contract's EVM storage, EVM.AccountStorages at the `balanceOf` mapping's slot)
// when a block is made, so wallets and our /balance read them with their usual queries. A dispatch that must be all or
// nothing (a batchAll, an XCM program's effects) works on a copy and commits it.
import { crypto, util } from './polkadot-libs';
import { toSdkJson, type Loc } from '../xcm/location';
import { assetsOf, balanceSlot, xc20Address, type ChainAsset } from './assets';
import type { SandboxChainName } from './chain-data';
import type { ChainNode } from './chain-node';
import { seedAsset, seedEvmStorage, seedForeignAsset, seedNative, seedTokens } from './seed';
import { PLACES } from './topology';

export interface Balance {
  free: bigint;
  reserved: bigint;
}

/** A dispatch or XCM error, named as the runtime names it (`Balances.InsufficientBalance`, `FailedToTransactAsset`). */
export class ChainError extends Error {
  constructor(
    readonly pallet: string,
    readonly error: string,
    detail?: string,
  ) {
    super(`${pallet}.${error}${detail ? `: ${detail}` : ''}`);
  }
}

interface Tables {
  balances: Map<ChainAsset, Map<string, Balance>>;
  nonces: Map<string, number>;
}

const copy = (t: Tables): Tables => ({
  balances: new Map([...t.balances].map(([asset, accounts]) => [asset, new Map([...accounts].map(([who, b]) => [who, { ...b }]))])),
  nonces: new Map(t.nonces),
});

export class Ledger {
  private tables: Tables = { balances: new Map(), nonces: new Map() };
  /** Accounts (by asset) whose storage is out of date. */
  private readonly dirty = new Set<string>();

  constructor(readonly chain: SandboxChainName) {}

  balance(asset: ChainAsset, who: string): Balance {
    return this.tables.balances.get(asset)?.get(who.toLowerCase()) ?? { free: 0n, reserved: 0n };
  }

  nonce(who: string): number {
    return this.tables.nonces.get(who.toLowerCase()) ?? 0;
  }

  setNonce(who: string, nonce: number): void {
    this.tables.nonces.set(who.toLowerCase(), nonce);
    this.dirty.add(`0|${who.toLowerCase()}`);
  }

  credit(asset: ChainAsset, who: string, amount: bigint): void {
    const b = this.balance(asset, who);
    this.set(asset, who, { ...b, free: b.free + amount });
  }

  /** Takes `amount` from the free balance; fails with `error` (the pallet's name for it) when short. */
  debit(asset: ChainAsset, who: string, amount: bigint, error = insufficient(asset)): void {
    const b = this.balance(asset, who);
    if (b.free < amount) throw new ChainError(error[0], error[1], `${who} holds ${b.free} ${asset.symbol}, needs ${amount}`);
    this.set(asset, who, { ...b, free: b.free - amount });
  }

  /** Runs `change` on a copy of the state, kept only if it returns without throwing. */
  atomically<T>(change: () => T): T {
    const before = copy(this.tables);
    try {
      return change();
    } catch (error) {
      this.tables = before;
      throw error;
    }
  }

  /** Runs `change` and puts the state back as it was: a dry run. */
  dryRun<T>(change: () => T): T {
    const before = copy(this.tables);
    try {
      return change();
    } finally {
      this.tables = before;
    }
  }

  /** Writes what changed since the last flush into the node's storage. */
  flush(node: ChainNode): void {
    for (const entry of this.dirty) {
      const [index, who] = entry.split('|') as [string, string];
      const asset = assetsOf(this.chain)[Number(index)]!;
      const b = this.balance(asset, who);
      const address = util.hexToU8a(who);
      switch (asset.store.pallet) {
        case 'System':
          seedNative(node, util.u8aToHex(address), b.free, { reserved: b.reserved, nonce: this.nonce(who) });
          break;
        case 'Assets':
          seedAsset(node, asset.store.id, util.u8aToHex(address), b.free);
          break;
        case 'ForeignAssets':
          seedForeignAsset(node, toSdkJson(asset.store.location), util.u8aToHex(address), b.free);
          break;
        case 'Tokens':
          seedTokens(node, util.u8aToHex(address), asset.store.id, b.free, b.reserved);
          break;
        case 'EvmForeignAssets':
          seedEvmStorage(node, xc20Address(asset.store.id), balanceSlot(who), util.u8aToHex(util.bnToU8a(b.free, { bitLength: 256, isLe: false })));
          break;
      }
    }
    this.dirty.clear();
  }

  /** Sets the free balance of the account whose XC-20 balance sits at EVM storage `slot` (what `system.setStorage` writes); false when no account the chain knows has that slot. */
  setEvmSlot(asset: ChainAsset, slot: string, free: bigint): boolean {
    const accounts = new Set([...this.tables.nonces.keys(), ...[...this.tables.balances.values()].flatMap((m) => [...m.keys()])]);
    const who = [...accounts].find((a) => balanceSlot(a) === slot.toLowerCase());
    if (!who) return false;
    this.set(asset, who, { ...this.balance(asset, who), free });
    return true;
  }

  private set(asset: ChainAsset, who: string, b: Balance): void {
    const key = who.toLowerCase();
    // Accounts are 20 bytes on Moonbeam, 32 elsewhere: another width names no account here.
    const width = this.chain === 'Moonbeam' ? 42 : 66;
    if (key.length !== width || !/^0x[0-9a-f]+$/.test(key)) throw new ChainError('XcmError', 'FailedToTransactAsset', `${who} is no account on ${this.chain}`);
    let accounts = this.tables.balances.get(asset);
    if (!accounts) this.tables.balances.set(asset, (accounts = new Map()));
    accounts.set(key, b);
    this.dirty.add(`${assetsOf(this.chain).indexOf(asset)}|${key}`);
  }
}

const insufficient = (asset: ChainAsset): [string, string] =>
  asset.store.pallet === 'System' ? ['Balances', 'InsufficientBalance'] : asset.store.pallet === 'Tokens' ? ['Tokens', 'BalanceTooLow'] : asset.store.pallet === 'EvmForeignAssets' ? ['EvmForeignAssets', 'InsufficientBalance'] : [asset.store.pallet, 'BalanceLow'];

/**
 * The account a location controls on `chain`: an AccountId32 / AccountKey20 below it, else its
 * sovereign account as the runtime derives it (`para` + id on a relay chain, `sibl` + id on a
 * parachain, `Parent` for the relay chain, a hash for anything further); Moonbeam's accounts are
 * 20 bytes, its sovereign accounts the first 20 of those (AccountId20 from 32 bytes).
 */
export function accountOfLocation(location: Loc, chain: SandboxChainName): string | undefined {
  const account = accountOf32(location, PLACES[chain].paraId === undefined);
  // A relay or system chain has 32-byte accounts only: a 20-byte key names none (FailedToTransactAsset).
  if (account?.length === 42 && (PLACES[chain].paraId ?? 0) < 2000) return undefined;
  return chain === 'Moonbeam' && account?.length === 66 ? account.slice(0, 42) : account;
}

function accountOf32(location: Loc, onRelay: boolean): string | undefined {
  const [first, ...rest] = location.junctions;
  if (location.parents === 0 && location.junctions.length === 1 && first) {
    const v = first.value as Record<string, unknown> | null;
    if (first.type === 'AccountId32' && v && typeof v['id'] === 'string') return v['id'].toLowerCase();
    if (first.type === 'AccountKey20' && v && typeof v['key'] === 'string') return v['key'].toLowerCase();
  }
  const fixed = (prefix: string, id?: number) => {
    const bytes = new Uint8Array(32);
    bytes.set(util.stringToU8a(prefix));
    if (id !== undefined) bytes.set(util.bnToU8a(id, { bitLength: 32, isLe: true }), prefix.length);
    return util.u8aToHex(bytes);
  };
  if (location.parents === 1 && location.junctions.length === 0 && !onRelay) return fixed('Parent');
  const para = first?.type === 'Parachain' && rest.length === 0 ? Number(first.value) : undefined;
  if (para !== undefined && location.parents === 0 && onRelay) return fixed('para', para);
  if (para !== undefined && location.parents === 1 && !onRelay) return fixed('sibl', para);
  if (location.parents === 0 && location.junctions.length === 0) return undefined;
  return crypto.blake2AsHex(spelledOnce(location), 256);
}

/**
 * A location written one way, whatever spelling it came in: a network as `'Polkadot'` (SCALE
 * decoded) or `{polkadot: null}` (toJSON), in any case, is one account (the other network's
 * asset hub's sovereign account, bridged tokens' reserve, is the same whoever names it).
 */
function spelledOnce(location: Loc): string {
  const junctions = location.junctions.map((j) => (j.type === 'GlobalConsensus' && typeof j.value === 'string' ? { ...j, value: { [j.value]: null } } : j));
  return JSON.stringify(toSdkJson({ ...location, junctions })).toLowerCase();
}
