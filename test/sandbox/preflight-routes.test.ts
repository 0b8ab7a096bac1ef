// Pre-flight answers that agree with each other, through the sandbox's chains (issue 35): routes
// where the SDK, left alone, stopped following the XCM or priced a leg in an asset the chain does
// not charge. What a wallet sees: /xcm-fee and /dry-run give the same fee on every leg, in an asset
// the chain takes, and /receivable-amount is what those fees leave of the amount.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/network';
import { testApp } from '../helpers/app';
import { networkOf, selector, type Asset } from '../support/route-matrix';
import { dev } from '../support/sandbox-client';

let sandbox: Sandbox;
let app: ReturnType<typeof testApp>['app'];
let services: ReturnType<typeof testApp>['services'];

beforeAll(async () => {
  sandbox = await startSandbox({ chains: ['Polkadot', 'AssetHubPolkadot', 'Hydration', 'AssetHubKusama', 'BridgeHubPolkadot'], blockMs: 200, basePort: 0 });
  ({ app, services } = testApp({ CHAIN_ENDPOINTS: JSON.stringify(sandbox.endpoints) }));
}, 120_000);

afterAll(async () => {
  await services?.close();
  await sandbox?.close();
});

interface Leg {
  fee: string;
  feeType?: string;
  asset: { symbol: string };
}

const body = (from: string, to: string, asset: Asset, amount: bigint) => ({
  from,
  to,
  currency: { location: selector(asset, networkOf(from as never)), amount: String(amount) },
  address: dev('Ferdie').address,
  senderAddress: dev('Eve').address,
  options: { abstractDecimals: false },
});

async function preflight(sent: ReturnType<typeof body>) {
  const [fee, dryRun, receivable] = await Promise.all(['xcm-fee', 'dry-run', 'receivable-amount'].map((op) => request(app).post(`/v5/${op}`).send(sent)));
  expect(fee!.status, JSON.stringify(fee!.body)).toBe(200);
  expect(dryRun!.status, JSON.stringify(dryRun!.body)).toBe(200);
  return {
    fee: fee!.body as { success: boolean; hops: { chain: string; result: Leg }[]; destination: Leg },
    dryRun: dryRun!.body as { success: boolean; hops: { chain: string; result: Leg }[]; destination?: Leg },
    receivable,
  };
}

describe('Hydration -> Polkadot DOT (through Asset Hub)', () => {
  const amount = 2n * 10n ** 10n;

  it('the relay chain is dry-run after Asset Hub: /xcm-fee and /dry-run give its fee alike, and /receivable-amount subtracts it', async () => {
    const { fee, dryRun, receivable } = await preflight(body('Hydration', 'Polkadot', 'DOT', amount));
    expect(fee.destination.feeType).toBe('dryRun');
    expect(BigInt(fee.destination.fee)).toBeGreaterThan(0n);
    expect(fee.destination.asset.symbol).toBe('DOT');
    expect(dryRun.destination?.fee).toBe(fee.destination.fee);
    const hop = fee.hops.find((h) => h.chain === 'AssetHubPolkadot')!;
    expect(dryRun.hops.find((h) => h.chain === 'AssetHubPolkadot')?.result.fee).toBe(hop.result.fee);
    expect(receivable.status, JSON.stringify(receivable.body)).toBe(200);
    expect(BigInt(receivable.body as string)).toBe(amount - BigInt(hop.result.fee) - BigInt(fee.destination.fee));
  });
});

