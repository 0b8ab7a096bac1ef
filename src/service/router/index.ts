// Cross-chain swaps through xcm-router: the service (router-service.ts), the engine it drives,
// replaceable in tests (engine.ts), and its answers in the contract's shapes (router-shapes.ts).
export { RouterService } from './router-service';
export { realEngine, toExchangeInput, type EngineCall, type RouterEngine } from './engine';
export * as swapLookups from './swap-lookups';
export { isRouterLoaded } from '../../sdk';
