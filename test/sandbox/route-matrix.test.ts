// The route matrix through the sandbox (issues 32 and 35): every route of test/support/route-matrix.ts
// that builds is built with POST /v5/x-transfer (and /v2's call data must be the same bytes),
// signed with a funded development account, submitted to the sandbox's origin chain, followed with
// /x-transfer/status to `delivered` (over the bridge between the asset hubs, which it follows only
// to the bridge hub: `bridged`, and the destination's MessageQueue.Processed), and the balances are read back from the chains' storage: the
// beneficiary grew by exactly /receivable-amount, the sender paid exactly the amount and
// /xcm-fee's origin fee, and every fee quoted is in an asset the chain that charges it takes.
// The routes that cannot pass yet are listed in PENDING with what happens instead, so a route that
// starts (or stops) passing fails here.
import request from 'supertest';
import { expect, it } from 'vitest';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { ApiPromise } from '../../src/sdk';
import { assetOf, assetsOf, nativeOf, xc20Address, type ChainAsset } from '../../src/sandbox/assets';
import type { SandboxChainName } from '../../src/sandbox/chain-node';
import { PLACES } from '../../src/sandbox/topology';
import { parseLocation, reanchor, sameLocation, toSdkJson, universalOf } from '../../src/xcm/location';
import { key, networkOf, REFUSED, ROUTES, selector, type Asset, type Route } from '../support/route-matrix';
import { alith, dev, finalStatus, submit } from '../support/sandbox-client';
import { sandboxService } from '../support/sandbox-service';

/** A route that cannot pass yet: why, and the error its run fails with (it must, so one that starts passing fails). */
interface Pending {
  reason: string;
  fails: RegExp;
}

const PENDING: Record<string, Pending> = {};

/** What each route sends: a few tokens, enough to pay every hop's fees. */
const AMOUNT: Record<Asset, bigint> = { DOT: 2n * 10n ** 10n, KSM: 10n ** 12n, USDT: 5_000_000n, USDC: 5_000_000n, HDX: 10n ** 14n, GLMR: 10n ** 18n };

const served = sandboxService({ blockMs: 100 });

const options = () => ({ abstractDecimals: false });

/** The signer on each chain: Alith (an Ethereum key) on Moonbeam, //Eve elsewhere; the recipient: Baltathar's key on Moonbeam, //Ferdie elsewhere. */
const sender = (chain: SandboxChainName): KeyringPair => (chain === 'Moonbeam' ? alith() : dev('Eve'));
const recipient = (chain: SandboxChainName): string => (chain === 'Moonbeam' ? '0x3Cd0A705a2DC65e5b1E1205896BaA2be8A07c6e0' : dev('Ferdie').address);

/** The matrix's asset as the chain lists it (src/sandbox/assets.ts), found by its location as that chain reads it. */
function held(chain: SandboxChainName, asset: Asset): ChainAsset | undefined {
  const { network, paraId } = PLACES[chain];
  // The matrix spells it as a parachain of the chain's network reads it.
  const location = reanchor(parseLocation(selector(asset, networkOf(chain)))!, universalOf(network, 0), universalOf(network, paraId));
  return location ? assetOf(chain, location) : undefined;
}

type Codec = { toBigInt(): bigint };

/** `who`'s free balance of `asset`, read from the chain's storage as a wallet reads it. */
async function freeOf(api: ApiPromise, asset: ChainAsset, who: string): Promise<bigint> {
  const { store } = asset;
  switch (store.pallet) {
    case 'System':
      return ((await api.query.system.account(who)) as unknown as { data: { free: Codec } }).data.free.toBigInt();
    case 'Assets':
      return ((await api.query.assets.account(store.id, who)) as unknown as { unwrapOrDefault(): { balance: Codec } }).unwrapOrDefault().balance.toBigInt();
    case 'ForeignAssets':
      return ((await api.query.foreignAssets.account(toSdkJson(store.location), who)) as unknown as { unwrapOrDefault(): { balance: Codec } }).unwrapOrDefault().balance.toBigInt();
    case 'Tokens':
      return ((await api.query.tokens.accounts(who, store.id)) as unknown as { free: Codec }).free.toBigInt();
    case 'EvmForeignAssets': {
      // An XC-20: its ERC-20's balanceOf(who), over the node's Ethereum JSON-RPC.
      const eth = (api.rpc as unknown as { eth: { call(request: { to: string; data: string }): Promise<{ toHex(): string }> } }).eth;
      const answer = (await eth.call({ to: xc20Address(store.id), data: `0x70a08231${who.slice(2).toLowerCase().padStart(64, '0')}` })).toHex();
      return BigInt(answer);
    }
  }
}

