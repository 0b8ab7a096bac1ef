// The EVM routes take amounts and addresses under the same rules as /x-transfer: an amount padded
// with (unicode) whitespace, or an over-long ahAddress, is a 400 naming the field, before any chain.
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/schemas/limits';
import { expectErrorBody, FAMILIES, testApp } from '../helpers/app';

const SENDER = '0x1f9090aaE28b8a3dCeaDf281B0F12828e676c326';
const ETH_RECIPIENT = '0x24d18dbfbced732eadf98ee520853e13909fe258';
const SS58 = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const PADDED = [' 1', '1 ', '\u00a01', '\t1', '1\n', '\u20031', '\ufeff1'];

const { app, services } = testApp();
afterAll(() => services.close());

describe.each(FAMILIES)('/%s EVM routes: the amount and address rules of /x-transfer', (family) => {
  const names = family === 'v5' ? { sender: 'senderAddress', recipient: 'address' } : { sender: 'sender', recipient: 'recipient' };
  const transfer = (fields: Record<string, unknown>) =>
    request(app)
      .post(`/${family}/evm-x-transfer`)
      .send({ from: 'Moonbeam', to: 'Ethereum', currency: { symbol: 'WETH.e', amount: '1' }, [names.sender]: SENDER, [names.recipient]: ETH_RECIPIENT, ahAddress: SS58, ...fields });
  const approve = (amount: unknown) => request(app).post(`/${family}/evm-approve`).send({ from: 'Ethereum', currency: { symbol: 'WETH', amount }, [names.sender]: SENDER });

  it.each(PADDED.map((amount) => [JSON.stringify(amount), amount]))('an amount of %s is a 400 NumberFormatError at body.currency.amount on /evm-x-transfer and /evm-approve', async (_shown, amount) => {
    for (const res of [await transfer({ currency: { symbol: 'WETH.e', amount } }).expect(400), await approve(amount).expect(400)]) {
      expectErrorBody(res.body, 400, 'NumberFormatError');
      expect(res.body.details[0].path).toBe('body.currency.amount');
      expect(res.body.details[0].message).toMatch(/ASCII digits/);
    }
  });

  it('the same amount unpadded passes the amount rules (a leading zero is read as the number it writes)', async () => {
    // Past the amount, the transfer needs chains; the approval dials nothing.
    const res = await approve('01').expect(200);
    expect(res.body).toMatch(/^0x02/);
  });

  it(`an ahAddress longer than ${LIMITS.address} characters is a 400 at body.ahAddress, as for the other address fields`, async () => {
    const res = await transfer({ ahAddress: '5'.repeat(LIMITS.address + 1) }).expect(400);
    expectErrorBody(res.body, 400, 'ValidationError');
    expect(res.body.details).toEqual([expect.objectContaining({ path: 'body.ahAddress', message: `must be at most ${LIMITS.address} characters` })]);
  });

  it(`a recipient longer than ${LIMITS.address} characters is a 400 naming it`, async () => {
    const res = await transfer({ [names.recipient]: '5'.repeat(LIMITS.address + 1) }).expect(400);
    expect(res.body.details[0]).toMatchObject({ path: `body.${names.recipient}`, message: `must be at most ${LIMITS.address} characters` });
  });
});
