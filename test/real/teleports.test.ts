// PAS among the Paseo relay, Asset Hub Paseo and People Paseo, on their real runtimes (chopsticks,
// test/support/real-network.ts), with the service pointed straight at them (CHAIN_ENDPOINTS). For
// each route and family: the call data /x-transfer answers is signed by a development account and
// included; the chains pass the message on; the beneficiary grows by exactly /receivable-amount,
// the sender pays exactly the amount and /xcm-fee's origin fee.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiPromise } from '../../src/sdk';
import { testApp } from '../helpers/app';
import { startRealNetwork, realSpecsDir, type RealChain, type RealNetwork } from '../support/real-network';
import { dev } from '../support/sandbox-client';

const PAS = 10n ** 10n;
const AMOUNT = 10n * PAS;

interface Route {
  from: RealChain;
  to: RealChain;
}

// Relay -> para first: a fresh relay holds nothing it could give back.
const ROUTES: Route[] = [
  { from: 'Paseo', to: 'AssetHubPaseo' },
  { from: 'Paseo', to: 'PeoplePaseo' },
  { from: 'AssetHubPaseo', to: 'Paseo' },
  { from: 'PeoplePaseo', to: 'Paseo' },
  { from: 'AssetHubPaseo', to: 'PeoplePaseo' },
  { from: 'PeoplePaseo', to: 'AssetHubPaseo' },
];

const FAMILIES = ['v5', 'v2'] as const;

describe.skipIf(!realSpecsDir())('PAS teleports on real runtimes', () => {
  let network: RealNetwork;
  let made: ReturnType<typeof testApp>;

  beforeAll(async () => {
    network = await startRealNetwork({ relay: 'Paseo', paras: ['AssetHubPaseo', 'PeoplePaseo'] });
    made = testApp({ CHAIN_ENDPOINTS: JSON.stringify(network.endpoints), REQUEST_TIMEOUT_MS: '60000', CONNECT_TIMEOUT_MS: '30000' });
  });
  afterAll(async () => {
    await made?.services.close();
    await network?.close();
  });

  const free = async (api: ApiPromise, who: string): Promise<bigint> =>
    ((await api.query.system.account(who)) as unknown as { data: { free: { toBigInt(): bigint } } }).data.free.toBigInt();

  for (const { from, to } of ROUTES) {
    for (const family of FAMILIES) {
      it(`${from} -> ${to} (/${family}): arrives as /receivable-amount says; the sender pays amount + /xcm-fee's origin fee`, async () => {
        const [sender, beneficiary] = [dev('Alice'), dev('Bob')];
        const v5 = { from, to, currency: { symbol: 'PAS', amount: String(AMOUNT) }, address: beneficiary.address, senderAddress: sender.address };
        // /v2 reads amounts in whole PAS (abstractDecimals is on there by default); answers are in planck in both.
        const body = family === 'v5' ? v5 : { from, to, currency: { symbol: 'PAS', amount: String(AMOUNT / PAS) }, recipient: beneficiary.address, sender: sender.address };
        const post = (path: string) => request(made.app).post(`/${family}${path}`).send(body);
        const [built, fee, receivable] = [await post('/x-transfer'), await post('/xcm-fee'), await post('/receivable-amount')];
        expect(built.status, JSON.stringify(built.body)).toBe(200);
        expect(fee.status, JSON.stringify(fee.body)).toBe(200);
        expect(receivable.status, JSON.stringify(receivable.body)).toBe(200);

        const [origin, destination] = [await network.api(from), await network.api(to)];
        const [paidBefore, gotBefore] = [await free(origin, sender.address), await free(destination, beneficiary.address)];
        const included = await network.submit(from, built.body as string, sender);
        expect(included.error, included.events.join(', ')).toBeUndefined();
        expect(included.messageId, `${from} sent a message: ${included.events.join(', ')}`).toBeDefined();
        expect(await network.processMessage(to, included.messageId!), `${to} processed the message`).toBe(true);

        expect((await free(destination, beneficiary.address)) - gotBefore, 'received, against /receivable-amount').toBe(BigInt(receivable.body as string));
        expect(paidBefore - (await free(origin, sender.address)), 'paid, against amount + /xcm-fee origin fee').toBe(AMOUNT + BigInt((fee.body as { origin: { fee: string } }).origin.fee));
      });
    }
  }
});
