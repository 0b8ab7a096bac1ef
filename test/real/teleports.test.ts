// PAS among the Paseo relay, Asset Hub Paseo and People Paseo, on their real runtimes (chopsticks,
// test/support/real-network.ts), with the service pointed straight at them (CHAIN_ENDPOINTS). For
// each route, transfer method and family: the call data /x-transfer answers is signed by a
// development account and included; the chains pass the message on; the beneficiary grows by
// exactly /receivable-amount, the sender pays exactly the amount and /xcm-fee's origin fee,
// /dry-run agrees with the runtimes' own DryRunApi, /x-transfer/status ends `delivered` and a
// watch's webhook says so.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiPromise } from '../../src/sdk';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { realSpecsDir, type RealChain } from '../support/real-network';
import { freeBalance as free, useRealService } from '../support/real-service';
import { dev } from '../support/sandbox-client';

const PAS = 10n ** 10n;
const AMOUNT = 10n * PAS;
const PARA_ID: Partial<Record<RealChain, number>> = { AssetHubPaseo: 1000, PeoplePaseo: 1004 };

interface Route {
  from: RealChain;
  to: RealChain;
  /** A transfer method of the origin's XCM pallet other than the SDK's choice (the API's `pallet`/`method`). */
  method?: string;
}

// Relay -> para first: a fresh relay holds nothing it could give back.
const ROUTES: Route[] = [
  { from: 'Paseo', to: 'AssetHubPaseo' },
  { from: 'Paseo', to: 'PeoplePaseo' },
  { from: 'AssetHubPaseo', to: 'Paseo' },
  { from: 'PeoplePaseo', to: 'Paseo' },
  { from: 'AssetHubPaseo', to: 'PeoplePaseo' },
  { from: 'PeoplePaseo', to: 'AssetHubPaseo' },
  { from: 'Paseo', to: 'AssetHubPaseo', method: 'transfer_assets' },
  { from: 'AssetHubPaseo', to: 'Paseo', method: 'transfer_assets' },
  { from: 'AssetHubPaseo', to: 'PeoplePaseo', method: 'transfer_assets' },
];

const FAMILIES = ['v5', 'v2'] as const;

/** Where `from` is, seen from `to` (a versioned location, as DryRunApi's dry_run_xcm takes its origin). */
function originSeenFrom(from: RealChain, to: RealChain): unknown {
  const fromId = PARA_ID[from];
  if (fromId === undefined) return { V5: { parents: 1, interior: 'Here' } };
  return { V5: { parents: PARA_ID[to] === undefined ? 0 : 1, interior: { X1: [{ Parachain: fromId }] } } };
}

type Codec = { toJSON(): unknown; toHuman(): unknown };
type Outcome = { isOk: boolean; asOk: Record<string, unknown>; toHuman(): unknown };

/**
 * The runtimes' own verdict on the call: DryRunApi.dry_run_call on the origin, then dry_run_xcm on
 * the destination with the message the origin would send there.
 */
async function runtimeDryRun(origin: ApiPromise, destination: ApiPromise, route: Route, call: string, signer: string): Promise<{ origin: boolean; destination: boolean }> {
  const dryRunCall = origin.call['dryRunApi']!['dryRunCall']! as ((...args: unknown[]) => Promise<unknown>) & { meta: { params: unknown[] } };
  const args: unknown[] = [{ System: { Signed: signer } }, origin.createType('Call', call)];
  // Its third parameter, the XCM version of the messages it answers, came with later runtimes.
  if (dryRunCall.meta.params.length === 3) args.push(5);
  const effects = (await dryRunCall(...args)) as unknown as Outcome;
  expect(effects.isOk, JSON.stringify(effects.toHuman())).toBe(true);
  const { executionResult, forwardedXcms } = effects.asOk as { executionResult: { isOk: boolean }; forwardedXcms: [Codec, Codec[]][] };
  const sent = forwardedXcms.find(([, messages]) => messages.length > 0)?.[1][0];
  if (!executionResult.isOk || !sent) return { origin: executionResult.isOk, destination: false };
  const xcm = (await destination.call['dryRunApi']!['dryRunXcm']!(originSeenFrom(route.from, route.to), sent.toJSON())) as unknown as Outcome;
  expect(xcm.isOk, JSON.stringify(xcm.toHuman())).toBe(true);
  return { origin: true, destination: (xcm.asOk as { executionResult: { isComplete: boolean } }).executionResult.isComplete };
}

