// One POST /x-transfer of a route of the sandbox's matrix (test/support/route-matrix.ts), in either
// family's field names, answered as a test compares it: the body of a 200, else the error's kind and
// message (the tests that answer a route two ways compare these).
import request from 'supertest';
import { utilCrypto } from '../../src/sdk';
import type { testApp } from './app';
import { networkOf, selector, type Route } from '../support/route-matrix';
import type { TestChainName } from '../support/test-chain';

/** A new account for `chain`: a 20-byte key on Moonbeam, an SS58 address elsewhere. */
export function newAccount(chain: TestChainName): string {
  const bytes = utilCrypto.randomAsU8a(chain === 'Moonbeam' ? 20 : 32);
  return chain === 'Moonbeam' ? `0x${Buffer.from(bytes).toString('hex')}` : utilCrypto.encodeAddress(bytes, 0);
}

export async function matrixTransfer(app: ReturnType<typeof testApp>['app'], overrides: Record<string, string>, family: string, route: Route, amount: string, recipient: string, sender: string) {
  const fields = family === 'v5' ? { recipient: 'address', sender: 'senderAddress' } : { recipient: 'recipient', sender: 'sender' };
  const res = await request(app)
    .post(`/${family}/x-transfer`)
    .send({
      from: route.from,
      to: route.to,
      currency: { location: selector(route.asset, networkOf(route.from)), amount },
      [fields.recipient]: recipient,
      [fields.sender]: sender,
      options: { development: true, apiOverrides: overrides, abstractDecimals: false },
    });
  return { status: res.status, body: res.status === 200 ? (res.body as unknown) : { kind: res.body.kind, message: res.body.message } };
}
