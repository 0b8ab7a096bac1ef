// The route check: every answer that carries call data is decoded with the origin's metadata and
// followed hop by hop before it is sent (route-check.ts; the same bytes are read once per
// runtime, read-calls.ts, straight from the bytes where call-reader.ts can, else by polkadot.js). The walker (walker.ts reads calls,
// program-walk.ts runs programs, executor-rules.ts and barrier.ts hold polkadot-sdk's executor
// rules, hop-rules.ts what each instruction checks against the registry, walk-types.ts what a walk
// answers; the programs pallets write in pallet-programs.ts, the XCM values it reads in
// xcm-values.ts, what the real runtimes cost in runtime-facts.ts) reads which chain executes each
// part of the message, re-anchors every location to that chain (src/xcm/location.ts) and checks it
// against the SDK's offline registry (registry-facts.ts): destinations, assets and how they move,
// fees, beneficiaries. /explain answers the same walk as `route`.
export { readCall, RouteCheck, routeOf, type RouteCheckObserver, type RouteExpectation, type RouteOutcome, type RouteRefusal } from './route-check';
export { chainWithParaId, ecosystemOf, listedAsset } from './registry-facts';
export type { CallView, RouteHop, RouteProblem, SentAsset, XTokensTransfer } from './walk-types';
