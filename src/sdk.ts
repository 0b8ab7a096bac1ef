// The ParaSpell SDK and @polkadot/* ship both ESM and CommonJS builds, and the SDK's
// own dependencies load @polkadot/* through `require`. Loading everything through one
// `require` keeps a single copy (one type registry, no "multiple versions" warnings),
// whether this file runs compiled to CommonJS or under vitest's ESM transform.
import { createRequire } from 'node:module';
import { ChainSocket } from './chains/chain-socket';

const load = createRequire(__filename);

// @polkadot/x-ws takes the global WebSocket when there is one (undici's, since Node 22) and the
// `ws` package otherwise. Keep `ws` on every runtime: one client whose sockets, options and
// failure behaviour the connection layer and its tests know. x-ws reads the global once, at load.
const globalWebSocket = Object.getOwnPropertyDescriptor(globalThis, 'WebSocket');
if (globalWebSocket) delete (globalThis as { WebSocket?: unknown }).WebSocket;
try {
  // Every polkadot.js provider reads this export when it connects: make it our guarded socket.
  (load('@polkadot/x-ws') as { WebSocket: unknown }).WebSocket = ChainSocket;
} finally {
  if (globalWebSocket) Object.defineProperty(globalThis, 'WebSocket', globalWebSocket);
}

export const sdk: typeof import('@paraspell/sdk-pjs') = load('@paraspell/sdk-pjs');
export const polkadotApi: typeof import('@polkadot/api') = load('@polkadot/api');
export const utilCrypto: typeof import('@polkadot/util-crypto') = load('@polkadot/util-crypto');

/** The parts of Snowbridge's published environment (a dependency the SDK pins) that we read. */
export interface SnowbridgeEnvironment {
  ethChainId: number;
  config: { GATEWAY_CONTRACT: string; ETHEREUM_CHAINS: Record<string, string> };
  locations: { id: string; paraInfo?: { paraId: number; destinationFeeDOT: bigint } }[];
}

// Resolved from the SDK's own location, so it is the copy the SDK itself uses.
const sdkLoad = createRequire(load.resolve('@paraspell/sdk-pjs'));
export const snowbridgeMainnet: SnowbridgeEnvironment = sdkLoad('@snowbridge/api/dist/environment').SNOWBRIDGE_ENV.polkadot_mainnet;

export type { ApiPromise } from '@polkadot/api';
export type * as SdkTypes from '@paraspell/sdk-pjs';
