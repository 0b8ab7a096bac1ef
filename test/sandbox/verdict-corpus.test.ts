// The verdict corpus (test/support/verdict-corpus.ts) re-targeted at the sandbox's chains (the
// relay Polkadot, its Asset Hub): the sandbox's executor, asked through the nodes' DryRunApi as the
// real runtimes are (verdict-judge.ts), does with each program what Paseo's real runtimes did, and
// /explain's `route` says the same. Programs that need People, or where Polkadot's runtime differs
// from Paseo's, run only on the real runtimes (test/real/verdict-corpus.test.ts).
import { describe, it } from 'vitest';
import type { ApiPromise } from '../../src/sdk';
import type { SandboxChainName } from '../../src/sandbox/chain-node';
import { sandboxService } from '../support/sandbox-service';
import { CORPUS, onSandbox, SANDBOX, type Role } from '../support/verdict-corpus';
import { expectVerdict } from '../support/verdict-judge';

// Dry runs only: no block is waited for.
const service = sandboxService({ chains: ['Polkadot', 'AssetHubPolkadot'], blockMs: 1000 });

async function apisOf(): Promise<Partial<Record<Role, ApiPromise>>> {
  const apis: Partial<Record<Role, ApiPromise>> = {};
  for (const [role, chain] of Object.entries(SANDBOX)) apis[role as Role] = await service.clients.api(chain as SandboxChainName);
  return apis;
}

describe('the verdict corpus on the sandbox: its executor and /explain agree with the real runtimes', () => {
  for (const program of CORPUS.filter(onSandbox)) {
    it(`${program.class}: ${program.name}`, async () => {
      await expectVerdict(await apisOf(), SANDBOX, service.app, program);
    });
  }
});