interface Quoted {
  fee: string;
  asset?: { symbol?: string; location?: unknown; isNative?: boolean };
}

/**
 * Each fee /xcm-fee quotes is in an asset the chain charging it takes: its native token, or one it
 * lists with a price for weight (src/sandbox/assets.ts), the quote's location (as a parachain of
 * the network writes it, the registry's spelling) read from that chain.
 */
function expectFeesTaken(chain: SandboxChainName, quoted: Quoted | undefined, label: string): void {
  expect(quoted?.fee, `${label}: no fee quoted`).toBeDefined();
  if (BigInt(quoted!.fee) === 0n) return;
  const { asset } = quoted!;
  if (asset?.isNative && asset.symbol === nativeOf(chain).symbol) return;
  const location = parseLocation(asset?.location);
  const { network, paraId } = PLACES[chain];
  const onChain = location && reanchor(location, universalOf(network, 0), universalOf(network, paraId));
  const taken = assetsOf(chain).filter((a) => a.perSecond !== undefined);
  expect(
    taken.some((a) => onChain && sameLocation(a.location, onChain)),
    `${label}: ${chain} does not take ${JSON.stringify(asset)}`,
  ).toBe(true);
}

const BUILDS = ROUTES.filter((r) => !REFUSED[key(r)]);

it('lists only routes of the matrix that build as pending', () => {
  const builds = new Set(BUILDS.map(key));
  for (const pending of Object.keys(PENDING)) expect(builds, pending).toContain(pending);
});

it.each(BUILDS.map((r) => [key(r), r] as const))('%s', async (name, route: Route) => {
  const pending = PENDING[name];
  const arrival = networkOf(route.from) === networkOf(route.to) ? delivered : overTheBridge;
  if (pending) await expect(transfer(route, arrival), pending.reason).rejects.toThrow(pending.fails);
  else await transfer(route, arrival);
}, 60_000);

/** Before submitting, what to watch for on the destination; after, waits for the transfer to arrive there. */
type Arrival = (route: Route, destination: ApiPromise) => Promise<(txHash: string) => Promise<void>>;

/** Followed with /x-transfer/status to `delivered`. */
const delivered: Arrival = async ({ from, to }) => async (txHash) => {
  const status = await finalStatus(served.url, { from, to, txHash });
  expect(status['status'], `status ${JSON.stringify(status)}`).toBe('delivered');
};

/**
 * Over the bridge: /x-transfer/status follows it to the bridge hub (Kusama's side is BridgeHubKusama,
 * which the sandbox does not run, so only Polkadot's side is followed), and the destination
 * processes the message.
 */
const overTheBridge: Arrival = async ({ from, to }, destination) => {
  const processed = await nextProcessed(destination);
  return async (txHash) => {
    if (from === 'AssetHubPolkadot') expect((await finalStatus(served.url, { from, to, txHash }))['status']).toBe('bridged');
    expect(await processed(), `${to} processed the message`).toBe(true);
  };
};

