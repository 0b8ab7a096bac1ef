// The sandbox as a user runs it: the compiled entry of `npm run sandbox` in its own process, on
// ports the system picks (PORT=0, SANDBOX_NODE_PORT=0), with ALLOW_PRIVATE_OVERRIDES off. The
// README's first requests answer real results; the call data decodes against the chain's metadata
// as a wallet decodes it; a transfer signed with polkadot.js and submitted to the sandbox's node is
// followed by POST /x-transfer/status to a settled answer; /status and every log line say sandbox;
// SIGTERM stops the service and every node.
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { openStream } from '../helpers/transfer-status';
import { startReceiver } from '../helpers/webhook-receiver';
import { builtServer, runServer, type ServerProcess } from '../support/built-server';
import { readmeExamples, runExample } from '../support/readme-examples';

const { Keyring } = createRequire(__filename)('@polkadot/keyring') as typeof import('@polkadot/keyring');

/** //Alice on Polkadot (SS58 prefix 0). */
const ALICE = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5';
const TRANSFER = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: ALICE };
const PREFLIGHT = { ...TRANSFER, senderAddress: ALICE };

let sandbox: ServerProcess;
let url: string;
let chains: Record<string, string>;
/** The Ethereum node's JSON-RPC URL. */
let ethereum: string;
let api: ApiPromise | undefined;
/** Connections the README examples' checks opened, by chain. */
const readmeApis: Record<string, ApiPromise> = {};

async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Whether something accepts connections on `port` of 127.0.0.1. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => socket.destroy() && resolve(true));
    socket.once('error', () => resolve(false));
  });

beforeAll(async () => {
  const entry = join(dirname(await builtServer()), 'sandbox/main.js');
  sandbox = await runServer({
    server: entry,
    // node_modules may be a link to another checkout's (a worktree's): keep the paths as given, so
    // that the build finds this checkout's files (the chains' metadata under src/sandbox).
    nodeArgs: ['--preserve-symlinks', '--preserve-symlinks-main'],
    env: { PORT: '0', SANDBOX_NODE_PORT: '0', SANDBOX_BLOCK_MS: '500', ALLOW_PRIVATE_OVERRIDES: 'false', LOG_LEVEL: 'info' },
  });
  url = await sandbox.listening;
  const ready = sandbox.lines.find((l) => l.json?.msg?.startsWith('sandbox chains ready'));
  chains = ready?.json?.chains as Record<string, string>;
  ethereum = ready?.json?.ethereum as string;
}, 240_000);

afterAll(async () => {
  await api?.disconnect();
  await Promise.all(Object.values(readmeApis).map((a) => a.disconnect()));
  if (sandbox && sandbox.child.exitCode === null) {
    sandbox.child.kill('SIGKILL');
    await sandbox.exited;
  }
});


