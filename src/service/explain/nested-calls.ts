// Calls that carry other calls (batches, proxies): where their nested calls are, for the decoded
// call (innerCalls) and for the scan of its bytes before it is decoded (call-scan.ts).
import type { Call } from '@polkadot/types/interfaces';

/** Calls that carry other calls: the index of the argument holding them. */
const NESTING: Record<string, number> = {
  'utility.batch': 0,
  'utility.batchAll': 0,
  'utility.forceBatch': 0,
  'utility.asDerivative': 1,
  'proxy.proxy': 2,
  'proxy.proxyAnnounced': 3,
};

/** The index of the argument of `section.method` that holds its nested calls, if it has any. */
export const nestedCallArgument = (section: string, method: string): number | undefined => NESTING[`${section}.${method}`];

/** The calls nested inside `call` (the items of a batch, the call a proxy makes), if any. */
export function innerCalls(call: Call): Call[] {
  const index = nestedCallArgument(call.section, call.method);
  if (index === undefined) return [];
  const arg = call.args[index] as unknown;
  return Array.isArray(arg) ? (arg as Call[]) : [arg as Call];
}
