// A transact request's own rules, checked before anything is dialled (run first by
// `checkBeforeDial`): each refusal says what to send instead. The call itself is built by
// service/transfer (transact.ts).
import type { TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import { badRequest, type ApiError } from '../../errors';
import { sdk } from '../../sdk';
import type { TransferRequest } from '../../schemas/transfer';

/** Fields a transfer-shaped request may carry that matter to the transact checks. */
export type TransactCandidate = TransferRequest & { transact?: unknown; swapOptions?: unknown };

const refuse = (message: string, kind = 'UnsupportedOperationError'): ApiError => badRequest(kind, message);

/** Relay chains and system chains (AssetHub, BridgeHub, People, Coretime, Collectives, Encointer) and Mythos. */
const isTrusted = (chain: TChain): boolean => sdk.isTrustedChain(chain);

/** Relays send through XcmPallet; parachains through PolkadotXcm, unless their SDK class only has XTokens. */
function canSendXcm(chain: TSubstrateChain): boolean {
  if (sdk.isRelayChain(chain)) return true;
  return 'transferPolkadotXCM' in (sdk.getChain(chain) as object);
}

type XcmVersion = NonNullable<TransferRequest['xcmVersion']>;

const VERSION_ORDER: readonly XcmVersion[] = ['V3', 'V4', 'V5'];

/** The route's XCM version: the requested one, else the lower of what the registry knows for each end. */
export function transactVersion(req: Pick<TransferRequest, 'xcmVersion'> & { from: TSubstrateChain; to: TSubstrateChain }): XcmVersion {
  if (req.xcmVersion) return req.xcmVersion;
  const index = (chain: TSubstrateChain) => Math.max(0, VERSION_ORDER.indexOf(sdk.getChainVersion(chain) as XcmVersion));
  return VERSION_ORDER[Math.min(index(req.from), index(req.to))] ?? 'V3';
}

/**
 * Everything about a transact request that can be refused without a chain, each with what to send
 * instead; nothing to check without a payload. Part of `checkBeforeDial`.
 */
export function checkTransactRequest(req: TransactCandidate): void {
  if (req.transact === undefined) return;
  if (req.swapOptions !== undefined) throw refuse('transact cannot be combined with swapOptions: build the swap (POST /x-transfers) and the transact as two transfers');
  if (typeof req.to !== 'string') throw refuse('transact needs the destination as a chain name (its metadata decodes the call), not a custom location', 'ValidationError');
  if (req.from === req.to) throw refuse('transact runs a call on another chain; for a call on the same chain, submit that call itself (from and to must differ)');
  if (Array.isArray(req.currency)) throw refuse('transact takes one currency (the asset that pays for execution), not several: send a single {symbol|id|location, amount}');
  if (req.from === 'Ethereum' || req.to === 'Ethereum' || sdk.isChainEvm(req.from) || sdk.isChainEvm(req.to)) {
    throw refuse('transact is served between Substrate chains only; EVM chains and Ethereum cannot take part');
  }
  const from = req.from as TSubstrateChain;
  const to = req.to as TSubstrateChain;
  if (sdk.getRelayChainOf(from) !== sdk.getRelayChainOf(to)) throw refuse(`transact does not cross ecosystems: ${from} and ${to} are under different relay chains; send it between chains of one relay`);
  if (!canSendXcm(from)) throw refuse(`${from} sends XCM only through XTokens, which cannot carry a Transact; start from a chain with PolkadotXcm (or a relay chain)`);
  if (!isTrusted(from) && !isTrusted(to)) {
    throw refuse(`transact needs a trusted chain at one end (a relay chain or a system chain such as AssetHub); neither ${from} nor ${to} is one: send from or to such a chain`);
  }
  if (typeof req.recipient !== 'string') throw refuse('transact deposits what is left to an account: give the recipient as an address, not a location', 'ValidationError');
  if (req.sender === undefined) throw badRequest('MissingParameterError', 'transact needs the sender address (the account whose location runs the call)');
  if (req.currency.amount === 'ALL') throw refuse('transact needs a definite amount of the fee asset, not ALL', 'NumberFormatError');
  if ('location' in req.currency && typeof req.currency.location === 'object' && req.currency.location !== null && 'type' in req.currency.location) {
    throw refuse('transact selects its asset from the registry: use {symbol}, {id} or {location} without Override', 'InvalidCurrencyError');
  }
  if (req.feeAsset !== undefined) throw refuse('transact pays with the currency itself; leave feeAsset out', 'ValidationError');
  if (req.pallet !== undefined) throw refuse('transact chooses its pallet and method (send below V5, execute from V5); leave pallet and method out', 'ValidationError');
  const version = transactVersion({ xcmVersion: req.xcmVersion, from, to });
  if (version === 'V5') {
    for (const chain of [from, to]) {
      if (!sdk.hasDryRunSupport(chain) || !sdk.hasXcmPaymentApiSupport(chain)) {
        throw refuse(`transact over XCM V5 prices the message with DryRunApi and XcmPaymentApi, which ${chain} does not offer; send xcmVersion V4 (the send path)`, 'RuntimeApiUnavailableError');
      }
    }
  }
}
