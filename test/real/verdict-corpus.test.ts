// The verdict corpus (test/support/verdict-corpus.ts) on the real runtimes: each program's call
// data, put to the Paseo relay, Asset Hub and People through their DryRunApi (verdict-judge.ts),
// does what the corpus records; /explain's `route`, with the service pointed straight at the same
// chains, says the same: every hop ok exactly when the runtime delivers, otherwise a problem at the
// hop and instruction where it stops.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ApiPromise } from '../../src/sdk';
import { testApp } from '../helpers/app';
import { startRealNetwork, realSpecsDir, type RealChain, type RealNetwork } from '../support/real-network';
import { CORPUS, PASEO, type Role } from '../support/verdict-corpus';
import { expectVerdict } from '../support/verdict-judge';

describe.skipIf(!realSpecsDir())('the verdict corpus on real runtimes: the runtime and /explain agree', () => {
  let network: RealNetwork;
  let made: ReturnType<typeof testApp>;
  const apis: Partial<Record<Role, ApiPromise>> = {};

  beforeAll(async () => {
    network = await startRealNetwork({ relay: 'Paseo', paras: ['AssetHubPaseo', 'PeoplePaseo'] });
    for (const role of Object.keys(PASEO) as Role[]) apis[role] = await network.api(PASEO[role] as RealChain);
    made = testApp({ CHAIN_ENDPOINTS: JSON.stringify(network.endpoints), REQUEST_TIMEOUT_MS: '60000', CONNECT_TIMEOUT_MS: '30000' });
  });
  afterAll(async () => {
    await made?.services.close();
    await network?.close();
  });

  for (const program of CORPUS) {
    it(`${program.class}: ${program.name}`, async () => {
      await expectVerdict(apis, PASEO, made.app, program);
    });
  }
});
