// Runtimes older than the SDK's tables (like Kusama 1.0.0, early 2024): their metadata knows XCM V2
// and V3 only and offers no DryRunApi or XcmPaymentApi (src/sandbox/older-queues.ts). Call data is
// built with the highest XCM version the origin knows; pre-flight says what it cannot know; status
// finds a relay's message that no event names (measured on the real Kusama 1.0.0 under chopsticks:
// the relay says only `xcmPallet.Attempted`, its asset hub `dmpQueue.ExecutedDownward`).
import { blake2AsHex } from '@polkadot/util-crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, testApp } from '../helpers/app';
import { ALICE, signedTransfer } from '../helpers/transfer-status';
import { executedDownward, extrinsicSuccess, topicOf, type Hex } from '../support/xcm-events';
import { startTestChain, type TestChain, type TestChainName, type TestChainOptions } from '../support/test-chain';

const SETUP: [TestChainName, TestChainOptions['queues']][] = [
  ['Kusama', 'cumulus-1.0'],
  ['AssetHubKusama', 'cumulus-1.0'],
];
const KSM = 1_000_000_000_000n;
const chains = {} as Record<TestChainName, TestChain>;
const overrides: Record<string, string> = {};
const { app, services } = testApp();

beforeAll(async () => {
  for (const [name, queues] of SETUP) {
    // A payment-info fee: pre-flight prices the origin with it when it cannot dry-run.
    chains[name] = await startTestChain(name, { queues, partialFee: 1_000_000n });
    overrides[name] = chains[name].url;
  }
});

afterAll(async () => {
  await services.close();
  await Promise.all(SETUP.map(([n]) => chains[n]?.close()));
});

const options = { development: true, apiOverrides: overrides };
const blake2 = (hex: Hex): Hex => blake2AsHex(hex, 256);

/** The body of a KSM transfer in `family`'s names (v2 abstracts decimals: 1 is one KSM). */
const ksm = (family: (typeof FAMILIES)[number], from: TestChainName, to: TestChainName, extra: Record<string, unknown> = {}) => ({
  from,
  to,
  // Asset Hub also lists a foreign KSM: the native one by its type.
  currency: { symbol: from === 'Kusama' ? 'KSM' : { type: 'Native', value: 'KSM' }, amount: family === 'v5' ? String(KSM) : '1' },
  [family === 'v5' ? 'address' : 'recipient']: ALICE,
  options,
  ...extra,
});

/** The call data decoded with the origin's own metadata, as a wallet would show it. */
function decoded(chain: TestChainName, hex: string): { section: string; method: string; args: Record<string, unknown> } {
  const call = chains[chain].registry.createType('Call', hex) as unknown as { section: string; method: string; toJSON(): { args: Record<string, unknown> } };
  return { section: call.section, method: call.method, args: call.toJSON().args };
}

describe('POST /x-transfer on a runtime that knows XCM V2 and V3 only', () => {
  it.each(FAMILIES)('/%s Kusama -> AssetHubKusama: built with XCM V3, the newest the chain knows', async (family) => {
    const res = await request(app).post(`/${family}/x-transfer`).send(ksm(family, 'Kusama', 'AssetHubKusama'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(decoded('Kusama', res.body as string)).toEqual({
      section: 'xcmPallet',
      method: 'limitedTeleportAssets',
      args: {
        dest: { v3: { parents: 0, interior: { x1: { parachain: 1000 } } } },
        beneficiary: { v3: { parents: 0, interior: { x1: { accountId32: { network: null, id: expect.stringMatching(/^0x[0-9a-f]{64}$/) } } } } },
        assets: { v3: [{ id: { concrete: { parents: 0, interior: { here: null } } }, fun: { fungible: Number(KSM) } }] },
        fee_asset_item: 0,
        weight_limit: { unlimited: null },
      },
    });
  });

  it.each(FAMILIES)('/%s AssetHubKusama -> Kusama: a 400 saying why (the SDK sends KSM from a parachain only by transferAssetsUsingTypeAndThen, which 1.0.0 lacks)', async (family) => {
    const res = await request(app).post(`/${family}/x-transfer`).send(ksm(family, 'AssetHubKusama', 'Kusama'));
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ kind: 'ValidationError', message: 'Relaychain assets can only be transferred using the type-and-then method which is not supported by this chain' });
  });
});

