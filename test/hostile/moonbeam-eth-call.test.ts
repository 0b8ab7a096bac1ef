// A Moonbeam node a client names (apiOverrides) that answers the XC-20 balance read (`eth_call`)
// with something other than a 32-byte word: a 502 naming Moonbeam and the method, in both
// families, read no further than its size; never a 500, never a balance (issue 42, part 3).
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';
import { answerTo, startHostileNode, type HostileNode } from '../support/hostile-node';
import { ADDRESS } from './helpers';

const SENDER = '0xf24FF3a9CF04c71Dbc94D0b566f7A27B94566cac';
const { app, services } = testApp();
const { overrides } = chainsForFile(['Polkadot', 'AssetHubPolkadot', 'Hydration', 'Moonbeam'], services);
let moonbeam: HostileNode;

beforeAll(async () => {
  moonbeam = await startHostileNode({ upstream: overrides.Moonbeam });
});
afterAll(async () => {
  await moonbeam.close();
});

const transfer = (family: string) =>
  request(app)
    .post(`/${family}/x-transfer`)
    .send({
      from: 'Moonbeam',
      to: 'Hydration',
      currency: { symbol: 'DOT', amount: '10000000000' },
      [family === 'v5' ? 'address' : 'recipient']: ADDRESS,
      [family === 'v5' ? 'senderAddress' : 'sender']: SENDER,
      options: { development: true, apiOverrides: { ...overrides, Moonbeam: moonbeam.url } },
    });

describe('a Moonbeam node whose eth_call answer is not a 32-byte word', () => {
  it.each([
    ['a JSON object', { value: '0x01' }],
    ['hex that is not hex', '0xzz'],
    ['a word one byte short', `0x${'00'.repeat(31)}`],
    ['no word at all', '0x'],
    ['2 MB of hex', `0x${'0f'.repeat(1_000_000)}`],
  ])('%s: 502 naming Moonbeam and eth_call, in both families', async (_what, answer) => {
    moonbeam.setBehaviour((frame) => (frame.method === 'eth_call' ? { send: answerTo(frame, answer) } : 'forward'));
    try {
      for (const family of FAMILIES) {
        const res = await transfer(family);
        expectErrorBody(res.body, 502, 'ChainResponseError');
        expect(res.body.message).toMatch(/^Chain Moonbeam .*eth_call/);
      }
    } finally {
      moonbeam.setBehaviour(() => 'forward');
    }
  });

  it('a 32-byte word is read as the balance (the transfer builds)', async () => {
    for (const family of FAMILIES) {
      const res = await transfer(family);
      expect(res.status, JSON.stringify(res.body).slice(0, 600)).toBe(200);
    }
  });
});
