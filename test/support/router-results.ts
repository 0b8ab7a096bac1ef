// xcm-router 11.14.8's results for a swap Polkadot DOT -> Astar ASTR through Hydration, typed with
// its own exported types and shaped as its source builds them, for a fake router engine
// (fake-router-engine.ts) to answer.
import type { TAssetInfo, TChain } from '@paraspell/sdk-pjs';
import type { TRouterDryRunResult, TRouterXcmFeeResult } from '@paraspell/xcm-router';
import { sdk } from '../../src/sdk';

/** An asset of the SDK's registry by symbol, the chain's native one first. */
export const routerAsset = (chain: TChain, symbol: string): TAssetInfo => {
  const native = sdk.findNativeAssetInfo(chain);
  const found = native?.symbol === symbol ? native : sdk.findAssetInfo(chain, { symbol }, null);
  if (!found) throw new Error(`no ${symbol} on ${chain}`);
  return found;
};

/** mergeDryRunResults + assignIsExchange: origin leg, the exchange as a hop, the destination. */
export const ROUTER_DRY_RUN: TRouterDryRunResult = {
  origin: { success: true, fee: 15_000_000n, weight: { refTime: 1_000n, proofSize: 2_000n }, forwardedXcms: [], destParaId: 2034, currency: 'DOT', asset: routerAsset('Polkadot', 'DOT') },
  hops: [{ chain: 'Hydration', result: { success: true, fee: 2_000_000_000_000n, forwardedXcms: [], destParaId: 2006, currency: 'DOT', asset: routerAsset('Hydration', 'DOT') }, isExchange: true }],
  destination: { success: true, fee: 3_000_000n, forwardedXcms: [], currency: 'ASTR', asset: routerAsset('Astar', 'ASTR') },
};

/** getRouterFees (two-click): sending chain's origin, the exchange hop (swap fee + onward fee), the receiving destination. */
export const ROUTER_FEES: TRouterXcmFeeResult = {
  origin: { fee: 16_000_000n, feeType: 'dryRun', currency: 'DOT', asset: routerAsset('Polkadot', 'DOT'), sufficient: true, weight: { refTime: 10n, proofSize: 20n } },
  hops: [{ chain: 'Hydration', result: { fee: 9_000_000_000n, feeType: 'paymentInfo', currency: 'HDX', asset: routerAsset('Hydration', 'HDX') }, isExchange: true }],
  destination: { fee: 5_000_000_000_000_000n, feeType: 'paymentInfo', currency: 'ASTR', asset: routerAsset('Astar', 'ASTR') },
};
