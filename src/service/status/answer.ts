// The answer of POST /x-transfer/status: one leg per chain the transfer passes, in route order, and
// the overall status read from them.

export type TransferStatus = 'not-found' | 'failed' | 'trapped' | 'in-flight' | 'delivered' | 'bridged';
export type LegRole = 'origin' | 'hop' | 'destination' | 'bridge';
export type LegState = 'success' | 'failed' | 'pending' | 'not-found';

/** A failed extrinsic: the dispatch error, decoded with the origin's metadata. */
export interface DispatchFailure {
  /** The pallet's name in the metadata (`XcmPallet`, `PolkadotXcm`), for a module error. */
  pallet?: string;
  /** The error's name (`TooManyAssets`), or the dispatch error's kind (`BadOrigin`, `Token`). */
  name: string;
  message: string;
}

/** A message a chain failed to process: what it reports (`Unsupported`, `processed without success`). */
export interface MessageFailure {
  reason: string;
}

export interface Leg {
  chain: string;
  role: LegRole;
  state: LegState;
  blockNumber?: number;
  blockHash?: string;
  /** Origin only: the extrinsic's index in its block. */
  extrinsicIndex?: number;
  /** `section.Method` as polkadot.js names them: the extrinsic's, or those of the message's processing. */
  events: string[];
  error?: DispatchFailure | MessageFailure;
  /** Assets left in the holding register (`AssetsTrapped`): their hash, to claim them with. */
  trapped?: { hash: string };
}

export interface StatusAnswer {
  status: TransferStatus;
  final: boolean;
  /** The message's id (its SetTopic), when the extrinsic sent one. */
  messageId?: string;
  legs: Leg[];
  /** What the answer does not cover: the part beyond a bridge, blocks not read. */
  note?: string;
}

export const pendingLeg = (chain: string, role: LegRole): Leg => ({ chain, role, state: 'pending', events: [] });

/**
 * The status the legs add up to. `final` is false while something may still change: a leg pending,
 * or an extrinsic not found by a lookback (a later block may still include it).
 */
export function summarise(legs: readonly Leg[], found: { byBlockHash: boolean }): Pick<StatusAnswer, 'status' | 'final'> {
  const [origin, ...later] = legs;
  if (!origin || origin.state === 'not-found') return { status: 'not-found', final: found.byBlockHash };
  if (origin.state === 'failed') return { status: 'failed', final: true };
  if (later.some((leg) => leg.trapped)) return { status: 'trapped', final: true };
  if (later.some((leg) => leg.state === 'failed' || leg.state === 'not-found')) return { status: 'failed', final: true };
  if (later.some((leg) => leg.state === 'pending')) return { status: 'in-flight', final: false };
  return { status: later.at(-1)?.role === 'bridge' ? 'bridged' : 'delivered', final: true };
}

/** The legs a stream has not told its client about yet (each compared by its JSON). */
export function changedLegs(before: readonly string[], legs: readonly Leg[]): Leg[] {
  return legs.filter((leg, i) => before[i] !== JSON.stringify(leg));
}
