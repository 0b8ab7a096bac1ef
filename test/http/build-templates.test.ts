import { describe, expect, it } from 'vitest';
import { FAMILIES, testApp } from '../helpers/app';
import { matrixTransfer, newAccount } from '../helpers/matrix-transfer';
import { key, REFUSED, ROUTES, type Route } from '../support/route-matrix';
import { chainsForFile } from '../support/chains-for-file';
import { TEST_CHAIN_NAMES } from '../support/test-chain';

// A transfer of a route shape seen before is answered from the shape's template, the SDK's answer
// with the request's amount and accounts put in (src/service/transfer/build-templates.ts). Across
// the sandbox's route matrix, in both families, each answer of a service with templates must be
// the answer of a service without them (every transfer built by the SDK), byte for byte, for
// amounts and accounts the template was not made from; and a shape whose builds read a chain
// (fees priced with chain state) must never be answered from a template.

const templated = testApp();
const fresh = testApp({ BUILD_TEMPLATES: '0' });
const { overrides } = chainsForFile(TEST_CHAIN_NAMES, { close: () => Promise.all([templated.services.close(), fresh.services.close()]).then(() => undefined) });

/** Amounts of every SCALE compact width, none the one a template was made from. */
const AMOUNTS = ['10000000000', '123456789012', '98765432109876543210987654', '77'];

const building = ROUTES.filter((r) => !REFUSED[key(r)]);

/** Each family's run of a route, made once whichever test asks first (the suite shuffles tests): the transfers it filled from a template. */
const runs = new Map<string, Promise<number>>();

function checkRoute(family: string, route: Route): Promise<number> {
  const name = `${family} ${key(route)}`;
  let run = runs.get(name);
  if (!run) {
    run = (async () => {
      const before = templated.services.transfers.templates.counts().filled;
      for (const [i, amount] of AMOUNTS.entries()) {
        const recipient = newAccount(route.to);
        const sender = newAccount(route.from);
        const filled = templated.services.transfers.templates.counts().filled;
        const ours = await matrixTransfer(templated.app, overrides, family, route, amount, recipient, sender);
        // A request the SDK built (the first two of a shape) is the same in both services.
        if (i < 2 && templated.services.transfers.templates.counts().filled === filled) continue;
        const sdk = await matrixTransfer(fresh.app, overrides, family, route, amount, recipient, sender);
        expect(ours, `${amount} to ${recipient}`).toEqual(sdk);
      }
      return templated.services.transfers.templates.counts().filled - before;
    })();
    runs.set(name, run);
  }
  return run;
}

describe.each(FAMILIES)('/%s: answers from templates are the SDK answers', (family) => {
  it.each(building.map((r) => [key(r), r] as const))('%s', async (_name, route) => {
    await checkRoute(family, route);
  });

  it('answers the teleports and reserve transfers that read no chain from templates, and never those that price fees on chains', async () => {
    const filledBy = new Map<string, number>();
    for (const route of building) filledBy.set(key(route), await checkRoute(family, route));
    // The first request of a shape is built, the second learns it, the others are filled in (or, when
    // the other family learned the shape first, every one of them).
    const filled = (route: string) => filledBy.get(route)! >= AMOUNTS.length - 2;
    for (const route of ['Polkadot -> AssetHubPolkadot DOT', 'AssetHubPolkadot -> Hydration USDT', 'Kusama -> AssetHubKusama KSM', 'Hydration -> Moonbeam USDT', 'Moonbeam -> Hydration GLMR', 'BridgeHubPolkadot -> Polkadot DOT']) {
      expect(filled(route), route).toBe(true);
    }
    // Type-and-then through Asset Hub and the bridge: the SDK dry-runs them to price the fees.
    for (const route of ['Polkadot -> Hydration DOT', 'AssetHubPolkadot -> AssetHubKusama DOT', 'Hydration -> AssetHubPolkadot DOT', 'Moonbeam -> Polkadot DOT']) {
      expect(filledBy.get(route), route).toBe(0);
    }
    expect([...filledBy.values()].filter((n) => n > 0).length).toBeGreaterThanOrEqual(27);
  }, 600_000);
});

it('BUILD_TEMPLATES=0 builds every transfer with the SDK', async () => {
  const route = building.find((r) => key(r) === 'Polkadot -> AssetHubPolkadot DOT')!;
  const amounts = ['10000000000', '123456789012', '20000000000'];
  for (const amount of amounts) {
    expect((await matrixTransfer(fresh.app, overrides, 'v5', route, amount, newAccount(route.to), newAccount(route.from))).status).toBe(200);
  }
  const counts = fresh.services.transfers.templates.counts();
  expect(counts.filled).toBe(0);
  expect(counts.built).toBeGreaterThanOrEqual(amounts.length);
});
