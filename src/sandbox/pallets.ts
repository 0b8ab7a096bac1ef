// The pallets the sandbox emulates, dispatching a signed call at inclusion: balances.transfer*,
// assets / foreignAssets / tokens / currencies transfers, utility.batch / batchAll (atomic) /
// forceBatch, pallet-xcm (xcmPallet, polkadotXcm: limitedTeleportAssets, limitedReserveTransferAssets,
// transferAssets, transferAssetsUsingTypeAndThen, execute, send) and xTokens (transfer,
// transferMultiasset(s)), and as root what the SDK's dry runs fund a sender with (forceSetBalance,
// tokens.setBalance, assets and foreignAssets forceAssetStatus / mint, system.setStorage of an
// XC-20 balance). An XCM transfer is turned into the local program pallet-xcm executes
// (xcm-transfers.ts), run by the executor; what it sends goes out by the network. Any other call
// fails with System.CallFiltered naming it: never a silent success.
import { crypto, util } from './polkadot-libs';
import type { Call } from '@polkadot/types/interfaces';
import type { TypeRegistry } from '@polkadot/types';
import { assetById, assetsOf, nativeOf, xc20Address, type ChainAsset } from './assets';
import type { EventSpec } from './blocks';
import type { SandboxChainName } from './chain-data';
import { deliveryFeeTo } from './fee-model';
import { ChainError, type Ledger } from './ledger';
import { sameLocation } from '../xcm/location';
import { evmStorageKey } from './storage-keys';
import { PLACES, xcmPalletOf } from './topology';
import { chainAt, execute, type Hex, type Outgoing } from './xcm-executor';
import { assetsIn, field, locationOf, programOf, type Asset } from './xcm-program';
import { destinationJson, interiorJson, senderLocation, transferProgram, xTokensTransfer, type TransferKind } from './xcm-transfers';

export interface Dispatch {
  chain: SandboxChainName;
  ledger: Ledger;
  /** The signer's account id (hex). */
  signer: string;
  /** Root origin (a dry run's): root-only calls (force*, setBalance, dispatchAs) are allowed. */
  root?: boolean;
  /** The topic the messages this extrinsic sends carry. */
  topic: Hex;
}

/** What a dispatched call did: its events (their phase set by the block) and the messages it sends. */
export interface Dispatched {
  events: Omit<EventSpec, 'phase'>[];
  sent: Outgoing[];
  /** The XCM program pallet-xcm executed locally (V5 JSON), if any. */
  local?: unknown[];
}

const bigintOf = (v: unknown): bigint => BigInt(v as string | number);
const accountOf = (dest: unknown): string => {
  const id = field(dest, 'id') ?? dest;
  if (typeof id !== 'string') throw new ChainError('System', 'CallFiltered', 'the sandbox takes account ids (MultiAddress::Id) only');
  return id.startsWith('0x') ? id.toLowerCase() : util.u8aToHex(crypto.decodeAddress(id));
};

const rootOnly = (d: Dispatch): void => {
  if (!d.root) throw new ChainError('System', 'CallFiltered', 'BadOrigin: a root-only call');
};

/** Sets an account's free balance (what the SDK's dry runs do as root to fund the sender). */
function setFree(d: Dispatch, asset: ChainAsset, who: string, free: bigint): Dispatched {
  rootOnly(d);
  const now = d.ledger.balance(asset, who).free;
  if (free > now) d.ledger.credit(asset, who, free - now);
  else d.ledger.debit(asset, who, now - free);
  return { events: [], sent: [] };
}

/** Dispatches `call` from the signer; throws ChainError (what ExtrinsicFailed names), leaving the state as it was. */
export function dispatch(d: Dispatch, call: Call): Dispatched {
  return d.ledger.atomically(() => dispatchInner(d, call));
}

