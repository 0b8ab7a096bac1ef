// The checks that need no chain, run by every chain-backed operation (transfer, batch, pre-flight,
// router, swap) before it borrows a connection: the same bad input gets the same 400 everywhere
// and nothing is dialled for it. request-checks.ts holds the order and the transfer and swap
// rules; transact-checks.ts a transact payload's own rules; asset-choice.ts the 400 for a selector
// that names several assets (with a candidate selector for each), swap-currencies.ts a swap's
// currencies as the router judges them, by its own lookups (router-assets.ts).
export { checkAmount, checkBeforeDial, checkChains, checkSwapBeforeDial, MIN_AMOUNT, SWAP_TRANSFER_PATHS } from './request-checks';
export type { SwapPaths } from './swap-currencies';
export { resolveOnChain, type AssetCandidate } from './asset-choice';
export { checkTransactRequest, transactVersion, type TransactCandidate } from './transact-checks';
