// @polkadot/util and util-crypto as the sandbox's modules use them: loaded through `require`, the
// same CommonJS copy src/sdk/load.ts loads, never through an ESM import (one copy, one registry).
import { createRequire } from 'node:module';

const load = createRequire(__filename);
export const util = load('@polkadot/util') as typeof import('@polkadot/util');
export const crypto = load('@polkadot/util-crypto') as typeof import('@polkadot/util-crypto');
