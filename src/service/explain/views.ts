// The shapes an explanation is made of, shared by the readers: what a call moves (TransferView),
// the steps of its XCM program (XcmStep), an EVM transaction's view, and the warnings a signer sees.
import type { RouteHop } from '../route-check';
import type { CallView } from './call-decoder';

export interface Warning {
  code: string;
  severity: 'info' | 'caution' | 'danger';
  message: string;
}

export interface Explanation {
  chain: string;
  call?: CallView;
  evm?: EvmView;
  transfers: TransferView[];
  xcm: XcmStep[];
  /** Call data: the chains its message reaches, in order, each checked as the route check does. */
  route?: RouteHop[];
  warnings: Warning[];
}

export interface AssetAmount {
  symbol: string | null;
  /** Base units, as a decimal string (absent for a wildcard). */
  amount: string;
  /** Whole units, when the registry knows the decimals. */
  amountWhole: string | null;
  decimals: number | null;
  /** The registry's location of the asset when it knows it, else the location as the call gives it. */
  location: unknown;
}

export type TransferKind = 'local' | 'teleport' | 'reserveTransfer' | 'throughReserve' | 'bridge' | 'toEthereum';

export interface TransferView {
  kind: TransferKind;
  origin: string;
  /** Registry name of the destination, or 'unknown' (then `destinationLocation` holds the raw location). */
  destination: string;
  destinationLocation?: unknown;
  /** In the destination's own format (SS58 with its prefix, 20-byte, Ethereum); the raw location when not one account. */
  beneficiary: string | { location: unknown };
  assets: AssetAmount[];
  feeAsset?: AssetAmount;
  /** 'unlimited', or the weight limit the call sets. */
  feeLimit?: 'unlimited' | { refTime: string; proofSize: string };
  /** Local transfers: whether the sender is kept above its existential deposit. */
  keepAlive?: boolean;
  /** The chain the assets pass through on their way (e.g. the asset hub between Moonbeam and Ethereum). */
  via?: string;
  /** Where what is left on `via` goes (the program's SetAppendix), in that chain's format. */
  leftoversTo?: string | { location: unknown };
  /** The message's SetTopic: the id the hops report it under. */
  topic?: string;
}

export interface CallReading {
  transfers: TransferView[];
  xcm: XcmStep[];
  /** Calls this reader does not know: the generic view stands alone for them. */
  unknown: string[];
}

export interface XcmStep {
  /** The chain that executes the instruction ('unknown' when no registry chain matches). */
  chain: string;
  instruction: string;
  text: string;
  /** For Transact: origin kind, weight and (when the executing chain's metadata could be had) the decoded call. */
  transact?: TransactView;
}

export interface TransactView {
  originKind: string;
  weight: 'unlimited' | { refTime: string; proofSize: string } | null;
  callHex: string;
  call?: unknown;
}

export interface EvmView {
  chainId: number;
  to: string | null;
  contract: string | null;
  function: string | null;
  args: Record<string, unknown> | null;
  value: string;
  /** XCM-interface precompile: `customXcmOnDest` decoded with the chain's metadata (`{v4: [...]}`). */
  customXcmOnDest?: unknown;
}

export interface EvmReading {
  evm: EvmView;
  transfers: TransferView[];
  /** The XCM program the transaction sends, when it carries one (the XCM-interface precompile). */
  xcm: XcmStep[];
  warnings: Warning[];
}
