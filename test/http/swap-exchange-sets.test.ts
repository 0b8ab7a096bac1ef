// The swap lookups take several exchanges as a set: every ordering (and repetition) of the same
// exchanges is one answer, one computation and one response-cache entry, not one per spelling.
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app';

const { app, services } = testApp({ RATE_LIMIT_PER_MINUTE: '0' });
afterAll(() => services.close());

const FOUR = ['HydrationDex', 'AssetHubPolkadotDex', 'AcalaDex', 'BifrostPolkadotDex'];
// Another set for the other family: both families' lookups share their entries.
const OTHER_FOUR = ['HydrationDex', 'AssetHubKusamaDex', 'KaruraDex', 'BifrostKusamaDex'];

/** Every ordering of `items`. */
function orderings<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => orderings([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

async function cacheEntries(): Promise<number> {
  const metrics = (await request(app).get('/metrics').expect(200)).text;
  return Number(/^xcm_gateway_response_cache_entries (\d+)$/m.exec(metrics)?.[1]);
}

describe('several exchanges are one set', () => {
  it.each([
    ['GET /v5/swap/pairs', FOUR, (order: string[]) => request(app).get(`/v5/swap/pairs?exchange=${order.join(',')}`)],
    ['GET /v2/swap/pairs (repeated parameter, with a duplicate)', OTHER_FOUR, (order: string[]) => request(app).get(`/v2/swap/pairs?${[...order, order[0]].map((e) => `exchange=${e}`).join('&')}`)],
    ['GET /v5/swap/supported-assets-to', FOUR, (order: string[]) => request(app).get(`/v5/swap/supported-assets-to?exchange=${order.join(',')}&to=Polkadot`)],
    ['GET /v2/swap/supported-assets-from', FOUR, (order: string[]) => request(app).get(`/v2/swap/supported-assets-from?exchange=${order.join(',')}&from=AssetHubPolkadot`)],
    ['POST /v5/router/pairs', FOUR, (order: string[]) => request(app).post('/v5/router/pairs').send({ exchange: [...order, order[order.length - 1]] })],
  ])('%s: the 24 orderings of four exchanges are one answer and one cache entry', async (_name, exchanges, send) => {
    const all = orderings(exchanges);
    expect(all).toHaveLength(24);
    const before = await cacheEntries();
    const first = await send(all[0]).expect(200);
    for (const order of all.slice(1)) {
      const res = await send(order).expect(200);
      expect(res.headers.etag, order.join(',')).toBe(first.headers.etag);
    }
    expect(await cacheEntries()).toBe(before + 1);
  });
});
