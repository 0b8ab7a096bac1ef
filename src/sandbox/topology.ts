// Where the sandbox's chains sit (relay chain or parachain, and which network) and what a call
// or an XCM program asks for, read from its decoded JSON: the chain it sends to, the chain that
// finally receives, the beneficiary and the amount. Nothing executes: this is how the emulated
// runtime answers (emulated-runtime.ts) and the events of a submitted transfer (network.ts) are
// made to fit the call a wallet signed.
import type { SandboxChainName } from './chain-node';
import type { Location } from './xcm-events';
import { PARENT, child, sibling } from './xcm-events';

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

const CHAINS = Object.keys(PLACES) as SandboxChainName[];

/** The sandbox chain of `network` with `paraId` (undefined: its relay chain), if the sandbox runs it. */
function chainAt(network: Place['network'], paraId: number | undefined): SandboxChainName | undefined {
  return CHAINS.find((c) => PLACES[c].network === network && PLACES[c].paraId === paraId);
}

/** pallet-xcm's name on a chain: XcmPallet on relay chains, PolkadotXcm on parachains. */
export const xcmPalletOf = (chain: SandboxChainName): 'XcmPallet' | 'PolkadotXcm' => (PLACES[chain].paraId === undefined ? 'XcmPallet' : 'PolkadotXcm');

/** Where `to` is, seen from `from` (V5 JSON). */
export function locationOf(from: SandboxChainName, to: SandboxChainName): Location {
  const toPara = PLACES[to].paraId;
  if (PLACES[from].paraId === undefined) return child(toPara ?? 0);
  return toPara === undefined ? PARENT : sibling(toPara);
}

/** The message queue origin `to` processes a message from `from` under (MessageQueue.Processed's `origin`). */
export function queueOrigin(from: SandboxChainName, to: SandboxChainName): unknown {
  const fromPara = PLACES[from].paraId;
  if (PLACES[to].paraId === undefined) return { Ump: { Para: fromPara ?? 0 } };
  return fromPara === undefined ? { Parent: null } : { Sibling: fromPara };
}

// ---- reading decoded JSON (polkadot.js toJSON: camelCase enum keys, versioned wrappers) ---------

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first value under `key` (any case) anywhere in `value`, depth first. */
export function find(value: Json, key: string): Json {
  const wanted = key.toLowerCase();
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = find(item, key);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  for (const [k, v] of Object.entries(value)) if (k.toLowerCase() === wanted) return v;
  for (const v of Object.values(value)) {
    const found = find(v, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `{ v5: x }` -> x (also v3, v4). */
function unversioned(value: Json): Json {
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  return keys.length === 1 && /^v\d+$/i.test(keys[0]!) ? value[keys[0]!] : value;
}

/** The chain a location (relative to `from`) names, if the sandbox runs it. */
export function chainOf(from: SandboxChainName, location: Json): SandboxChainName | undefined {
  const loc = unversioned(location);
  if (!isObject(loc) || typeof loc['parents'] !== 'number') return undefined;
  const para = find(loc['interior'], 'parachain');
  const paraId = typeof para === 'number' ? para : undefined;
  const place = PLACES[from];
  if (loc['parents'] === 0) return paraId === undefined ? from : place.paraId === undefined ? chainAt(place.network, paraId) : undefined;
  if (loc['parents'] === 1 && place.paraId !== undefined) return chainAt(place.network, paraId);
  return undefined;
}

/** An account id (32 bytes) or key (20 bytes) named anywhere in `value`, as hex. */
export function accountIn(value: Json): string | undefined {
  const id32 = find(value, 'accountId32');
  const id = isObject(id32) ? id32['id'] : undefined;
  if (typeof id === 'string') return id;
  const key20 = find(value, 'accountKey20');
  const key = isObject(key20) ? key20['key'] : undefined;
  return typeof key === 'string' ? key : undefined;
}

const bigintOf = (value: Json): bigint | undefined => (typeof value === 'number' || (typeof value === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(value)) ? BigInt(value) : undefined);

/** The first fungible amount in `value`. */
export const amountIn = (value: Json): bigint | undefined => bigintOf(find(value, 'fungible'));

/** Instructions that send what they hold on to another chain, with the field naming it. */
const ONWARD = [
  ['depositReserveAsset', 'dest'],
  ['initiateTeleport', 'dest'],
  ['initiateReserveWithdraw', 'reserve'],
  ['initiateTransfer', 'destination'],
] as const;

/** The location (relative to the chain that runs `program`) an XCM program sends onward to, if any. */
export function onwardIn(program: Json): Json {
  for (const [instruction, field] of ONWARD) {
    const found = find(program, instruction);
    if (isObject(found) && found[field] !== undefined) return found[field];
  }
  return undefined;
}

/** What a call asks for, as far as the sandbox reads it. */
export interface Plan {
  kind: 'xcm' | 'local' | 'other';
  /** The chain the call sends its message to. */
  next?: SandboxChainName;
  /** The chain that receives the transfer (after `next`, when the message goes on from there). */
  destination?: SandboxChainName;
  beneficiary?: string;
  amount: bigint;
}

/** Reads a call's arguments (`name -> toJSON()`, names as the metadata gives them) on `origin`. */
export function planOf(origin: SandboxChainName, section: string, args: Record<string, Json>): Plan {
  if (section === 'balances') {
    const dest = args['dest'];
    const beneficiary = isObject(dest) && typeof dest['id'] === 'string' ? dest['id'] : typeof dest === 'string' ? dest : undefined;
    return { kind: 'local', destination: origin, beneficiary, amount: bigintOf(args['value']) ?? 0n };
  }
  if (!['xcmPallet', 'polkadotXcm', 'xTokens'].includes(section) || args['dest'] === undefined) return { kind: 'other', amount: 0n };
  const next = chainOf(origin, args['dest']);
  const amount = amountIn(args['assets'] ?? args['asset'] ?? args['currencies']) ?? bigintOf(args['amount']) ?? 0n;
  const beneficiary = accountIn(args['beneficiary']) ?? accountIn(args['dest']) ?? accountIn(args);
  const onward = next && onwardIn(args);
  // The SDK writes the onward location of a transfer through Asset Hub as the origin sees it.
  const destination = (onward !== undefined && next ? (chainOf(next, onward) ?? chainOf(origin, onward)) : undefined) ?? next;
  return { kind: 'xcm', next, destination, beneficiary, amount };
}
