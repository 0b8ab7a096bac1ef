// KSM between Kusama and Asset Hub Kusama 1.0.0 (early 2024), runtimes older than the SDK's tables:
// XCM V2/V3 only, no DryRunApi or XcmPaymentApi, no `transferAssetsUsingTypeAndThen`, and a relay
// whose events name no message it sends (test/support/real-network.ts runs them in chopsticks).
// The service, pointed straight at them, answers no 500: call data in XCM V3 that arrives,
// pre-flight that quotes nothing it cannot know (so nothing above what arrives), a status that
// ends delivered; what the SDK cannot build there is a 400 that says why.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { realSpecsDir } from '../support/real-network';
import { freeBalance, useRealService } from '../support/real-service';
import { dev } from '../support/sandbox-client';

const KSM = 10n ** 12n;
const AMOUNT = KSM;
const FAMILIES = ['v5', 'v2'] as const;
type Family = (typeof FAMILIES)[number];

const UNKNOWN = "Kusama's runtime offers no DryRunApi: the XCM could not be followed, so what it costs on the way and what arrives are not known";

/** A KSM transfer in the family's names (/v2 reads whole KSM: abstractDecimals is on there by default). */
function transfer(family: Family, from: 'Kusama' | 'AssetHubKusama', to: 'Kusama' | 'AssetHubKusama') {
  const [sender, beneficiary] = [dev('Alice'), dev('Bob')];
  // Asset Hub also lists a foreign KSM: the native one by its type.
  const symbol = from === 'Kusama' ? 'KSM' : { type: 'Native', value: 'KSM' };
  if (family === 'v5') return { from, to, currency: { symbol, amount: String(AMOUNT) }, address: beneficiary.address, senderAddress: sender.address };
  return { from, to, currency: { symbol, amount: String(AMOUNT / KSM) }, recipient: beneficiary.address, sender: sender.address };
}

describe.skipIf(!realSpecsDir())('KSM on Kusama and Asset Hub Kusama 1.0.0, runtimes older than the SDK', () => {
  const real = useRealService({ relay: 'Kusama', paras: ['AssetHubKusama'] });

  for (const family of FAMILIES) {
    it(`Kusama -> AssetHubKusama (/${family}): XCM V3 call data arrives, pre-flight quotes nothing above it, status ends delivered`, async () => {
      const body = transfer(family, 'Kusama', 'AssetHubKusama');
      const post = (path: string, extra: Record<string, unknown> = {}) => request(real.app).post(`/${family}${path}`).send({ ...body, ...extra });
      const built = await post('/x-transfer');
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      const [relay, assetHub] = [await real.network.api('Kusama'), await real.network.api('AssetHubKusama')];
      const call = relay.createType('Call', built.body as string) as unknown as { section: string; method: string; toJSON(): { args: Record<string, object> } };
      expect(`${call.section}.${call.method}`).toBe('xcmPallet.limitedTeleportAssets');
      expect(Object.keys(call.toJSON().args['dest']!)).toEqual(['v3']);

      // Nothing past the origin can be dry-run: no fee, sufficiency or received amount is quoted as known.
      const fee = await post('/xcm-fee');
      expect(fee.status, JSON.stringify(fee.body)).toBe(200);
      expect(fee.body).toMatchObject({ success: false, origin: { feeType: 'paymentInfo' }, destination: { dryRunError: { reason: UNKNOWN } } });
      expect((fee.body as { destination: object }).destination).not.toHaveProperty('sufficient');
      const info = await post('/transfer-info');
      expect(info.status, JSON.stringify(info.body)).toBe(200);
      expect((info.body as { destination: { receivedCurrency: unknown } }).destination.receivedCurrency).toMatchObject({ receivedAmount: { error: 'UnableToComputeError', message: UNKNOWN } });
      for (const path of ['/receivable-amount', '/dry-run']) {
        const refused = await post(path);
        expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(400);
        expect(refused.body).toMatchObject({ kind: 'RuntimeApiUnavailableError' });
      }

      const [sender, beneficiary] = [dev('Alice'), dev('Bob')];
      const gotBefore = await freeBalance(assetHub, beneficiary.address);
      const included = await real.network.submit('Kusama', built.body as string, sender);
      expect(included.error, included.events.join(', ')).toBeUndefined();
      // Kusama 1.0.0 names no message it sends: only that it ran the transfer's XCM.
      expect(included.events).toContain('xcmPallet.Attempted');
      expect(included.messageId).toBeUndefined();
      await real.network.newBlock('AssetHubKusama');
      const got = (await freeBalance(assetHub, beneficiary.address)) - gotBefore;
      expect(got > 0n && got <= AMOUNT, `received ${got} of ${AMOUNT}`).toBe(true);

      const status = await request(real.app).post(`/${family}/x-transfer/status`).send({ from: 'Kusama', to: 'AssetHubKusama', txHash: included.hash });
      expect(status.status, JSON.stringify(status.body)).toBe(200);
      expect(status.body, JSON.stringify(status.body)).toMatchObject({
        status: 'delivered',
        final: true,
        legs: [
          { chain: 'Kusama', state: 'success', blockHash: included.blockHash },
          { chain: 'AssetHubKusama', state: 'success', events: expect.arrayContaining(['dmpQueue.ExecutedDownward']) },
        ],
      });
    });

    it(`AssetHubKusama -> Kusama (/${family}): a 400 that says why (the SDK sends KSM from a parachain only by type-and-then, which 1.0.0 lacks), never a 500`, async () => {
      const body = transfer(family, 'AssetHubKusama', 'Kusama');
      const built = await request(real.app).post(`/${family}/x-transfer`).send(body);
      expect(built.status, JSON.stringify(built.body)).toBe(400);
      expect(built.body).toMatchObject({ message: 'Relaychain assets can only be transferred using the type-and-then method which is not supported by this chain' });
      for (const path of ['/xcm-fee', '/transfer-info', '/receivable-amount', '/dry-run']) {
        const res = await request(real.app).post(`/${family}${path}`).send(body);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }
    });
  }
});
