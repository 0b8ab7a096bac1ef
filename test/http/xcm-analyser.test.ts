import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { FAMILIES, expectErrorBody, testApp } from '../helpers/app';
import { startTestChain, type TestChain } from '../support/test-chain';

// POST /xcm-analyser answers as the ParaSpell XCM API does (its e2e cases first), over a location
// or the arguments of call data the service built itself.
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const ALICE_ID = '0xd2eb07f02043788e254d9e2df57be11566d241c56302b91199b4647947af3020';
const { app, services } = testApp();
let polkadot: TestChain;
let api: ApiPromise | undefined;

beforeAll(async () => {
  polkadot = await startTestChain('Polkadot');
});
afterAll(async () => {
  await api?.disconnect();
  await services.close();
  await polkadot?.close();
});

const analyse = (family: string, body: unknown) => request(app).post(`/${family}/xcm-analyser`).send(body as object);

describe.each(FAMILIES)('POST /%s/xcm-analyser', (family) => {
  it("answers upstream's e2e cases as upstream does (status 200 rather than 201)", async () => {
    const one = await analyse(family, { location: { parents: '0', interior: { X1: { Parachain: '2000' } } } }).expect(200);
    expect(one.text).toBe('"./Parachain(2000)"');
    expect((await analyse(family, { xcm: ['0x123'] }).expect(200)).text).toBe('[]');
    expectErrorBody((await analyse(family, {}).expect(400)).body, 400, 'ValidationError');
    const exterior = await analyse(family, { location: { parents: '0', exterior: { X1: { Parachain: '2000' } } } }).expect(400);
    expectErrorBody(exterior.body, 400, 'ValidationError');
    expect(exterior.body.details[0].path).toBe('body.location.exterior');
  });

  it('writes every junction type, parents as ../ and an empty interior as Here', async () => {
    const location = {
      parents: 2,
      interior: {
        X8: [
          { GlobalConsensus: { polkadot: null } },
          { parachain: 1000 },
          { PalletInstance: 50 },
          { GeneralIndex: '1,984' },
          { AccountKey20: { network: { Ethereum: { chainId: 1 } }, key: '0x' + 'ab'.repeat(20) } },
          { GeneralKey: { length: 2, data: '0x0809' } },
          { Plurality: { id: 'Unit', part: 'Voice' } },
          { OnlyChild: null },
        ],
      },
    };
    const { body } = await analyse(family, { location }).expect(200);
    expect(body).toBe(`../../GlobalConsensus(Polkadot)/Parachain(1000)/PalletInstance(50)/GeneralIndex(1984)/AccountKey20(Ethereum(1), 0x${'ab'.repeat(20)})/GeneralKey(2, 0x0809)/Plurality(Unit, Voice)/OnlyChild(null)`);
    expect((await analyse(family, { location: { parents: 1, interior: 'Here' } }).expect(200)).body).toBe('../Here');
    expect((await analyse(family, { location: { parents: 0, interior: { Here: null } } }).expect(200)).body).toBe('./Here');
  });

  it('reads the first location of each argument of call data the service built', async () => {
    const built = await request(app)
      .post(`/${family}/x-transfer`)
      .send({ from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: family === 'v5' ? '10000000000' : '1' }, [family === 'v5' ? 'address' : 'recipient']: ALICE, options: { apiOverrides: { Polkadot: polkadot.url } } })
      .expect(200);
    api ??= await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(polkadot.url), noInitWarn: true });
    const args = (api.createType('Call', built.body).toHuman() as { args: Record<string, unknown> }).args;
    const { body } = await analyse(family, { xcm: Object.values(args) }).expect(200);
    expect(body).toEqual(['./Parachain(1000)', `./AccountId32(null, ${ALICE_ID})`, './Here']);
  });

  it('refuses, at its path, a location that does not read, and both fields at once', async () => {
    const bad = await analyse(family, { xcm: [{ DepositAsset: { beneficiary: { parents: 0, interior: { X1: [{ Parachain: -1 }] } } } }] }).expect(400);
    expect(bad.body.details[0].path).toBe('body.xcm.0.DepositAsset.beneficiary.interior.X1.0.Parachain');
    const unknown = await analyse(family, { location: { parents: 0, interior: { X1: { Teleporter: 1 } } } }).expect(400);
    expect(unknown.body.details[0].path).toBe('body.location.interior.X1');
    const both = await analyse(family, { location: { parents: 0, interior: 'Here' }, xcm: [] }).expect(400);
    expectErrorBody(both.body, 400, 'ValidationError');
  });

  it("refuses what XCM cannot hold, where upstream prints it (docs/paraspell-api.md's deliberate differences)", async () => {
    const at = (junction: unknown) => ({ location: { parents: 0, interior: { X1: [junction] } } });
    const cases: [unknown, string][] = [
      [{ location: { parents: 256, interior: 'Here' } }, 'body.location.parents'],
      [at({ Parachain: 2 ** 32 }), 'body.location.interior.X1.0.Parachain'],
      [at({ Parachain: '4294967296' }), 'body.location.interior.X1.0.Parachain'],
      [at({ PalletInstance: 256 }), 'body.location.interior.X1.0.PalletInstance'],
      [at({ GeneralIndex: (2n ** 128n).toString() }), 'body.location.interior.X1.0.GeneralIndex'],
      [at({ AccountIndex64: { network: null, index: (2n ** 64n).toString() } }), 'body.location.interior.X1.0.AccountIndex64'],
      [at({ GeneralKey: { length: 33, data: `0x${'00'.repeat(33)}` } }), 'body.location.interior.X1.0.GeneralKey'],
      [at({ AccountId32: { network: null, id: `0x${'11'.repeat(129)}` } }), 'body.location.interior.X1.0.AccountId32'],
      [{ location: { parents: 0, interior: { X9: Array.from({ length: 9 }, () => ({ Parachain: 1 })) } } }, 'body.location.interior'],
      [{ xcm: Array.from({ length: 257 }, () => ({ parents: 0, interior: 'Here' })) }, 'body.xcm'],
    ];
    for (const [body, path] of cases) {
      const res = await analyse(family, body);
      expectErrorBody(res.body, 400, 'ValidationError');
      expect(res.body.details[0].path, JSON.stringify(body).slice(0, 120)).toBe(path);
    }
    // At the bounds, each is answered.
    const edge = await analyse(family, { location: { parents: 255, interior: { X3: [{ Parachain: 2 ** 32 - 1 }, { PalletInstance: 255 }, { GeneralKey: { length: 32, data: `0x${'00'.repeat(32)}` } }] } } }).expect(200);
    expect(edge.body).toBe(`${'../'.repeat(255)}Parachain(4294967295)/PalletInstance(255)/GeneralKey(32, 0x${'00'.repeat(32)})`);
    expect((await analyse(family, { xcm: Array.from({ length: 256 }, () => ({ parents: 0, interior: 'Here' })) }).expect(200)).body).toHaveLength(256);
  });

  it('bounds the work: a deep or huge program is a 400, not a long walk', async () => {
    const deep = `${'['.repeat(5000)}{"leaf":1}${']'.repeat(5000)}`;
    const res = await request(app).post(`/${family}/xcm-analyser`).set('content-type', 'application/json').send(`{"xcm":[${deep}]}`).expect(400);
    expect(res.body.message).toMatch(/more than 4096 values/);
    const wide = await analyse(family, { xcm: Array.from({ length: 257 }, () => 1) }).expect(400);
    expect(wide.body.details[0].path).toBe('body.xcm');
  });
});
