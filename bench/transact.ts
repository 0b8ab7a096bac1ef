// Transact building (AssetHubPolkadot -> Hydration, V4 send) over the pool, against local test
// chains: the cold first build, then warm builds with 20 connections for 10 s, with the weight
// given and with the weight estimated on the destination (one query_info per build).
import { startTestChain } from '../test/support/test-chain';
import { load, row, startService } from './harness';

const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const BOB = '14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3';
/** Hydration's system.remark_with_event("transact"). */
const REMARK = '0x0107207472616e73616374';

async function main(): Promise<void> {
  const origin = await startTestChain('AssetHubPolkadot');
  // partialFee makes the test chain answer TransactionPaymentApi_query_info.
  const destination = await startTestChain('Hydration', { partialFee: 1_000_000n });
  const service = await startService({ ALLOW_PRIVATE_OVERRIDES: 'true' });
  const body = (transact: Record<string, unknown>) => ({
    from: 'AssetHubPolkadot',
    to: 'Hydration',
    currency: { symbol: { type: 'Native', value: 'DOT' }, amount: '10000000000' },
    address: ALICE,
    senderAddress: BOB,
    transact,
    options: { development: true, apiOverrides: { AssetHubPolkadot: origin.url, Hydration: destination.url } },
  });
  const url = `${service.url}/v5/x-transfer`;
  console.log(`idle RSS: ${service.rssMb()} MB`);

  const started = process.hrtime.bigint();
  const cold = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body({ hex: REMARK })) });
  const coldMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (!cold.ok) throw new Error(`cold build failed: ${cold.status} ${await cold.text()}`);
  console.log(`cold first transact (two chains: connect + metadata, estimate, build): ${coldMs.toFixed(0)} ms`);

  const cases = [
    ['maxWeight given', body({ hex: REMARK, maxWeight: { refTime: '1000000000', proofSize: '10000' } })],
    ['weight estimated', body({ hex: REMARK })],
  ] as const;
  for (const [name, b] of cases) {
    await load({ url, method: 'POST', body: b, connections: 20, seconds: 3 });
    console.log(row(`transact, ${name}, 20 connections`, await load({ url, method: 'POST', body: b, connections: 20, seconds: 10 })));
  }
  console.log(`connections opened: AssetHubPolkadot ${origin.connectionsOpened}, Hydration ${destination.connectionsOpened}`);
  console.log(`RSS after load: ${service.rssMb()} MB`);
  await service.stop();
  await origin.close();
  await destination.close();
}

void main();
