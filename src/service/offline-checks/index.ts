// The checks that need no chain, run by every chain-backed operation (transfer, batch, pre-flight,
// router, swap) before it borrows a connection: the same bad input gets the same 400 everywhere
// and nothing is dialled for it. request-checks.ts holds the order and the transfer and swap
// rules; transact-checks.ts a transact payload's own rules.
export { checkAmount, checkBeforeDial, checkChains, checkSwapBeforeDial, MIN_AMOUNT, SWAP_TRANSFER_PATHS, type SwapPaths } from './request-checks';
export { checkTransactRequest, transactVersion, type TransactCandidate } from './transact-checks';