/** Builds, pre-flights, signs, submits and follows one route, then checks every balance against pre-flight. */
async function transfer(route: Route, arrival: Arrival): Promise<void> {
  const { from, to, asset } = route;
  const who = sender(from);
  const body = {
    from,
    to,
    currency: { location: selector(asset, networkOf(from)), amount: String(AMOUNT[asset]) },
    address: recipient(to),
    senderAddress: who.address,
    options: options(),
  };
  const { address, senderAddress, ...common } = body;
  const v2 = { ...common, recipient: address, sender: senderAddress };
  // Pre-flight from an EVM origin asks where what is left on the asset hub goes.
  const preflight = from === 'Moonbeam' ? { ...body, ahAddress: dev('Eve').address } : body;
  const [built, builtV2, fee, dryRun, receivable] = await Promise.all([
    request(served.app).post('/v5/x-transfer').send(body),
    request(served.app).post('/v2/x-transfer').send(v2),
    request(served.app).post('/v5/xcm-fee').send(preflight),
    request(served.app).post('/v5/dry-run').send(preflight),
    request(served.app).post('/v5/receivable-amount').send(preflight),
  ]);
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  expect(builtV2.body, 'the /v2 call data').toBe(built.body);
  expect(receivable.status, `receivable-amount ${JSON.stringify(receivable.body)}`).toBe(200);
  expect(fee.status, `xcm-fee ${JSON.stringify(fee.body)}`).toBe(200);
  expect(dryRun.status, `dry-run ${JSON.stringify(dryRun.body)}`).toBe(200);
  const quoted = fee.body as { origin: Quoted; hops?: { chain: SandboxChainName; result: Quoted }[]; destination: Quoted };
  const dry = dryRun.body as { success: boolean; origin: Quoted; destination: Quoted };
  expect(dry.success, `dry-run ${JSON.stringify(dry)}`).toBe(true);
  expect(dry.origin.fee, 'dry-run origin fee').toBe(quoted.origin.fee);
  expect(dry.destination?.fee, 'dry-run destination fee').toBe(quoted.destination.fee);
  expectFeesTaken(from, quoted.origin, 'origin');
  for (const hop of quoted.hops ?? []) expectFeesTaken(hop.chain, hop.result, `hop ${hop.chain}`);
  expectFeesTaken(to, quoted.destination, 'destination');

  const [origin, destination] = [await served.clients.api(from), await served.clients.api(to)];
  const [sent, got, native] = [held(from, asset)!, held(to, asset)!, nativeOf(from)];
  expect(sent, `${from} holds ${asset}`).toBeDefined();
  expect(got, `${to} holds ${asset}`).toBeDefined();
  const [sentBefore, nativeBefore, gotBefore] = [await freeOf(origin, sent, who.address), await freeOf(origin, native, who.address), await freeOf(destination, got, recipient(to))];
  const arrived = await arrival(route, destination);
  const included = await submit(origin, origin.tx(origin.createType('Call', built.body as string)), who);
  expect(included.events).toContain('system.ExtrinsicSuccess');
  await arrived(included.hash);

  expect((await freeOf(destination, got, recipient(to))) - gotBefore, 'received, against /receivable-amount').toBe(BigInt(receivable.body as string));
  const paid = sentBefore - (await freeOf(origin, sent, who.address));
  if (sent.store.pallet === 'System') expect(paid).toBe(AMOUNT[asset] + BigInt(quoted.origin.fee));
  else {
    expect(paid).toBe(AMOUNT[asset]);
    expect(nativeBefore - (await freeOf(origin, native, who.address))).toBe(BigInt(quoted.origin.fee));
  }
}

/** The next `messageQueue.Processed` the chain emits: whether the message it processed succeeded. */
async function nextProcessed(api: ApiPromise): Promise<() => Promise<boolean>> {
  let settle!: (success: boolean) => void;
  const processed = new Promise<boolean>((resolve) => (settle = resolve));
  const unsubscribe = await api.rpc.chain.subscribeNewHeads(async (head) => {
    const events = (await api.query.system.events.at(head.hash)) as unknown as { event: { section: string; method: string; data: { success?: { isTrue: boolean } } } }[];
    const found = events.find(({ event }) => event.section === 'messageQueue' && event.method === 'Processed');
    if (found) settle(found.event.data.success?.isTrue ?? false);
  });
  return async () => {
    const success = await processed;
    unsubscribe();
    return success;
  };
}
