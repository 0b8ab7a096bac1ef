// What a sandbox chain lets into its executor, as polkadot-sdk's system chains configure it: the
// barrier (xcm-builder's barriers.rs: WithComputedOrigin around AllowTopLevelPaidExecutionFrom and
// AllowExplicitUnpaidExecutionFrom) and how deep a message's programs may nest (MAX_XCM_DECODE_DEPTH).
import { variantOf } from '../xcm/location';
import type { SandboxChainName } from './chain-data';
import type { Weight } from './fee-model';
import { PLACES } from './topology';
import { assetsIn, field, unversioned, type Instruction } from './xcm-program';

/** At most this many assets may come in before a message pays. */
const MAX_ASSETS_FOR_BUY_EXECUTION = 2;
/** How deep programs nest in a message a chain decodes. */
export const MAX_XCM_DECODE_DEPTH = 8;

export const isUnlimited = (limit: unknown): boolean => (typeof limit === 'string' ? /^unlimited$/i.test(limit) : field(limit, 'unlimited') !== undefined);

/** A relay chain or one of its system chains (para ids below 2000). */
export const isSystem = (chain: SandboxChainName): boolean => (PLACES[chain].paraId ?? 0) < 2000;

/**
 * Whether `program` (weighing `weight`), sent by `from` to `chain`, passes the barrier: the origin
 * instructions in front skipped, assets first (at most MAX_ASSETS_FOR_BUY_EXECUTION), then
 * BuyExecution whose limit covers the weight, or PayFees; UnpaidExecution only from the relay and
 * system chains of the same network.
 */
export function passesBarrier(program: Instruction[], weight: Weight, from: SandboxChainName | undefined, chain: SandboxChainName): boolean {
  const names = program.map(([name]) => name);
  let i = 0;
  while (names[i] === 'UniversalOrigin' || names[i] === 'DescendOrigin') i++;
  if (names[i] === 'UnpaidExecution') return from !== undefined && isSystem(from) && PLACES[from].network === PLACES[chain].network;
  if (!['WithdrawAsset', 'ReceiveTeleportedAsset', 'ReserveAssetDeposited', 'ClaimAsset'].includes(names[i] ?? '')) return false;
  const first = program[i]![1];
  if (assetsIn(names[i] === 'ClaimAsset' ? field(first, 'assets') : first).length > MAX_ASSETS_FOR_BUY_EXECUTION) return false;
  i++;
  while (names[i] === 'ClearOrigin' || names[i] === 'AliasOrigin' || names[i] === 'DescendOrigin' || names[i] === 'SetHints') i++;
  if (names[i] === 'PayFees') return true;
  if (names[i] !== 'BuyExecution') return false;
  const limit = field(program[i]![1], 'weight_limit');
  const limited = isUnlimited(limit) ? null : field(limit, 'limited');
  if (!limited) return true;
  return BigInt(String(field(limited, 'ref_time') ?? 0).replace(/,/g, '')) >= weight.refTime && BigInt(String(field(limited, 'proof_size') ?? 0).replace(/,/g, '')) >= weight.proofSize;
}

/** How deep programs nest in `program` (instructions as JSON): 1 for one holding none. */
export function depthOf(program: unknown): number {
  if (!Array.isArray(program)) return 0;
  let deepest = 0;
  for (const item of program) {
    const [name, value] = variantOf(item) ?? ['', null];
    const inner = name === 'SetAppendix' || name === 'SetErrorHandler' ? [value] : [field(value, 'xcm'), field(value, 'remote_xcm')];
    for (const nested of inner) deepest = Math.max(deepest, depthOf(unversioned(nested)));
  }
  return 1 + deepest;
}
