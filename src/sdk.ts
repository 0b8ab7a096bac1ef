// The ParaSpell SDK and @polkadot/* ship both ESM and CommonJS builds, and the SDK's
// own dependencies load @polkadot/* through `require`. Loading everything through one
// `require` keeps a single copy (one type registry, no "multiple versions" warnings),
// whether this file runs compiled to CommonJS or under vitest's ESM transform.
import { createRequire } from 'node:module';

const load = createRequire(__filename);

export const sdk: typeof import('@paraspell/sdk-pjs') = load('@paraspell/sdk-pjs');
export const polkadotApi: typeof import('@polkadot/api') = load('@polkadot/api');
export const utilCrypto: typeof import('@polkadot/util-crypto') = load('@polkadot/util-crypto');

export type { ApiPromise } from '@polkadot/api';
export type * as SdkTypes from '@paraspell/sdk-pjs';
