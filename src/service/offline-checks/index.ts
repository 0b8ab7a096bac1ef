// The checks that need no chain, run by every chain-backed operation (transfer, batch, pre-flight,
// router, swap) before it borrows a connection: the same bad input gets the same 400 everywhere
// and nothing is dialled for it. request-checks.ts holds the order and the transfer and swap
// rules; transact-checks.ts a transact payload's own rules; asset-choice.ts the 400 for a selector
// that names several assets (with a candidate selector for each), router-assets.ts the router's
// own asset lookups it is judged by for swaps.
export { checkAmount, checkBeforeDial, checkChains, checkSwapBeforeDial, MIN_AMOUNT, SWAP_TRANSFER_PATHS, type SwapPaths } from './request-checks';
export { resolveOnChain, type AssetCandidate } from './asset-choice';
export { checkTransactRequest, transactVersion, type TransactCandidate } from './transact-checks';