describe.each([
  ['AssetHubPolkadot', 'AssetHubKusama', 'DOT', 2n * 10n ** 10n],
  ['AssetHubKusama', 'AssetHubPolkadot', 'KSM', 10n ** 12n],
  // The other network's token going home (the SDK computed a received amount only for the origin's own).
  ['AssetHubPolkadot', 'AssetHubKusama', 'KSM', 10n ** 12n],
  ['AssetHubKusama', 'AssetHubPolkadot', 'DOT', 2n * 10n ** 10n],
] as const)('%s -> %s %s over the bridge', (from, to, asset, amount) => {
  it('the other asset hub is dry-run: /xcm-fee and /dry-run give its fee alike, in the token sent, and /receivable-amount subtracts it', async () => {
    const { fee, dryRun, receivable } = await preflight(body(from, to, asset, amount));
    expect(fee.destination.feeType).toBe('dryRun');
    expect(BigInt(fee.destination.fee)).toBeGreaterThan(0n);
    expect(fee.destination.asset.symbol).toBe(asset);
    expect(dryRun.success).toBe(true);
    expect(dryRun.destination?.fee).toBe(fee.destination.fee);
    expect(receivable.status, JSON.stringify(receivable.body)).toBe(200);
    expect(BigInt(receivable.body as string)).toBe(amount - BigInt(fee.destination.fee));
  });

  it("the origin's dry run forwards what a real asset hub's router sends: the bridge fee's purchase and ExportMessage, to its bridge hub", async () => {
    const { dryRun } = await preflight(body(from, to, asset, amount));
    const [dest, messages] = (dryRun as unknown as { origin: { forwardedXcms: [Record<string, unknown>, Record<string, Record<string, unknown>[]>[]] } }).origin.forwardedXcms;
    expect(Object.values(dest)[0]).toEqual({ parents: 1, interior: { x1: [{ parachain: 1002 }] } });
    const program = Object.values(messages[0]!)[0]!;
    expect(program.map((i) => Object.keys(i)[0])).toEqual(['withdrawAsset', 'buyExecution', 'setAppendix', 'exportMessage', 'setTopic']);
    const exported = program[3]!['exportMessage'] as { network: Record<string, unknown>; destination: unknown };
    expect(exported.network).toEqual({ [to === 'AssetHubKusama' ? 'kusama' : 'polkadot']: null });
    expect(exported.destination).toEqual({ x1: [{ parachain: 1000 }] });
    // The bridge hub is not a hop of the sender's asset: the export is followed to the destination.
    expect(dryRun.hops).toEqual([]);
  });

  it('/transfer-info says the same: the destination fee, and what arrives', async () => {
    const { fee } = await preflight(body(from, to, asset, amount));
    const info = await request(app).post('/v5/transfer-info').send(body(from, to, asset, amount));
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    const destination = (info.body as { destination: { receivedCurrency: { receivedAmount: string }; xcmFee: { fee: string } } }).destination;
    expect(destination.xcmFee.fee).toBe(fee.destination.fee);
    expect(destination.receivedCurrency.receivedAmount).toBe(String(amount - BigInt(fee.destination.fee)));
  });
});

describe('AssetHubPolkadot -> Hydration KSM (a foreign asset of Asset Hub)', () => {
  const amount = 10n ** 12n;

  it("/xcm-fee dry-runs the origin as /dry-run does and quotes Hydration's fee in KSM, which /receivable-amount subtracts", async () => {
    const { fee, dryRun, receivable } = await preflight(body('AssetHubPolkadot', 'Hydration', 'KSM', amount));
    expect(fee.destination.feeType).toBe('dryRun');
    expect(fee.destination.asset.symbol).toBe('KSM');
    expect(dryRun.destination?.fee).toBe(fee.destination.fee);
    expect(receivable.status, JSON.stringify(receivable.body)).toBe(200);
    expect(BigInt(receivable.body as string)).toBe(amount - BigInt(fee.destination.fee));
  });
});

it('/dry-run-preview over the bridge dry-runs the other asset hub too', async () => {
  const sent = body('AssetHubPolkadot', 'AssetHubKusama', 'DOT', 2n * 10n ** 10n);
  const [fee, preview] = await Promise.all([request(app).post('/v5/xcm-fee').send(sent), request(app).post('/v5/dry-run-preview').send(sent)]);
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  const destination = (preview.body as { destination?: Leg }).destination;
  expect(destination?.asset.symbol).toBe('DOT');
  expect(destination?.fee).toBe((fee.body as { destination: Leg }).destination.fee);
});
