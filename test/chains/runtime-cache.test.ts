// A runtime decoded from a node's answers (src/chains/runtime-cache.ts, over a local Asset Hub test
// chain's real metadata) is decoded in pieces, one a turn of the event loop (src/chains/turns.ts):
// another client's work gets turns between the pieces, after the metadata answer too, and a timer
// set going with the decode fires before it ends. The runtime decoded is kept and reads as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asClient } from '../../src/chains/client-context';
import { RuntimeCache } from '../../src/chains/runtime-cache';
import { nextTurn } from '../../src/chains/turns';
import { askMetadata, askRuntime, NodeAnswers, polkadotApi } from '../../src/sdk';
import { startTestChain, type TestChain } from '../support/test-chain';

const isMetadataCall = (method: string, params: unknown[]): boolean => method === 'state_getMetadata' || (method === 'state_call' && params[0] === 'Metadata_metadata_at_version');

let chain: TestChain;
let provider: InstanceType<typeof polkadotApi.WsProvider>;

beforeAll(async () => {
  chain = await startTestChain('AssetHubPolkadot');
  provider = new polkadotApi.WsProvider(chain.url, false);
  await provider.connect();
  await provider.isReady;
});

afterAll(async () => {
  await provider?.disconnect();
  await chain?.close();
});

describe('RuntimeCache', () => {
  it('another client\'s work gets turns while a runtime is decoded, after the metadata answer too; a timer set going with the decode fires before it ends', async () => {
    const send = (method: string, params: unknown[]): Promise<unknown> => provider.send(method, params);
    const answers = new NodeAnswers(send);
    const runtime = await askRuntime(answers);
    await askMetadata(answers, runtime!.apis);

    let decoding = true;
    let otherTurns = 0;
    let otherTurnsAtMetadata: number | undefined;
    const answer = answers.answer.bind(answers);
    answers.answer = (method, params) => {
      if (isMetadataCall(method, params)) otherTurnsAtMetadata ??= otherTurns;
      return answer(method, params);
    };
    let timerFired = false;
    const cache = new RuntimeCache();
    const decoded = asClient('mallory', () => cache.runtimeFor(answers, send)).then((result) => {
      decoding = false;
      return { ...result, timerFired, otherTurns };
    });
    setTimeout(() => (timerFired = true), 0);
    const other = asClient('alice', async () => {
      while (decoding) {
        await nextTurn();
        if (decoding) otherTurns++;
      }
    });
    const [result] = await Promise.all([decoded, other]);

    expect(result.timerFired).toBe(true);
    expect(otherTurnsAtMetadata).toBeDefined();
    // One turn between each two pieces after the metadata answer: its decode, its latest form, the registry, the type check, the decoration.
    expect(result.otherTurns - otherTurnsAtMetadata!).toBeGreaterThanOrEqual(4);
    expect(result.decoded).toBe(true);
    expect(result.api.runtimeVersion.specName.toString()).toBe(chain.runtimeVersion.specName);
    expect(result.api.tx.polkadotXcm?.limitedTeleportAssets).toBeTypeOf('function');
    expect((await cache.runtimeFor(answers, send)).decoded).toBe(false);
    cache.clear();
  });
});