function dispatchInner(d: Dispatch, call: Call): Dispatched {
  const args: Record<string, unknown> = {};
  for (const [name, value] of call.argsEntries) args[name] = value.toJSON();
  const name = `${call.section}.${call.method}`;
  if (call.section === 'utility' && ['batch', 'batchAll', 'forceBatch'].includes(call.method)) return batch(d, call.method, call.args[0] as unknown as Call[]);
  switch (name) {
    case 'system.remark':
    case 'system.remarkWithEvent':
      return { events: [], sent: [] };
    case 'balances.forceSetBalance':
      return setFree(d, nativeOf(d.chain), accountOf(args['who']), bigintOf(args['new_free']));
    case 'tokens.setBalance':
    case 'currencies.updateBalance':
      return setFree(d, known(assetById(d.chain, 'Tokens', Number(args['currency_id']))), accountOf(args['who']), bigintOf(args['new_free'] ?? args['amount']));
    case 'system.setStorage':
      rootOnly(d);
      for (const [key, value] of args['items'] as [string, string][]) setXc20Balance(d, call, key, value);
      return { events: [], sent: [] };
    case 'assets.forceCreate':
    case 'assets.forceAssetStatus':
      rootOnly(d);
      known(assetById(d.chain, 'Assets', Number(args['id'])));
      return { events: [], sent: [] };
    case 'assets.mint': {
      const asset = known(assetById(d.chain, 'Assets', Number(args['id'])));
      d.ledger.credit(asset, accountOf(args['beneficiary']), bigintOf(args['amount']));
      return { events: [], sent: [] };
    }
    case 'foreignAssets.forceCreate':
    case 'foreignAssets.forceAssetStatus':
      rootOnly(d);
      foreignAsset(d.chain, args['id']);
      return { events: [], sent: [] };
    case 'foreignAssets.mint':
      d.ledger.credit(foreignAsset(d.chain, args['id']), accountOf(args['beneficiary']), bigintOf(args['amount']));
      return { events: [], sent: [] };
    case 'foreignAssets.transfer':
    case 'foreignAssets.transferKeepAlive':
      return moveAsset(d, foreignAsset(d.chain, args['id']), accountOf(args['target']), bigintOf(args['amount']));
    case 'utility.dispatchAs': {
      rootOnly(d);
      const as = field(field(args['as_origin'], 'system'), 'signed');
      if (typeof as !== 'string') throw new ChainError('System', 'CallFiltered', 'dispatchAs a signed origin only');
      return dispatchInner({ ...d, signer: accountOf(as), root: false }, call.args[1] as unknown as Call);
    }
    case 'balances.transferKeepAlive':
    case 'balances.transferAllowDeath':
    case 'balances.transfer':
      return moveAsset(d, nativeOf(d.chain), accountOf(args['dest']), bigintOf(args['value']));
    case 'balances.transferAll': {
      const native = nativeOf(d.chain);
      return moveAsset(d, native, accountOf(args['dest']), d.ledger.balance(native, d.signer).free);
    }
    case 'assets.transfer':
    case 'assets.transferKeepAlive':
      return moveAsset(d, known(assetById(d.chain, 'Assets', Number(args['id']))), accountOf(args['target']), bigintOf(args['amount']));
    case 'tokens.transfer':
    case 'currencies.transfer': {
      const id = Number(args['currency_id']);
      return moveAsset(d, known(id === 0 ? nativeOf(d.chain) : assetById(d.chain, 'Tokens', id)), accountOf(args['dest']), bigintOf(args['amount']));
    }
  }
  if (call.section === 'xcmPallet' || call.section === 'polkadotXcm') return xcmCall(d, call.method, args);
  if (call.section === 'xTokens') return xcm(d, xTokensTransfer(d.chain, call.method, args));
  throw new ChainError('System', 'CallFiltered', `the sandbox does not emulate ${name}`);
}

/**
 * `system.setStorage` of an XC-20 balance (EVM.AccountStorages at an account's `balanceOf` slot),
 * how the SDK's dry runs fund a sender on Moonbeam; any other key is refused, as the sandbox
 * holds no raw state but what its ledger knows.
 */