// In this order: the last test stops the sandbox.
describe('npm run sandbox', { shuffle: false }, () => {
  it('runs a node for each chain and says it is a sandbox in /status', async () => {
    expect(Object.keys(chains).sort()).toEqual(['AssetHubKusama', 'AssetHubPolkadot', 'BridgeHubPolkadot', 'Hydration', 'Kusama', 'Moonbeam', 'Polkadot']);
    const res = await fetch(`${url}/status`);
    expect(res.status).toBe(200);
    // Webhook receivers on this machine are called (the sandbox is local by nature), though ALLOW_PRIVATE_OVERRIDES is off.
    expect(await res.json()).toMatchObject({ service: 'xcm-gateway', mode: 'sandbox', ready: true, watches: { localReceivers: true } });
    // /docs says it talks to the sandbox, and names the development accounts.
    const docs = await (await fetch(`${url}/docs`)).text();
    // In the page's own note (shown open, before the collapsed "About this API"), not in the description.
    const info = (JSON.parse(/<script type="application\/json" id="spec">([\s\S]*?)<\/script>/.exec(docs)![1]!) as { info: { 'x-note': string; description: string } }).info;
    expect(info['x-note']).toContain('this page is talking to the sandbox');
    expect(info['x-note']).toContain(`\`//Alice\` | \`${ALICE}\``);
    expect(info.description).not.toContain('this page is talking to the sandbox');
    expect(sandbox.lines.find((l) => l.json?.msg?.startsWith('sandbox chains ready'))?.json).toMatchObject({ localWebhookReceivers: true, msg: expect.stringMatching(/webhook receivers on this machine are allowed; rate limits off/), rateLimits: { perMinute: 0, chainPerMinute: 0 } });
  });

  it('runs an Ethereum node that the service quotes Snowbridge transfers on (openapi.yaml\'s example, from Alith)', async () => {
    expect(ethereum).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const chainId = await (await fetch(ethereum, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })).json();
    expect(chainId).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1' });
    const built = await post('/v2/evm-x-transfer', { from: 'Ethereum', to: 'AssetHubPolkadot', currency: { symbol: 'WETH', amount: '0.5' }, sender: '0xf24FF3a9CF04c71Dbc94D0b566f7A27B94566cac', recipient: ALICE });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expect(built.body).toMatch(/^0x02/);
  });

  it('answers the README\'s first requests with real results; the call data decodes against Polkadot\'s metadata', async () => {
    const built = await post('/v5/x-transfer', TRANSFER);
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const hex = built.body as string;
    api = await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains.Polkadot!), noInitWarn: true });
    const call = api.createType('Call', hex);
    expect(call.toHex()).toBe(hex);
    expect(`${call.section}.${call.method}`).toMatch(/^xcmPallet\./);

    const dryRun = await post('/v5/dry-run', PREFLIGHT);
    expect(dryRun.status, JSON.stringify(dryRun.body)).toBe(200);
    expect(dryRun.body).toMatchObject({ success: true, origin: { success: true }, destination: { success: true } });

    // DOT from the relay chain to Hydration: the SDK dry-runs a transfer through Asset Hub (DOT's
    // reserve) first and keeps it when it succeeds; the dry run executes each hop.
    const toHydration = await post('/v5/dry-run', { ...PREFLIGHT, to: 'Hydration' });
    expect(toHydration.status, JSON.stringify(toHydration.body)).toBe(200);
    expect(toHydration.body).toMatchObject({ success: true, hops: [{ chain: 'AssetHubPolkadot', result: { success: true } }], destination: { success: true } });

    const fee = await post('/v5/xcm-fee', PREFLIGHT);
    expect(fee.status, JSON.stringify(fee.body)).toBe(200);
    expect(fee.body).toMatchObject({ origin: { fee: expect.stringMatching(/^[1-9]\d*$/) }, destination: { fee: expect.stringMatching(/^\d+$/) } });

    const transferable = await post('/v5/transferable-amount', PREFLIGHT);
    expect(transferable.status, JSON.stringify(transferable.body)).toBe(200);
    // Alice holds 10,000 DOT on every Polkadot chain of the sandbox: the transferable amount is
    // that less the fees and the existential deposit.
    expect(BigInt(transferable.body as string)).toBeGreaterThan(9_990n * 10n ** 10n);
    expect(BigInt(transferable.body as string)).toBeLessThan(10_000n * 10n ** 10n);

    const hash = await post('/v5/metadata-hash', { chain: 'Polkadot' });
    expect(hash.status, JSON.stringify(hash.body)).toBe(200);
    expect(hash.body).toMatchObject({ chain: 'Polkadot', specName: 'polkadot', metadataHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  });

  it.each(readmeExamples().map((e) => [e.id, e] as const))("the README's %s, as written, answers", async (_id, example) => {
    await runExample(example, async (req, body) => {
      const res = await fetch(`${url}${req.path}`, { method: req.method, headers: req.headers, body });
      const text = await res.text();
      // Call data decodes against the origin's metadata, as a wallet checks it.
      if (res.status === 200 && /\/x-transfer$/.test(req.path)) {
        const from = (JSON.parse(body ?? '{}') as { from: string }).from;
        readmeApis[from] ??= await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains[from]), noInitWarn: true });
        const call = readmeApis[from].createType('Call', JSON.parse(text) as string);
        expect(call.toHex()).toBe(JSON.parse(text));
        expect(call.section).toMatch(/xcmPallet|polkadotXcm/);
      }
      return { status: res.status, text };
    });
  });

  it('takes a transfer signed with polkadot.js, and POST /x-transfer/status follows it to its destination', async () => {
    const built = await post('/v5/x-transfer', TRANSFER);
    api ??= await polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(chains.Polkadot!), noInitWarn: true });
    const alice = new Keyring({ type: 'sr25519' }).addFromUri('//Alice');
    const txHash = (await api.tx(api.createType('Call', built.body as string)).signAndSend(alice)).toHex();

    const stream = await openStream(`${url}/v5/x-transfer/status`, { from: 'Polkadot', to: 'AssetHubPolkadot', txHash });
    expect(stream.status).toBe(200);
    const final = (await stream.until('status')).at(-1);
    stream.close();
    expect(final?.data).toMatchObject({
      status: 'delivered',
      final: true,
      legs: [
        { chain: 'Polkadot', role: 'origin', state: 'success', events: ['balances.Withdraw', 'xcmPallet.FeesPaid', 'xcmPallet.Sent', 'transactionPayment.TransactionFeePaid', 'system.ExtrinsicSuccess'] },
        // The deposit to Alice, then the execution fee to the fee account.
        { chain: 'AssetHubPolkadot', role: 'destination', state: 'success', events: ['balances.Minted', 'balances.Minted', 'messageQueue.Processed'] },
      ],
    });
    // A watch on it, to a receiver on this machine: its events verify with standardwebhooks.
    const receiver = await startReceiver();
    try {
      const watch = await post('/v5/x-transfer/watch', { from: 'Polkadot', to: 'AssetHubPolkadot', txHash, webhook: { url: receiver.url, secret: receiver.secret } });
      expect(watch.status, JSON.stringify(watch.body)).toBe(201);
      const events = await receiver.eventsOf((watch.body as { id: string }).id, 1);
      expect(events.at(-1)?.event).toMatchObject({ type: 'transfer.delivered', data: { status: 'delivered', final: true } });
      expect(receiver.forged).toBe(0);
    } finally {
      await receiver.close();
    }
    // The same extrinsic again is refused, as a node refuses a used nonce.
    await expect(api.tx(api.createType('Call', built.body as string)).signAndSend(alice, { nonce: 0 })).rejects.toThrow(/1010.*outdated/);
  }, 60_000);

  it('every log line is JSON and says sandbox; SIGTERM stops the service and every node', async () => {
    await api?.disconnect();
    api = undefined;
    const ports = [new URL(url).port, new URL(ethereum).port, ...Object.values(chains).map((u) => new URL(u).port)].map(Number);
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exited).toBe(0);
    expect(sandbox.lines.length).toBeGreaterThan(0);
    for (const line of sandbox.lines) expect(line.json?.sandbox, line.text).toBe(true);
    for (const port of ports) expect(await listening(port), `port ${port}`).toBe(false);
  }, 60_000);
});
