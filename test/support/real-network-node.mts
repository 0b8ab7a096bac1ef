// The child process of real-network.ts: chopsticks running real runtimes from their genesis specs,
// a relay chain and its parachains connected in XCM mode, each listening on a loopback port the OS
// picks. It runs apart from the tests because chopsticks loads @polkadot/* and its own executor;
// the test process loads them once, through src/sdk. Started by node (its types stripped), it is
// told what to start in argv[2] (JSON) and answers over IPC: { endpoints } once every chain is
// ready, or { error }. Its logs go to stderr, kept by the parent for a failure's message.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { BuildBlockMode, connectParachains, connectVertical, getParaId, setStorage, setupWithServer } from '@acala-network/chopsticks';

export interface NodeRequest {
  /** Chain name -> gzipped raw chain spec; the first is the relay. */
  readonly specs: readonly [chain: string, file: string][];
  /** Blocks built on every chain before it is handed over (a transaction signed at block 0 fails `badProof`). */
  readonly warmBlocks: number;
}

/** A spec as chopsticks' genesis provider takes it: Paseo's write `ss58Format`/`tokenDecimals` as strings, which it refuses. */
function readSpec(file: string): Record<string, unknown> {
  const spec = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { properties?: Record<string, unknown> };
  const properties = { ...spec.properties };
  for (const key of ['ss58Format', 'tokenDecimals'] as const) if (typeof properties[key] === 'string') properties[key] = Number(properties[key]);
  return { ...spec, properties };
}

async function start(request: NodeRequest): Promise<{ endpoints: Record<string, string>; close: () => Promise<void> }> {
  const started: Awaited<ReturnType<typeof setupWithServer>>[] = [];
  const endpoints: Record<string, string> = {};
  for (const [chain, file] of request.specs) {
    const node = await setupWithServer({ genesis: readSpec(file), host: '127.0.0.1', port: 0, 'build-block-mode': BuildBlockMode.Manual } as Parameters<typeof setupWithServer>[0]);
    started.push(node);
    endpoints[chain] = `ws://${node.addr}`;
  }
  const [relay, ...paras] = started.map((node) => node.chain);
  if (!relay) throw new Error('no relay chain');
  for (const para of paras) await connectVertical(relay, para);
  if (paras.length > 1) await connectParachains(paras);
  // A relay sends to a parachain it knows: without its head in Paras.Heads, XCM to it fails with SendFailure.
  const heads: [[number], string][] = [];
  for (const para of paras) {
    heads.push([[(await getParaId(para)).toNumber()], (await para.head.header).toHex()]);
  }
  if (heads.length > 0) await setStorage(relay, { Paras: { Heads: heads } });
  // HRMP channels between the parachains: connectParachains opens them only for a chain past
  // genesis (it reads LastHrmpMqcHeads, empty at block 0). An empty message from each sibling puts
  // the channel in the next block's validation data, which later blocks carry on.
  for (const para of paras) {
    for (const [[sibling]] of heads) if (sibling !== (await getParaId(para)).toNumber()) para.submitHorizontalMessages(sibling, []);
  }
  for (const node of started) for (let n = 0; n < request.warmBlocks; n++) await node.chain.newBlock();
  return { endpoints, close: async () => void (await Promise.all(started.map((node) => node.close()))) };
}

const request = JSON.parse(process.argv[2] ?? '{}') as NodeRequest;
start(request).then(
  ({ endpoints, close }) => {
    process.send?.({ endpoints });
    // The parent's end (or its exit) ends this process.
    process.on('disconnect', () => void close().finally(() => process.exit(0)));
  },
  (error: unknown) => {
    process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  },
);