function setXc20Balance(d: Dispatch, call: Call, key: string, value: string): void {
  const bytes = util.hexToU8a(key);
  const contract = util.u8aToHex(bytes.subarray(48, 68));
  const slot = util.u8aToHex(bytes.subarray(84, 116));
  const asset = assetsOf(d.chain).find((a) => a.store.pallet === 'EvmForeignAssets' && xc20Address(a.store.id) === contract);
  const named = bytes.length === 116 && asset && evmStorageKey(call.registry as TypeRegistry, contract, slot) === key.toLowerCase();
  if (!named || !d.ledger.setEvmSlot(asset, slot, util.hexToBigInt(value))) throw new ChainError('System', 'CallFiltered', `the sandbox sets only the XC-20 balances of accounts it knows, not ${key}`);
}

/** A ForeignAssets asset by its id, a location. */
const foreignAsset = (chain: SandboxChainName, id: unknown): ChainAsset =>
  known(assetsOf(chain).find((a) => a.store.pallet === 'ForeignAssets' && sameLocation(a.store.location, locationOf(id))));

const known = (asset: ChainAsset | undefined): ChainAsset => {
  if (!asset) throw new ChainError('Assets', 'Unknown', 'the sandbox holds no such asset on this chain');
  return asset;
};

function moveAsset(d: Dispatch, asset: ChainAsset, to: string, amount: bigint): Dispatched {
  d.ledger.debit(asset, d.signer, amount);
  d.ledger.credit(asset, to, amount);
  const store = asset.store;
  // An XC-20 moves inside the EVM: its events are EVM logs, which the sandbox does not make.
  if (store.pallet === 'EvmForeignAssets') return { events: [], sent: [] };
  const event =
    store.pallet === 'System'
      ? { pallet: 'Balances', name: 'Transfer', fields: { from: d.signer, to, amount } }
      : store.pallet === 'Tokens'
        ? { pallet: 'Tokens', name: 'Transfer', fields: { currency_id: store.id, from: d.signer, to, amount } }
        : { pallet: store.pallet, name: 'Transferred', fields: { asset_id: store.pallet === 'Assets' ? store.id : store.location, from: d.signer, to, amount } };
  return { events: [event], sent: [] };
}

function batch(d: Dispatch, kind: string, calls: Call[]): Dispatched {
  const out: Dispatched = { events: [], sent: [] };
  for (const [index, inner] of calls.entries()) {
    try {
      const done = kind === 'batchAll' ? dispatchInner(d, inner) : dispatch(d, inner);
      out.events.push(...done.events, { pallet: 'Utility', name: 'ItemCompleted' });
      out.sent.push(...done.sent);
    } catch (error) {
      if (kind === 'batchAll' || !(error instanceof ChainError)) throw error;
      if (kind === 'batch') {
        out.events.push({ pallet: 'Utility', name: 'BatchInterrupted', fields: { index, error: error } });
        return out;
      }
      out.events.push({ pallet: 'Utility', name: 'ItemFailed', fields: { error } });
    }
  }
  const failed = out.events.some((e) => e.name === 'ItemFailed');
  out.events.push({ pallet: 'Utility', name: failed ? 'BatchCompletedWithErrors' : 'BatchCompleted' });
  return out;
}

