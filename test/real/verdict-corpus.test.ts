// The verdict corpus (test/support/verdict-corpus.ts) on the real runtimes: each program's call
// data, put to the Paseo relay, Asset Hub and People through their DryRunApi (verdict-judge.ts),
// does what the corpus records; /explain's `route`, with the service pointed straight at the same
// chains, says the same: every hop ok exactly when the runtime delivers, otherwise a problem at the
// hop and instruction where it stops.
import { beforeAll, describe, it } from 'vitest';
import type { ApiPromise } from '../../src/sdk';
import { realSpecsDir, type RealChain } from '../support/real-network';
import { useRealService } from '../support/real-service';
import { CORPUS, PASEO, type Role } from '../support/verdict-corpus';
import { expectVerdict } from '../support/verdict-judge';

describe.skipIf(!realSpecsDir())('the verdict corpus on real runtimes: the runtime and /explain agree', () => {
  const real = useRealService({ relay: 'Paseo', paras: ['AssetHubPaseo', 'PeoplePaseo'] });
  const apis: Partial<Record<Role, ApiPromise>> = {};

  // After useRealService's beforeAll, which starts the network.
  beforeAll(async () => {
    for (const role of Object.keys(PASEO) as Role[]) apis[role] = await real.network.api(PASEO[role] as RealChain);
  });

  for (const program of CORPUS) {
    it(`${program.class}: ${program.name}`, async () => {
      await expectVerdict(apis, PASEO, real.app, program);
    });
  }
});
