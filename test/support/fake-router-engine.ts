// The router engine replaced at its seam (nothing offline can run a swap): exchanges and pairs are
// the real bundled data; every chain operation records its call and answers what a test set in
// `results`, typed with xcm-router 11.14.8's own result types by the test. A plan's items pass the
// route check before they are answered: their `tx` must be call data of the item's chain, built
// with a test chain's metadata (test/http/router.test.ts builds them), served at an endpoint the
// request names or the operator's CHAIN_ENDPOINTS.
import type { TGetBestAmountOutResult, TRouterDryRunResult, TRouterPlan, TRouterXcmFeeResult } from '@paraspell/xcm-router';
import { realEngine, type EngineCall, type RouterEngine } from '../../src/service/router';

export type EngineOp = Exclude<keyof RouterEngine, 'exchanges' | 'pairs'>;

export interface FakeRouterEngine {
  engine: RouterEngine;
  /** Every call the service made, in order. */
  calls: { op: EngineOp; call: EngineCall }[];
  /** What each operation answers; one without an answer rejects. */
  results: Partial<Record<EngineOp, (call: EngineCall) => Promise<unknown>>>;
  /** The last call made. */
  last(): EngineCall;
}

export function fakeRouterEngine(): FakeRouterEngine {
  const calls: FakeRouterEngine['calls'] = [];
  const results: FakeRouterEngine['results'] = {};
  const answer = (op: EngineOp, call: EngineCall): Promise<unknown> => {
    calls.push({ op, call });
    const r = results[op];
    return r ? r(call) : Promise.reject(new Error(`no fixture for ${op}`));
  };
  const engine: RouterEngine = {
    exchanges: () => realEngine.exchanges(),
    pairs: (e) => realEngine.pairs(e),
    buildTransactions: (c) => answer('buildTransactions', c) as Promise<TRouterPlan>,
    dryRun: (c) => answer('dryRun', c) as Promise<TRouterDryRunResult>,
    getXcmFees: (c) => answer('getXcmFees', c) as Promise<TRouterXcmFeeResult>,
    getTransferableAmount: (c) => answer('getTransferableAmount', c) as Promise<bigint>,
    getMinTransferableAmount: (c) => answer('getMinTransferableAmount', c) as Promise<bigint>,
    getBestAmountOut: (c) => answer('getBestAmountOut', c) as Promise<TGetBestAmountOutResult>,
  };
  return { engine, calls, results, last: () => calls[calls.length - 1].call };
}
