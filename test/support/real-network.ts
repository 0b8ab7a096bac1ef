// Real runtimes for the tests in test/real: a relay chain and its parachains run by chopsticks from
// their genesis specs (real-specs.ts), connected in XCM mode, in a child process of their own
// (real-network-node.mts: chopsticks loads @polkadot/* itself; this process loads it once, through
// src/sdk). Blocks are built only when a test asks (`newBlock`), so what a block holds is known:
// a signed transaction and the messages the chains before it sent.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { WsProvider } from '@polkadot/api';
import { polkadotApi, type ApiPromise } from '../../src/sdk';
import { REAL_SPEC_FILES, realSpecsDir, type RealChain } from './real-specs';

export { realSpecsDir, type RealChain } from './real-specs';

/** Blocks built on every chain before it is handed over: a transaction signed at block 0 fails `badProof`. */
const WARM_BLOCKS = 2;
/** Starting three runtimes (compiling their wasm) takes about 40 s on an idle 2-core machine. */
const START_TIMEOUT_MS = 300_000;
/** The child's last output kept for a failure's message. */
const KEPT_OUTPUT = 20_000;

export interface Included {
  /** The extrinsic's hash (what /x-transfer/status takes). */
  hash: string;
  blockHash: string;
  /** `section.method` of the extrinsic's events. */
  events: string[];
  /** The dispatch error, `section.name`, if it failed. */
  error?: string;
  /** The id of the XCM message it sent (the `Sent` event's `messageId`), if it sent one. */
  messageId?: string;
}

