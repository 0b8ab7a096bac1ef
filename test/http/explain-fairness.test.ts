// /explain's walks take turns by client (issue 42, part 1): one client's many explanations in flight
// cost another client's explanation a slice of theirs per slice of its own, so it answers before
// them. Clients are told apart by address (X-Forwarded-For from a trusted loopback proxy); the
// chain is the operator's (CHAIN_ENDPOINTS), one shared connection, so that nobody dials.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FAMILIES, testApp } from '../helpers/app';
import { chainsForFile } from '../support/chains-for-file';
import { callData } from '../support/hostile-programs';

const files = testApp();
const { chains } = chainsForFile(['AssetHubPolkadot'], files.services);

const MALLORY = '203.0.113.66';
const ALICE = '198.51.100.1';
/** Explanations the first client has in flight at once. */
const FLOOD = 12;

describe('explanations of two clients take turns', () => {
  it('a client\'s explanation answers before the twelve another client sent just before it, in both families', async () => {
    // The same call for both, small answers: only the order of the slices decides which answers first.
    // In one queue for all, each slice of Alice's would wait behind one of each of Mallory's twelve,
    // which would all answer before hers.
    const remark = callData(chains.AssetHubPolkadot.registry, 'System', 'remark', { remark: '0x1234' });
    const { app, services } = testApp({ TRUST_PROXY: 'loopback', CHAIN_ENDPOINTS: JSON.stringify({ AssetHubPolkadot: [chains.AssetHubPolkadot.url] }) });
    const explain = (client: string, family: string) => request(app).post(`/${family}/explain`).set('X-Forwarded-For', client).send({ chain: 'AssetHubPolkadot', hex: remark });
    try {
      // Connected before: the walks below wait on nothing but their turns.
      expect((await explain(ALICE, 'v5')).status).toBe(200);
      for (const family of FAMILIES) {
        const answered: string[] = [];
        const flood = Array.from({ length: FLOOD }, () => explain(MALLORY, family).then((res) => (answered.push('mallory'), res)));
        const alice = await explain(ALICE, family).then((res) => (answered.push('alice'), res));
        expect(alice.status, JSON.stringify(alice.body).slice(0, 300)).toBe(200);
        for (const res of await Promise.all(flood)) expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
        expect(answered.indexOf('alice'), answered.join(' ')).toBeLessThan(2);
      }
    } finally {
      await services.close();
    }
  });
});
