// A wallet's side of the sandbox (src/sandbox/network.ts), shared by the tests in test/sandbox:
// polkadot.js clients of its chains, the development accounts' keys, signing and submitting as a
// wallet does, and following a transfer with POST /x-transfer/status to its final answer.
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import type { KeyringPair } from '@polkadot/keyring/types';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import type { SandboxChainName } from '../../src/sandbox/chain-node';
import type { Sandbox } from '../../src/sandbox/network';
import { openStream } from '../helpers/transfer-status';

const { Keyring } = createRequire(__filename)('@polkadot/keyring') as typeof import('@polkadot/keyring');

const sr25519 = new Keyring({ type: 'sr25519', ss58Format: 0 });
const ethereum = new Keyring({ type: 'ethereum' });

/** A development account (`//Alice` ...), funded on every sandbox chain but Moonbeam. */
export const dev = (name: string): KeyringPair => sr25519.addFromUri(`//${name}`);

/** Moonbeam's development account Alith (its well-known Ethereum key), funded with GLMR there. */
export const alith = (): KeyringPair => ethereum.addFromUri('0x5fb92d6e98884f76de468fa3f6278f8807c48bebc13595d45af5bdc4da702133');

/** An account of no development name (sr25519), for a recipient that holds nothing yet. */
export const account = (uri: string): KeyringPair => sr25519.addFromUri(uri);

/** One polkadot.js client per sandbox chain, made on first use and closed together. */
export class SandboxClients {
  private readonly apis: Partial<Record<SandboxChainName, Promise<ApiPromise>>> = {};

  constructor(private readonly sandbox: () => Sandbox) {}

  api(chain: SandboxChainName): Promise<ApiPromise> {
    this.apis[chain] ??= polkadotApi.ApiPromise.create({ provider: new polkadotApi.WsProvider(this.sandbox().endpoints[chain]!), noInitWarn: true });
    return this.apis[chain];
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.apis).map(async (api) => (await api).disconnect()));
  }
}

export interface Included {
  hash: string;
  blockHash: string;
  events: string[];
  error?: string;
}

/**
 * Signs and submits as a wallet does, with polkadot.js's own nonce (none given: it reads
 * System.Account, which counts what the pool took): `ready` when the pool took it, `included` when
 * it is in a block.
 */
export async function send(chainApi: ApiPromise, tx: SubmittableExtrinsic<'promise'>, signer: KeyringPair): Promise<{ ready: Promise<void>; included: Promise<Included> }> {
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const included = new Promise<Included>((resolve, reject) => {
    tx.signAndSend(signer, (result) => {
      if (result.status.isReady) ready();
      // Under load polkadot.js may report a block only once final (it drops InBlock for Finalized).
      if (!result.status.isInBlock && !result.status.isFinalized) return;
      const failed = result.dispatchError?.isModule ? chainApi.registry.findMetaError(result.dispatchError.asModule) : undefined;
      resolve({
        hash: tx.hash.toHex(),
        blockHash: (result.status.isInBlock ? result.status.asInBlock : result.status.asFinalized).toHex(),
        events: result.events.map((e) => `${e.event.section}.${e.event.method}`),
        ...(failed ? { error: `${failed.section}.${failed.name}` } : {}),
      });
    }).catch(reject);
  });
  return { ready: isReady, included };
}

export const submit = async (chainApi: ApiPromise, tx: SubmittableExtrinsic<'promise'>, signer: KeyringPair): Promise<Included> => (await send(chainApi, tx, signer)).included;

/** Follows a transfer with POST {serviceUrl}/v5/x-transfer/status until it is final: the last answer. */
export async function finalStatus(serviceUrl: string, body: { from: string; to: string; txHash: string; options?: Record<string, unknown> }): Promise<Record<string, unknown>> {
  const stream = await openStream(`${serviceUrl}/v5/x-transfer/status`, body);
  expect(stream.status).toBe(200);
  const last = (await stream.until('status')).at(-1);
  stream.close();
  return last?.data as Record<string, unknown>;
}
