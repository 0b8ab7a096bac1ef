// Which asset pays the fees of an XTokens precompile transfer. The asset sent pays them itself
// where every chain it reaches takes it for fees, as the route check reads the registry; where one
// does not, a fee asset of the origin goes with it as xtokens' fee item: the first whose transfer
// the route check passes. Moonbeam's precompile dispatches pallet-xcm, which sends the fee asset
// the same way only when both travel through the same reserve: the check's walk refuses the others.
// A transfer no fee asset can carry, or whose reserve has left the ecosystem, is a 400 saying why.
import type { TAssetInfo, TChain, TSubstrateChain } from '@paraspell/sdk-pjs';
import { badRequest, type ApiError } from '../../errors';
import { sdk } from '../../sdk';
import { scaleAmount } from '../../schemas/amount-scale';
import { parseLocation } from '../../xcm/location';
import type { RouteCheck, RouteRefusal } from '../route-check';
import { xTokensTransferOf } from './precompile-routes';
import type { EvmCall } from './snowbridge';
import { buildXTokensTransfer, type XTokensTransfer } from './xtokens-precompile';

/**
 * The fee assets tried, in order, and how much of each goes along (whole units). What the chains
 * do not take for fees is deposited to the recipient with the asset.
 */
const FEE_ASSETS: Partial<Record<TChain, readonly { symbol: string; amount: string }[]>> = {
  Moonbeam: [
    { symbol: 'xcUSDT', amount: '0.2' },
    { symbol: 'xcUSDC', amount: '0.2' },
    { symbol: 'xcDOT', amount: '0.1' },
  ],
  Moonriver: [
    { symbol: 'xcUSDT', amount: '0.2' },
    { symbol: 'xcKSM', amount: '0.01' },
  ],
};

/**
 * Asset hub assets that are not sufficient: alone they cannot create the recipient's account on
 * the asset hub, so they go with a fee asset that can. The registry holds no sufficiency facts;
 * this is its own builder's list (sdk 11.14.8 sends these with 0.2 xcUSDT from Moonbeam).
 */
const NOT_SUFFICIENT_ON_HUB = new Set(['xcPINK', 'xcDED', 'xcSTINK', 'xcWIFD', 'xcNCTR']);

/** The para ids of the registry's chains, by relay chain (read once). */
const paraIds = new Map<string, Set<number>>();
function registryParaIds(relay: string): Set<number> {
  let ids = paraIds.get(relay);
  if (!ids) {
    const chains = sdk.CHAINS.filter((c) => c !== 'Ethereum' && !sdk.isRelayChain(c) && sdk.getRelayChainOf(c as TSubstrateChain) === relay);
    ids = new Set(chains.map((c) => sdk.getParaId(c)));
    paraIds.set(relay, ids);
  }
  return ids;
}

/** The para id an asset of the origin's ecosystem comes from (its reserve), when no chain of the registry has it. */
function departedReserve(from: TChain, asset: TAssetInfo): number | null {
  const location = asset.location ? parseLocation(asset.location) : null;
  const first = location?.junctions[0];
  if (location?.parents !== 1 || first?.type !== 'Parachain') return null;
  const paraId = Number(first.value);
  return registryParaIds(sdk.getRelayChainOf(from as TSubstrateChain)).has(paraId) ? null : paraId;
}

/** A refusal a fee asset may mend: a chain on the way does not take the asset for fees. */
const isFeeRefusal = (r: RouteRefusal | null): r is RouteRefusal => r !== null && r.at === 'BuyExecution.fees' && / does not take .+ for fees$/.test(r.message);

const cannotArrive = ({ from, to, asset }: XTokensTransfer, why: string): ApiError =>
  badRequest('UnsupportedOperationError', `${from} -> ${to} ${asset.symbol} cannot arrive through the XTokens precompile: ${why}`, [
    { path: 'body.currency', message: `${asset.symbol} cannot be sent from ${from} to ${to}` },
  ]);

function feeAsset(from: TChain, symbol: string): TAssetInfo | null {
  try {
    return sdk.findAssetInfo(from, { symbol }, null);
  } catch {
    return null; // ambiguous in the registry
  }
}

/**
 * The precompile call for `transfer`: alone where the route check passes it, else with the first
 * fee asset it passes with. Throws a 400 naming the hop where none does.
 */
export function planXTokensTransfer(routes: RouteCheck, transfer: XTokensTransfer): EvmCall {
  const { from, to, asset } = transfer;
  const departed = departedReserve(from, asset);
  if (departed !== null) {
    const relay = sdk.getRelayChainOf(from as TSubstrateChain);
    throw cannotArrive(transfer, `it travels through its reserve, para ${departed} of ${relay}, and the registry knows no chain with that para id (the chain has left ${relay} or is not served): no route through it can be built or checked`);
  }
  const expected = [{ chain: to, recipient: transfer.recipient }];
  const trial = (call: EvmCall) => routes.trialXTokens(from, xTokensTransferOf(from, call.data), expected);
  const alone = buildXTokensTransfer(transfer);
  const refusal = trial(alone);
  const notSufficient = from === 'Moonbeam' && to === 'AssetHubPolkadot' && NOT_SUFFICIENT_ON_HUB.has(asset.symbol);
  // Passing, or refused for what no fee asset mends: the route check answers it (a fault of ours).
  if (!notSufficient && !isFeeRefusal(refusal)) return alone;
  const tried: string[] = [];
  for (const { symbol, amount } of FEE_ASSETS[from] ?? []) {
    const fee = feeAsset(from, symbol);
    if (!fee || fee.symbol === asset.symbol) continue;
    const call = buildXTokensTransfer({ ...transfer, fee: { asset: fee, amount: scaleAmount(amount, fee.decimals) } });
    const withFee = trial(call);
    if (withFee === null) return call;
    tried.push(`with ${symbol}, at hop ${withFee.hop} (${withFee.chain}) ${withFee.message}`);
  }
  if (!isFeeRefusal(refusal)) return alone;
  throw cannotArrive(
    transfer,
    `at hop ${refusal.hop} (${refusal.chain}), ${refusal.message}, and no fee asset of ${from} can go with it (${tried.join('; ') || `${from} has none`})`,
  );
}
