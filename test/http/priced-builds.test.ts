import { afterEach, describe, expect, it, vi } from 'vitest';
import { sdk } from '../../src/sdk';
import { apiPrototypeOf } from '../../src/sdk/api-prototype';
import { leanPricing } from '../../src/sdk/patches/lean-pricing';
import { FAMILIES, testApp } from '../helpers/app';
import { matrixTransfer, newAccount } from '../helpers/matrix-transfer';
import { key, REFUSED, ROUTES } from '../support/route-matrix';
import { chainsForFile } from '../support/chains-for-file';
import { TEST_CHAIN_NAMES } from '../support/test-chain';

// The patches that make the SDK's fee pricing cheaper (src/sdk/patches/lean-pricing.ts: the
// forced run's wraps take the calls already built, ...) must not change an answer. Across the
// sandbox's route matrix, in both families, each transfer is answered with them and then without
// them (the SDK's own path), by one service building every transfer (no templates), for the same
// amount and accounts: byte for byte the same answer, refusals included. The routes whose fees the
// SDK prices on the chains (type-and-then through an asset hub, the bridge) are the ones the
// patches reach: the test checks they were priced.

const { app, services } = testApp({ BUILD_TEMPLATES: '0' });
const { overrides } = chainsForFile(TEST_CHAIN_NAMES, services);

afterEach(() => {
  leanPricing.on = true;
  vi.restoreAllMocks();
});

const building = ROUTES.filter((r) => !REFUSED[key(r)]);
/** Type-and-then and bridge routes the SDK prices with dry runs (docs/performance.md, "Build templates"). */
const PRICED = ['Polkadot -> Hydration DOT', 'AssetHubPolkadot -> AssetHubKusama DOT', 'Hydration -> Polkadot DOT', 'Hydration -> AssetHubPolkadot DOT', 'Moonbeam -> Polkadot DOT', 'AssetHubKusama -> AssetHubPolkadot KSM'];

describe.each(FAMILIES)('/%s: a transfer priced by the SDK is the same answer with and without the lean pricing patches', (family) => {
  it('across the route matrix', async () => {
    const wraps = vi.spyOn(apiPrototypeOf<{ callDispatchAsMethod(...args: unknown[]): unknown }>(sdk), 'callDispatchAsMethod');
    const priced = new Set<string>();
    for (const route of building) {
      for (const amount of ['10000000000', '98765432109876543210987']) {
        const recipient = newAccount(route.to);
        const sender = newAccount(route.from);
        leanPricing.on = true;
        const calls = wraps.mock.calls.length;
        const lean = await matrixTransfer(app, overrides, family, route, amount, recipient, sender);
        if (wraps.mock.calls.length > calls) priced.add(key(route));
        leanPricing.on = false;
        const sdkPath = await matrixTransfer(app, overrides, family, route, amount, recipient, sender);
        expect(lean, `${key(route)} ${amount}`).toEqual(sdkPath);
      }
    }
    for (const route of PRICED) expect(priced.has(route), route).toBe(true);
    expect(priced.size).toBeGreaterThanOrEqual(18);
  }, 600_000);
});