describe.skipIf(!realSpecsDir())('PAS teleports on real runtimes', () => {
  const real = useRealService({ relay: 'Paseo', paras: ['AssetHubPaseo', 'PeoplePaseo'] });
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  for (const route of ROUTES) {
    const { from, to, method } = route;
    const pallet = method && (from === 'Paseo' ? 'XcmPallet' : 'PolkadotXcm');
    for (const family of FAMILIES) {
      it(`${from} -> ${to}${method ? ` (${method})` : ''} (/${family}): arrives as /receivable-amount and /dry-run say, costs amount + /xcm-fee's origin fee, ends delivered`, async () => {
        const [sender, beneficiary] = [dev('Alice'), dev('Bob')];
        const chosen = pallet ? { pallet, method } : {};
        const v5 = { from, to, currency: { symbol: 'PAS', amount: String(AMOUNT) }, address: beneficiary.address, senderAddress: sender.address, ...chosen };
        // /v2 reads amounts in whole PAS (abstractDecimals is on there by default); answers are in planck in both.
        const body = family === 'v5' ? v5 : { from, to, currency: { symbol: 'PAS', amount: String(AMOUNT / PAS) }, recipient: beneficiary.address, sender: sender.address, ...chosen };
        const post = (path: string) => request(real.app).post(`/${family}${path}`).send(body);
        const [built, fee, receivable, dryRun] = await Promise.all([post('/x-transfer'), post('/xcm-fee'), post('/receivable-amount'), post('/dry-run')]);
        expect(built.status, JSON.stringify(built.body)).toBe(200);
        expect(fee.status, JSON.stringify(fee.body)).toBe(200);
        expect(receivable.status, JSON.stringify(receivable.body)).toBe(200);
        expect(dryRun.status, JSON.stringify(dryRun.body)).toBe(200);

        const [origin, destination] = [await real.network.api(from), await real.network.api(to)];
        const call = built.body as string;
        const dry = dryRun.body as { success: boolean; origin: { success: boolean }; destination?: { success: boolean } };
        const runtime = await runtimeDryRun(origin, destination, route, call, sender.address);
        expect({ origin: dry.origin.success, destination: dry.destination?.success }, '/dry-run against DryRunApi').toEqual(runtime);
        expect(dry.success, JSON.stringify(dry)).toBe(true);

        const [paidBefore, gotBefore] = [await free(origin, sender.address), await free(destination, beneficiary.address)];
        const included = await real.network.submit(from, call, sender);
        expect(included.error, included.events.join(', ')).toBeUndefined();
        expect(included.messageId, `${from} sent a message: ${included.events.join(', ')}`).toBeDefined();
        expect(await real.network.processMessage(to, included.messageId!), `${to} processed the message`).toBe(true);

        expect((await free(destination, beneficiary.address)) - gotBefore, 'received, against /receivable-amount').toBe(BigInt(receivable.body as string));
        expect(paidBefore - (await free(origin, sender.address)), 'paid, against amount + /xcm-fee origin fee').toBe(AMOUNT + BigInt((fee.body as { origin: { fee: string } }).origin.fee));

        const status = await request(real.app).post(`/${family}/x-transfer/status`).send({ from, to, txHash: included.hash });
        expect(status.status, JSON.stringify(status.body)).toBe(200);
        expect(status.body, JSON.stringify(status.body)).toMatchObject({ status: 'delivered', final: true });
        const watch = await request(real.app).post(`/${family}/x-transfer/watch`).send({ from, to, txHash: included.hash, webhook: { url: receiver.url, secret: receiver.secret } });
        expect(watch.status, JSON.stringify(watch.body)).toBe(201);
        const events = await receiver.eventsOf((watch.body as { id: string }).id, 1);
        expect(events.at(-1)?.event).toMatchObject({ type: 'transfer.delivered', data: { status: 'delivered', final: true } });
      });
    }
  }
});
