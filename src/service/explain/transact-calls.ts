// The calls an explanation's Transacts dispatch, decoded with the metadata of the chain that runs
// each (issue 42 part 2): only chains the message's route reaches, at most MAX_TRANSACT_CHAINS of
// them, each dialled through the client's own budget (ChainCall.own): a chain whose shared
// connection is open costs nothing more; any other is a connection of the client's, which never
// closes a shared connection or another client's.
import type { TChain } from '@paraspell/sdk-pjs';
import { OwnBudgetSpentError } from '../../chains/pool';
import type { ApiPromise } from '../../sdk';
import type { ChainCall } from '../sdk-calls';
import { decodeCallData, hexBytes, viewCall } from './call-decoder';
import type { Warning, XcmStep } from './views';

/**
 * Chains besides the origin one explanation connects to, to decode the calls its Transacts
 * dispatch: each may be a connection and a metadata download. With the origin, as many as a client
 * may hold of its own (MAX_OVERRIDE_CONNECTIONS_PER_CLIENT, 3).
 */
export const MAX_TRANSACT_CHAINS = 2;

const notDecoded = (chain: string, why: string): Warning => ({
  code: 'TransactNotDecoded',
  severity: 'caution',
  message: `The call a Transact dispatches on ${chain} is shown as bytes (callHex), not decoded: ${why}`,
});

/**
 * Decodes each Transact's call with the metadata of the chain that runs it, when it can be had:
 * only on chains the route reaches (a walk dials nothing else), at most MAX_TRANSACT_CHAINS of
 * them, within the client's connection budget. A call on any other chain stays bytes (`callHex`),
 * and a warning says why.
 */
export async function decodeTransacts(origin: TChain, steps: XcmStep[], call: ChainCall, reached: Set<string>): Promise<Warning[]> {
  const dialled = new Set<string>([origin]);
  const left = new Map<string, string>();
  /** Why a Transact on `chain` is not decoded, before anything is dialled; undefined when it may be. */
  const skipped = (chain: string): string | undefined =>
    left.get(chain) ??
    (!reached.has(chain)
      ? `the message's route does not reach ${chain}`
      : !dialled.has(chain) && dialled.size > MAX_TRANSACT_CHAINS
        ? `an explanation decodes Transact calls on at most ${MAX_TRANSACT_CHAINS} chains besides its own (MAX_TRANSACT_CHAINS)`
        : undefined);
  for (const step of steps) {
    const transact = step.transact;
    if (!transact || step.chain === 'unknown') continue;
    let why = skipped(step.chain);
    if (why === undefined) {
      dialled.add(step.chain);
      try {
        const api = (await call.own(step.chain)) as ApiPromise;
        transact.call = viewCall(decodeCallData(api.registry, hexBytes(transact.callHex)).call);
        continue;
      } catch (error) {
        if (!(error instanceof OwnBudgetSpentError)) {
          transact.call = { undecoded: error instanceof Error ? error.message : String(error) };
          continue;
        }
        why = `${step.chain} is not connected, and this client's connections are spent (${error.budget}): an explanation dials no further`;
      }
    }
    transact.call = { undecoded: `not decoded: ${why}` };
    left.set(step.chain, why);
  }
  return [...left].map(([chain, why]) => notDecoded(chain, why));
}
