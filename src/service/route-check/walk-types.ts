// What a walk answers (hops, arrivals) and the hop it carries while it walks.
import type { TChain } from '@paraspell/sdk-pjs';
import type { Loc } from '../../xcm/location';
import type { Held } from './xcm-values';

export interface RouteProblem {
  /** Where in the hop: the instruction and its field (`DepositReserveAsset.dest`), or the call's argument. */
  at: string;
  message: string;
}

/** One chain the message reaches, in the order it travels. */
export interface RouteHop {
  /** Registry name of the chain executing this part, or `unknown`. */
  chain: string;
  /** The instructions it executes, in order (for pallet transfers, those the pallet writes). */
  instructions: string[];
  /** False when a problem was found here: the message does not do what it should at this hop. */
  ok: boolean;
  problems: RouteProblem[];
  /** What the registry cannot tell (an unlisted or custom asset): not a refusal. */
  warnings: RouteProblem[];
}

/** Where value ends up: a DepositAsset (or a local transfer's target) outside any appendix. */
export interface Arrival {
  chain: TChain;
  beneficiary: Loc | null;
  hop: number;
}

/** A call that is no batch or proxy, read as the walk reads it: its arguments as polkadot.js's `toJSON` spells them. */
export interface CallView {
  section: string;
  method: string;
  args: Record<string, unknown>;
}

export interface RouteWalk {
  hops: RouteHop[];
  arrivals: Arrival[];
}

export interface Hop {
  chain: TChain;
  view: RouteHop;
  holding: Held[];
  /** A message that arrived from another chain, whose first BuyExecution the barrier makes pay. */
  paid: 'first' | 'done' | 'local';
  /**
   * Who the program runs as: the signer (the origin's own call), the chain that sent it, an account
   * under it (pallet-xcm's send descends to the signer), or no one after ClearOrigin.
   */
  origin: 'signer' | 'chain' | 'account' | 'cleared';
  /** The last top-level DepositAsset, where what stays in the holding is trapped. */
  deposit?: string;
  /** PayFees set fees aside and no RefundSurplus came after: what execution leaves of them is trapped. */
  feesAside?: boolean;
  /** An instruction the walk does not model ran: what the holding holds is no longer known. */
  holdingUnknown?: boolean;
}

/** One asset of a transfer given outside call data: its location as the origin reads it, and its amount. */
export interface SentAsset {
  location: Loc;
  amount: bigint;
}

/** What xTokens does for a transfer that is no Substrate call (Moonbeam's XTokens precompile dispatches it). */
export interface XTokensTransfer {
  assets: SentAsset[];
  /** The asset that pays the fees (index into `assets`). */
  feeItem: number;
  /** The destination chain followed by the beneficiary, as the origin reads it. */
  destination: Loc;
}
