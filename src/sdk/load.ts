// The ParaSpell SDK and @polkadot/* ship both ESM and CommonJS builds, and the SDK's
// own dependencies load @polkadot/* through `require`. Loading everything through one
// `require` keeps a single copy (one type registry, no "multiple versions" warnings),
// whether this file runs compiled to CommonJS or under vitest's ESM transform.
import { createRequire } from 'node:module';
import { decodeAddressesOnce } from './patches/address-memo';
import { loadWithChainInstancesOnce } from './patches/chain-instances-once';
import { useChainSocket } from './patches/chain-websocket';
import { containObservableErrors } from './patches/contained-observable-errors';
import { findEnumVariantsOnce } from './patches/enum-json-keys';
import { makeStorageEntryJsonOnce } from './patches/storage-entry-json';

const load = createRequire(__filename);

// Before anything loads @polkadot/x-ws: it picks its WebSocket class once, at load.
useChainSocket(load);
// Before any chain client subscribes: their unhandled errors end their connection, not the process.
containObservableErrors(load);
// Every user of util-crypto's decodeAddress (the SDK, polkadot.js) decodes an address once; the
// schemas read the same memo through readSs58.
export const readSs58 = decodeAddressesOnce(load);
// Before any runtime's storage is decorated: each entry's JSON, which keys polkadot.js's query memo, made once.
makeStorageEntryJsonOnce(load);
// Before any enum type is made: an enum from JSON finds its variant in a map made once per type.
findEnumVariantsOnce(load);

// As sdk-core is compiled: its chain objects are made once.
export const sdk: typeof import('@paraspell/sdk-pjs') = loadWithChainInstancesOnce(load, '@paraspell/sdk-pjs');
export const polkadotApi: typeof import('@polkadot/api') = load('@polkadot/api');
export const utilCrypto: typeof import('@polkadot/util-crypto') = load('@polkadot/util-crypto');
export const polkadotUtil: typeof import('@polkadot/util') = load('@polkadot/util');
export const polkadotTypes: typeof import('@polkadot/types') = load('@polkadot/types');

/** The parts of Snowbridge's published environment (a dependency the SDK pins) that we read. */
interface SnowbridgeEnvironment {
  ethChainId: number;
  config: { GATEWAY_CONTRACT: string; ETHEREUM_CHAINS: Record<string, string> };
  locations: { id: string; paraInfo?: { paraId: number; destinationFeeDOT: bigint } }[];
}

// Resolved from the SDK's own location, so it is the copy the SDK itself uses.
const sdkLoad = createRequire(load.resolve('@paraspell/sdk-pjs'));
export const snowbridgeMainnet: SnowbridgeEnvironment = sdkLoad('@snowbridge/api/dist/environment').SNOWBRIDGE_ENV.polkadot_mainnet;

/** The registry lookups module as sdk-core loads it (its exports are what sdk-core calls; patches/query-memo.ts wraps one). */
export const sdkAssetLookups = createRequire(sdkLoad.resolve('@paraspell/sdk-core'))('@paraspell/assets') as Record<string, unknown>;