export interface RealNetwork {
  /** Chain name -> ws:// URL of its chopsticks node (on 127.0.0.1). */
  readonly endpoints: Record<string, string>;
  /** A polkadot.js client of the chain (one per chain, closed with the network). */
  api(chain: RealChain): Promise<ApiPromise>;
  /** Builds `count` blocks on the chain (with what its pool and its inbound messages hold); the last block's hash. */
  newBlock(chain: RealChain, count?: number): Promise<string>;
  /** Signs the call (hex call data) as `signer`, the nonce the chain's own (as a wallet does), and builds the block that includes it. */
  submit(chain: RealChain, call: string, signer: KeyringPair): Promise<Included>;
  /**
   * Builds blocks on the chain, one at a time (at most `maxBlocks`), until one processes the inbound
   * XCM message `messageId` (`messageQueue.Processed`; others, a version exchange say, may come
   * first): whether it succeeded.
   */
  processMessage(chain: RealChain, messageId: string, maxBlocks?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface RealNetworkOptions {
  relay: Extract<RealChain, 'Paseo' | 'Kusama'>;
  /** The relay's parachains to run: AssetHubPaseo, PeoplePaseo (Paseo), AssetHubKusama (Kusama). */
  paras: readonly RealChain[];
}

type EventRecord = { phase: { isApplyExtrinsic: boolean; asApplyExtrinsic: { toNumber(): number } }; event: { section: string; method: string; data: unknown } };
type DispatchError = { isModule: boolean; asModule: unknown; toString(): string };

/** Starts the chains from the specs in realSpecsDir() (which must be set); close() ends them. */
export async function startRealNetwork(options: RealNetworkOptions): Promise<RealNetwork> {
  const dir = realSpecsDir();
  if (!dir) throw new Error('startRealNetwork: REALRUN_SPECS_DIR names no folder of specs');
  const chains = [options.relay, ...options.paras];
  const specs = chains.map((chain) => [chain, join(dir, REAL_SPEC_FILES[chain])]);
  const child = fork(join(__dirname, 'real-network-node.mts'), [JSON.stringify({ specs, warmBlocks: WARM_BLOCKS })], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const endpoints = await started(child);
  const clients = new Map<RealChain, { provider: WsProvider; api: Promise<ApiPromise> }>();
  const client = (chain: RealChain) => {
    let made = clients.get(chain);
    if (!made) {
      const url = endpoints[chain];
      if (!url) throw new Error(`${chain} is not running in this network`);
      const provider = new polkadotApi.WsProvider(url);
      made = { provider, api: polkadotApi.ApiPromise.create({ provider, noInitWarn: true }) };
      clients.set(chain, made);
    }
    return made;
  };
  const api = (chain: RealChain) => client(chain).api;
  const newBlock = async (chain: RealChain, count = 1): Promise<string> => {
    await api(chain);
    return (await client(chain).provider.send('dev_newBlock', [{ count }])) as string;
  };
  const eventsAt = async (chain: RealChain, blockHash: string) => (await (await api(chain)).query.system.events.at(blockHash)) as unknown as EventRecord[];

  return {
    endpoints,
    api,
    newBlock,
    async submit(chain, call, signer) {
      const chainApi = await api(chain);
      const tx = chainApi.tx(chainApi.createType('Call', call));
      await tx.signAsync(signer);
      const hash = (await chainApi.rpc.author.submitExtrinsic(tx)).toHex();
      const blockHash = await newBlock(chain);
      const block = await chainApi.rpc.chain.getBlock(blockHash);
      const index = block.block.extrinsics.findIndex((extrinsic) => extrinsic.hash.toHex() === hash);
      if (index < 0) throw new Error(`${chain}: the extrinsic ${hash} is not in the block built after it (${blockHash})`);
      const records = (await eventsAt(chain, blockHash)).filter(({ phase }) => phase.isApplyExtrinsic && phase.asApplyExtrinsic.toNumber() === index);
      const failed = records.find(({ event }) => event.section === 'system' && event.method === 'ExtrinsicFailed');
      const dispatchError = (failed?.event.data as DispatchError[] | undefined)?.[0];
      const meta = dispatchError?.isModule ? chainApi.registry.findMetaError(dispatchError.asModule as Parameters<typeof chainApi.registry.findMetaError>[0]) : undefined;
      const sent = records.find(({ event }) => ['xcmPallet', 'polkadotXcm'].includes(event.section) && event.method === 'Sent');
      return {
        hash,
        blockHash,
        events: records.map(({ event }) => `${event.section}.${event.method}`),
        ...(failed ? { error: meta ? `${meta.section}.${meta.name}` : String(dispatchError) } : {}),
        ...(sent ? { messageId: (sent.event.data as { messageId: { toHex(): string } }).messageId.toHex() } : {}),
      };
    },
    async processMessage(chain, messageId, maxBlocks = 3) {
      const seen: string[] = [];
      for (let n = 0; n < maxBlocks; n++) {
        for (const { event } of await eventsAt(chain, await newBlock(chain))) {
          const data = event.data as { id?: { toHex(): string }; success?: { isTrue: boolean } };
          if (event.section === 'messageQueue' && event.method === 'Processed' && data.id?.toHex() === messageId) return data.success?.isTrue ?? false;
          seen.push(`${event.section}.${event.method}`);
        }
      }
      throw new Error(`${chain} did not process the message ${messageId} in ${maxBlocks} blocks (events: ${seen.join(', ') || 'none'})`);
    },
    async close() {
      await Promise.all([...clients.values()].map(async ({ api }) => (await api).disconnect()));
      const exited = child.exitCode !== null ? Promise.resolve() : once(child, 'exit');
      if (child.connected) child.disconnect();
      const stop = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(stop);
    },
  };
}

/** The child's endpoints once every chain is ready; its failure (with its last output) otherwise. */
async function started(child: ChildProcess): Promise<Record<string, string>> {
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-KEPT_OUTPUT));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const failure = (what: string) => new Error(`the real network did not start: ${what}\n${output}`);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(failure(`not ready in ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(failure(`the node exited (${code ?? signal})`));
    });
    child.once('message', (message: { endpoints?: Record<string, string>; error?: string }) => {
      clearTimeout(timer);
      if (message.endpoints) resolve(message.endpoints);
      else {
        child.kill('SIGKILL');
        reject(failure(message.error ?? 'no endpoints'));
      }
    });
  });
}