describe('pre-flight on a runtime without DryRunApi', () => {
  it.each(FAMILIES)("/%s /xcm-fee: the origin's dryRunError says the runtime has no DryRunApi; the destination's fee is not quoted as known", async (family) => {
    const res = await request(app).post(`/${family}/xcm-fee`).send(ksm(family, 'Kusama', 'AssetHubKusama', { [family === 'v5' ? 'senderAddress' : 'sender']: ALICE }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body as { success: boolean; origin: { dryRunError?: { reason: string } }; destination: { dryRunError?: { reason: string } }; dryRunError: { chain: string } };
    expect(body.success).toBe(false);
    expect(body.origin.dryRunError?.reason).toBe('DryRunApi is not available on chain Kusama: its runtime (kusama 1000000) does not offer it');
    expect(body.destination.dryRunError?.reason).toBe("Kusama's runtime offers no DryRunApi: the XCM could not be followed, so what it costs on the way and what arrives are not known");
    expect(body.dryRunError.chain).toBe('Kusama');
    expect(body.destination).not.toHaveProperty('sufficient');
  });

  it.each(FAMILIES)('/%s /transfer-info: what arrives is not known, not the whole amount', async (family) => {
    const res = await request(app).post(`/${family}/transfer-info`).send(ksm(family, 'Kusama', 'AssetHubKusama', { [family === 'v5' ? 'senderAddress' : 'sender']: ALICE }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const unknown = { error: 'UnableToComputeError', message: "Kusama's runtime offers no DryRunApi: the XCM could not be followed, so what it costs on the way and what arrives are not known" };
    expect((res.body as { destination: unknown }).destination).toMatchObject({
      receivedCurrency: { sufficient: unknown, receivedAmount: unknown, balanceAfter: unknown },
      xcmFee: { balanceAfter: unknown, dryRunError: { reason: unknown.message } },
    });
  });

  it.each(FAMILIES)('/%s /receivable-amount, /dry-run and /verify-ed-on-destination are 400s that say why', async (family) => {
    const body = ksm(family, 'Kusama', 'AssetHubKusama', { [family === 'v5' ? 'senderAddress' : 'sender']: ALICE });
    for (const [op, kind, says] of [
      ['receivable-amount', 'RuntimeApiUnavailableError', "The receivable amount needs the dry-run runtime API, which Kusama's runtime does not offer"],
      ['dry-run', 'RuntimeApiUnavailableError', "A dry run needs the dry-run runtime API, which Kusama's runtime does not offer"],
      ['verify-ed-on-destination', 'UnableToComputeError', "Kusama's runtime offers no DryRunApi"],
    ] as const) {
      const res = await request(app).post(`/${family}/${op}`).send(body);
      expect(res.status, `${op}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({ kind });
      expect((res.body as { message: string }).message).toContain(says);
    }
  });
});

/** `xcmPallet.Attempted` as a relay of that era reports running the transfer's XCM (and no `Sent`). */
const attempted = (index: number) => ({ phase: index, pallet: 'XcmPallet', name: 'Attempted', fields: { outcome: { Complete: { used: { refTime: 1, proofSize: 1 } } } } });

/** The asset hub's `setValidationData` inherent carrying downward messages, as a collator writes it. */
function validationData(messages: { sentAt: number; msg: Hex }[]): Hex {
  const { registry } = chains.AssetHubKusama;
  const pallet = registry.metadata.pallets.find((p) => p.name.eq('ParachainSystem'))!;
  const call = registry.lookup.getSiType(pallet.calls.unwrap().type).def.asVariant.variants.find((v) => v.name.eq('set_validation_data'))!;
  // This metadata's call (polkadot-sdk 2503 and later) carries them in `inbound_messages_data`.
  const args = { data: {}, inbound_messages_data: { downwardMessages: { fullMessages: messages, hashedMessages: [] } } };
  const method = registry.createType('Call', { callIndex: [pallet.index.toNumber(), call.index.toNumber()], args });
  return registry.createType('Extrinsic', { method }).toHex() as Hex;
}

describe('POST /x-transfer/status from a relay that names no message in its events', () => {
  it.each(FAMILIES)('/%s Kusama -> AssetHubKusama: found by the relay block the asset hub received it from, delivered', async (family) => {
    const tx = await signedTransfer(app, chains.Kusama, ksm('v5', 'Kusama', 'AssetHubKusama'), overrides);
    const origin = chains.Kusama.produceBlock({ extrinsics: [tx.hex], events: [attempted(0), extrinsicSuccess(0)] });
    // Messages as the relay writes them (V3, a count, then the instructions; the rest stands in): the
    // transfer's opens with ReceiveTeleportedAsset (2); in the same relay block the relay also sent
    // the asset hub a SubscribeVersion (29), as it does after it first sends there; an earlier
    // block's transfer came in too. The hash is what the asset hub names a message by.
    const msg = `0x030802${tx.hash.slice(2)}` as Hex;
    const subscribe = `0x03081d${'cd'.repeat(32)}` as Hex;
    const earlier = `0x030802${'ab'.repeat(32)}` as Hex;
    const hash = blake2(msg);
    const dest = chains.AssetHubKusama.produceBlock({
      extrinsics: [validationData([{ sentAt: origin.number - 1, msg: earlier }, { sentAt: origin.number, msg: subscribe }, { sentAt: origin.number, msg }])],
      events: [earlier, subscribe, msg].map((m) => executedDownward({ hash: blake2(m), id: topicOf(m) }, 'Complete')),
    });
    const res = await request(app).post(`/${family}/x-transfer/status`).send({ from: 'Kusama', to: 'AssetHubKusama', txHash: tx.hash, options });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: 'delivered',
      final: true,
      messageId: hash,
      legs: [
        { chain: 'Kusama', state: 'success', blockHash: origin.hash, events: ['xcmPallet.Attempted', 'system.ExtrinsicSuccess'] },
        { chain: 'AssetHubKusama', state: 'success', blockHash: dest.hash, events: ['dmpQueue.ExecutedDownward'] },
      ],
    });
  });

  it('two transfers to the asset hub in one relay block cannot be told apart: the leg is not-found and the note says why', async () => {
    const [a, b] = [await signedTransfer(app, chains.Kusama, ksm('v5', 'Kusama', 'AssetHubKusama'), overrides), await signedTransfer(app, chains.Kusama, ksm('v5', 'Kusama', 'AssetHubKusama'), overrides)];
    const origin = chains.Kusama.produceBlock({ extrinsics: [a.hex, b.hex], events: [attempted(0), extrinsicSuccess(0), attempted(1), extrinsicSuccess(1)] });
    const messages = [a, b].map((tx) => ({ sentAt: origin.number, msg: `0x030802${tx.hash.slice(2)}` as Hex }));
    chains.AssetHubKusama.produceBlock({ extrinsics: [validationData(messages)], events: messages.map(({ msg }) => executedDownward({ hash: blake2(msg), id: topicOf(msg) }, 'Complete')) });
    const res = await request(app).post('/v5/x-transfer/status').send({ from: 'Kusama', to: 'AssetHubKusama', txHash: a.hash, blockHash: origin.hash, options });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      final: true,
      legs: [{ chain: 'Kusama', state: 'success' }, { chain: 'AssetHubKusama', state: 'not-found' }],
      note: `Kusama names no message in its events, and AssetHubKusama received 2 that bring assets from its block ${origin.number}: which is this transfer's cannot be told.`,
    });
  });
});