function xcmCall(d: Dispatch, method: string, args: Record<string, unknown>): Dispatched {
  const pallet = xcmPalletOf(d.chain);
  const dest = () => locationOf(args['dest']);
  const assets = () => assetsIn(args['assets']);
  const fee = () => Number(args['fee_asset_item'] ?? 0);
  const beneficiary = () => locationOf(args['beneficiary']);
  switch (method) {
    case 'limitedTeleportAssets':
    case 'teleportAssets':
      return xcm(d, transferProgram(d.chain, dest(), beneficiary(), assets(), fee(), 'teleport', undefined, args['weight_limit']));
    case 'limitedReserveTransferAssets':
    case 'reserveTransferAssets':
      return xcm(d, transferProgram(d.chain, dest(), beneficiary(), assets(), fee(), 'reserve', undefined, args['weight_limit']));
    case 'transferAssets':
      return xcm(d, transferProgram(d.chain, dest(), beneficiary(), assets(), fee(), 'any', undefined, args['weight_limit']));
    case 'transferAssetsUsingTypeAndThen': {
      const list = assets();
      const feeId = locationOf(args['remote_fees_id']);
      const feeIndex = Math.max(0, list.findIndex((a) => JSON.stringify(a.id) === JSON.stringify(feeId)));
      const kind = transferKindOf(args['assets_transfer_type']);
      return xcm(d, transferProgram(d.chain, dest(), undefined, list, feeIndex, kind, programOf(args['custom_xcm_on_dest']), args['weight_limit']));
    }
    case 'execute':
      return xcm(d, { program: programOf(args['message']), jit: false });
    case 'send': {
      const to = chainAt(d.chain, dest());
      if (!to) throw new ChainError(pallet, 'Unreachable', 'no route to the destination');
      const program = [{ DescendOrigin: { X1: [senderLocation(d.signer).interior.X1[0]] } }, ...programOf(args['message']).map(([n, v]) => ({ [n]: v }))];
      return xcm(d, { program: [], jit: true, direct: { to, message: program } });
    }
  }
  throw new ChainError('System', 'CallFiltered', `the sandbox does not emulate ${pallet}.${method}`);
}

function transferKindOf(value: unknown): TransferKind {
  const variant = value && typeof value === 'object' ? Object.keys(value)[0] : String(value);
  if (/^teleport$/i.test(variant ?? '')) return 'teleport';
  if (/^localreserve$/i.test(variant ?? '')) return 'local';
  if (/^destinationreserve$/i.test(variant ?? '')) return 'destination';
  if (/^remotereserve$/i.test(variant ?? '')) return { remote: locationOf((value as Record<string, unknown>)[variant!]) };
  throw new ChainError('System', 'CallFiltered', `the sandbox does not read the transfer type ${JSON.stringify(value)}`);
}

/** Runs pallet-xcm's local program from the signer; its sends go out with Sent (and FeesPaid) events. */
function xcm(d: Dispatch, p: { program: ReturnType<typeof programOf>; jit: boolean; direct?: { to: SandboxChainName; message: unknown[] } }): Dispatched {
  const pallet = xcmPalletOf(d.chain);
  const origin = senderLocation(d.signer);
  const outcome = execute({ chain: d.chain, ledger: d.ledger, origin: locationOf(origin), fromRemote: false, topic: d.topic, jitWithdraw: p.jit }, p.program);
  if (outcome.error) throw new ChainError(pallet, 'LocalExecutionIncompleteWithError', `${outcome.error.name} at instruction ${outcome.error.index}: ${outcome.error.detail}`);
  const sent = [...outcome.sent];
  const paid: Asset[] = [...outcome.paid];
  if (p.direct) {
    const fee = sendFee(d, p.direct.to, p.direct.message.length + 1);
    paid.push(fee);
    sent.push({ from: d.chain, to: p.direct.to, message: [...p.direct.message, { SetTopic: d.topic }], topic: d.topic });
  }
  const events: Dispatched['events'] = [];
  if (paid.length) events.push({ pallet, name: 'FeesPaid', fields: { paying: origin, fees: paid.map((a) => ({ id: { parents: a.id.parents, interior: interiorJson(a.id.junctions) }, fun: { Fungible: a.amount } })) } });
  for (const s of sent) {
    events.push({ pallet, name: 'Sent', fields: { origin, destination: destinationJson(d.chain, s.to), message: s.message, message_id: s.topic } });
    if (PLACES[d.chain].paraId !== undefined && PLACES[s.to].paraId !== undefined) events.push({ pallet: 'XcmpQueue', name: 'XcmpMessageSent', fields: { message_hash: s.topic } });
  }
  return { events, sent, local: p.program.map(([name, value]) => ({ [name]: value })) };
}

function sendFee(d: Dispatch, to: SandboxChainName, instructions: number): Asset {
  const native = nativeOf(d.chain);
  const fee = deliveryFeeTo(d.chain, to, instructions);
  d.ledger.debit(native, d.signer, fee);
  return { id: native.location, amount: fee };
}
