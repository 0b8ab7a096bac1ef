// A wallet's use of the client (type-checked by the repository's tests): build a transfer, check it
// before signing (dry run, fees, what arrives), hand the call data to the signer, then follow the
// signed transaction and ask for a webhook when it settles.
import { createGatewayClient, statusEvents, type TransferStatus } from '../src';

export interface Signer {
  /** Signs and submits call data on `chain`; resolves with the transaction hash. */
  signAndSubmit(chain: 'Polkadot', callData: `0x${string}`): Promise<`0x${string}`>;
}

export async function sendDot(gateway: string, signer: Signer, from: string, to: string, planck: bigint): Promise<TransferStatus> {
  const client = createGatewayClient(gateway);
  const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: planck.toString() }, address: to, senderAddress: from } as const;

  const dryRun = await client.POST('/v5/dry-run', { body: transfer });
  if (!dryRun.data?.success) throw new Error(`the transfer would fail: ${JSON.stringify(dryRun.error ?? dryRun.data)}`);
  const arrives = await client.POST('/v5/receivable-amount', { body: transfer });
  if (arrives.error) throw new Error(arrives.error.message);

  const built = await client.POST('/v5/x-transfer', { body: transfer });
  if (built.error) throw new Error(`${built.error.error}: ${built.error.message}`);
  const callData = built.data as `0x${string}`;
  const txHash = await signer.signAndSubmit('Polkadot', callData);

  const watch = await client.POST('/v5/x-transfer/watch', { body: { from: 'Polkadot', to: 'AssetHubPolkadot', txHash, webhook: { url: 'https://wallet.example/hooks/xcm' } } });
  if (watch.error) throw new Error(watch.error.message);

  for await (const event of statusEvents(gateway, { from: 'Polkadot', to: 'AssetHubPolkadot', txHash })) {
    if (event.event === 'status') return event.data;
  }
  throw new Error('the status stream ended without a status');
}
