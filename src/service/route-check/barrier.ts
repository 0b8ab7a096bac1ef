// What a chain's barrier and decoder let through, as polkadot-sdk's system chains configure them
// (xcm-builder's barriers.rs, xcm's MAX_XCM_DECODE_DEPTH): the walker asks before it runs a
// message that arrived.
import { variantOf } from '../../xcm/location';
import { limitOf, type Price } from './runtime-facts';
import { isObject } from './xcm-values';

/** At most this many assets may come in before the message pays (barriers.rs). */
export const MAX_ASSETS_FOR_BUY_EXECUTION = 2;
/** How deep XCM programs nest inside each other in a message a chain decodes (xcm/src/lib.rs). */
export const MAX_XCM_DECODE_DEPTH = 8;

/** One instruction of a message as the barrier sees it: its name, and how many assets it carries where that counts. */
export interface Seen {
  name: string;
  value: unknown;
  assets?: number;
}

const ASSETS_IN = ['WithdrawAsset', 'ReceiveTeleportedAsset', 'ReserveAssetDeposited', 'ClaimAsset'];

/**
 * Why the barrier refuses `message` (null when it lets it through): WithComputedOrigin skips the
 * origin instructions in front; AllowTopLevelPaidExecutionFrom then wants assets brought in (at
 * most two), optionally ClearOrigin/AliasOrigin/DescendOrigin/SetHints, then BuyExecution with a
 * limit that covers the message's weight, or PayFees. A message that asks for UnpaidExecution is
 * let through only from chains the destination trusts: `unpaid` says whether its sender may.
 */
export function barrierRefusal(message: Seen[], price: Price | undefined, unpaid: boolean): string | null {
  let i = 0;
  while (message[i]?.name === 'UniversalOrigin' || message[i]?.name === 'DescendOrigin') i++;
  if (message[i]?.name === 'UnpaidExecution') return unpaid ? null : 'UnpaidExecution from a chain the destination does not let execute for free (only its relay and system chains)';
  const first = message[i];
  if (!first || !ASSETS_IN.includes(first.name)) return `the message starts with ${first?.name ?? 'nothing'}, not with the assets that pay for it (WithdrawAsset, ReceiveTeleportedAsset, ReserveAssetDeposited or ClaimAsset)`;
  const count = first.assets ?? (Array.isArray(first.value) ? first.value.length : 0);
  if (count > MAX_ASSETS_FOR_BUY_EXECUTION) return `${first.name} brings ${count} assets before the message pays: at most ${MAX_ASSETS_FOR_BUY_EXECUTION} (BadFormat)`;
  i++;
  while (['ClearOrigin', 'AliasOrigin', 'DescendOrigin', 'SetHints'].includes(message[i]?.name ?? '')) i++;
  const pay = message[i];
  if (pay?.name === 'PayFees') return null;
  if (pay?.name !== 'BuyExecution') return `${pay?.name ?? 'the end of the message'} comes where the barrier wants BuyExecution or PayFees: the message does not pay for its execution`;
  const limit = limitOf(isObject(pay.value) ? (pay.value.weightLimit ?? pay.value.weight_limit) : undefined);
  if (limit && price && (limit.refTime < price.weight.refTime || limit.proofSize < price.weight.proofSize)) {
    return `BuyExecution's weight limit (${limit.refTime}, ${limit.proofSize}) is below the weight of any message there (at least ${price.weight.refTime}, ${price.weight.proofSize}): the barrier refuses it`;
  }
  return null;
}

/** How deep programs nest in `program` (1 for a program holding none). */
export function depthOf(program: unknown): number {
  if (!Array.isArray(program)) return 0;
  let deepest = 0;
  for (const instruction of program) {
    const [name, value] = variantOf(instruction) ?? ['', null];
    const inner = name === 'SetAppendix' || name === 'SetErrorHandler' ? [value] : isObject(value) ? [value.xcm, value.remoteXcm, value.remote_xcm] : [];
    for (const nested of inner) deepest = Math.max(deepest, depthOf(nested));
  }
  return 1 + deepest;
}
