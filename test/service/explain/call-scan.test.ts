// The scan of call data before it is decoded (src/service/explain/call-scan.ts, issue 42): it
// refuses what xcm-bounds.ts refuses after decoding, with the same 400 naming the same place, and
// call data that does not decode or holds too many values, without polkadot.js decoding anything.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Call } from '@polkadot/types/interfaces';
import { registryForChain } from '../../../src/sandbox/chain-data';
import { decodeCallData, hexBytes } from '../../../src/service/explain/call-decoder';
import { MAX_EXPLAIN_CALLS, MAX_EXPLAIN_VALUES } from '../../../src/service/explain/call-scan';
import { innerCalls } from '../../../src/service/explain/nested-calls';
import { checkMessageBounds } from '../../../src/service/explain/xcm-bounds';
import { callData, executeCall, hostileProgram, nestedReserveSends, unlistedAssets } from '../../support/hostile-programs';
import { CORPUS, onSandbox, SANDBOX } from '../../support/verdict-corpus';

const chains = { AssetHubPolkadot: registryForChain('AssetHubPolkadot'), Polkadot: registryForChain('Polkadot') };
const hub = chains.AssetHubPolkadot;

/** xcm-bounds.ts on the decoded call, each argument of each call (batches' and proxies' one by one) as /explain checked it before the scan. */
function checkDecoded(call: Call, where = '', totals = { instructions: 0, assets: 0 }): void {
  const name = `${where}${call.section}.${call.method}`;
  const inner = innerCalls(call);
  if (inner.length > 0) inner.forEach((c, i) => checkDecoded(c, `${name} call ${i + 1}: `, totals));
  else for (const [arg, value] of call.argsEntries) checkMessageBounds(value.toJSON(), value.encodedLength, `${name} ${arg}`, totals);
}

/** What the decoded call gets from xcm-bounds.ts: the error's kind and message, or 'ok'. */
function afterDecoding(registry: typeof hub, hex: string): string {
  try {
    checkDecoded(registry.createType<Call>('Call', hexBytes(hex)));
    return 'ok';
  } catch (error) {
    return verdict(error);
  }
}

const verdict = (error: unknown): string => `${(error as { kind?: string }).kind} ${(error as Error).message}`;

/** What decodeCallData (the scan, then polkadot.js) answers, and whether polkadot.js decoded anything meanwhile. */
function scanned(registry: typeof hub, hex: string): { verdict: string; decoded: boolean } {
  const createType = vi.spyOn(registry, 'createType');
  const createTypeUnsafe = vi.spyOn(registry, 'createTypeUnsafe');
  try {
    decodeCallData(registry, hexBytes(hex), true);
    return { verdict: 'ok', decoded: true };
  } catch (error) {
    // The scan makes one Option<Text> per variant name it first meets (its key in toJSON()); nothing else is created.
    const decodes = createType.mock.calls.filter(([type]) => type !== 'Option<Text>').length + createTypeUnsafe.mock.calls.length;
    return { verdict: verdict(error), decoded: decodes > 0 };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

const execute = (program: unknown[]) => executeCall(hub, program as Record<string, unknown>[]);
const batch = (calls: string[]) => callData(hub, 'Utility', 'batch_all', { calls });
const clearOrigins = (n: number) => execute(Array.from({ length: n }, () => ({ ClearOrigin: null })));
const transact = { Transact: { originKind: 'SovereignAccount', requireWeightAtMost: { refTime: 1, proofSize: 1 }, call: { encoded: `0x${'00'.repeat(12_500)}` } } };

const PAST_BOUNDS: [string, string][] = [
  ['the issue: 300 assets x 40 hops', execute([{ WithdrawAsset: unlistedAssets(300) }, ...nestedReserveSends(40)])],
  ['the issue: 1,500 assets x 120 hops', execute([{ WithdrawAsset: unlistedAssets(1_500) }, ...nestedReserveSends(120)])],
  ['programs nested 33 deep', execute(nestedReserveSends(33))],
  ['21 assets in a list', execute([{ WithdrawAsset: unlistedAssets(21) }])],
  ['101 instructions, nested ones counted', execute([...Array.from({ length: 95 }, () => ({ ClearOrigin: null })), ...nestedReserveSends(6)])],
  ['more than 64 assets into the holding', execute(hostileProgram(4, 20, 1))],
  ['50 lists of 20 assets x 7 hops', execute(hostileProgram(50, 20, 7))],
  ['a message of more than 12,402 bytes, in a batch', batch([clearOrigins(1), execute([transact])])],
  ['40 programs of 100 instructions in a batch', batch(Array.from({ length: 40 }, () => clearOrigins(100)))],
  ['30 programs of 60 assets in a batch', batch(Array.from({ length: 30 }, () => execute(hostileProgram(3, 20, 7))))],
  ['a list past 20 after a bound crossed in an argument before', callData(hub, 'PolkadotXcm', 'transfer_assets_using_type_and_then', {
    dest: { V4: { parents: 1, interior: 'Here' } },
    assets: { V4: unlistedAssets(21) },
    assets_transfer_type: 'LocalReserve',
    remote_fees_id: { V4: { parents: 1, interior: 'Here' } },
    fees_transfer_type: 'LocalReserve',
    custom_xcm_on_dest: { V4: Array.from({ length: 101 }, () => ({ ClearOrigin: null })) },
    weight_limit: 'Unlimited',
  })],
];

describe('call data past an XCM bound: the scan refuses it as xcm-bounds.ts does after decoding, before anything is decoded', () => {
  it.each(PAST_BOUNDS)('%s', (_, hex) => {
    const expected = afterDecoding(hub, hex);
    expect(expected).toMatch(/^XcmBoundsError /);
    expect(scanned(hub, hex)).toEqual({ verdict: expected, decoded: false });
  });

  it('wrapped in a whole unsigned extrinsic', () => {
    const [, hex] = PAST_BOUNDS[1]!;
    const extrinsic = hub.createType('Extrinsic', hub.createType('Call', hexBytes(hex))).toHex();
    expect(scanned(hub, extrinsic)).toEqual({ verdict: afterDecoding(hub, hex), decoded: false });
  });
});

describe('call data inside the bounds: the scan lets it through to be decoded', () => {
  it.each([
    ['60 assets x 7 hops', execute(hostileProgram(3, 20, 7))],
    ['32 nested programs', execute(nestedReserveSends(31))],
    ['20 assets in a list', execute([{ WithdrawAsset: unlistedAssets(20) }])],
    ['a batch of 40 sends', batch(Array.from({ length: 2 }, () => execute([{ WithdrawAsset: unlistedAssets(1) }, ...nestedReserveSends(20)])))],
  ])('%s', (_, hex) => {
    expect(afterDecoding(hub, hex)).toBe('ok');
    expect(scanned(hub, hex).verdict).toBe('ok');
  });

  it('every program of the verdict corpus the sandbox runs, on its chain: the same verdict', () => {
    const programs = CORPUS.filter(onSandbox);
    for (const program of programs) {
      const registry = chains[SANDBOX[program.origin] as keyof typeof chains];
      const pallet = registry.metadata.pallets.find((p) => ['XcmPallet', 'PolkadotXcm'].includes(p.name.toString()))!;
      const variants = registry.lookup.getSiType(pallet.calls.unwrap().type).def.asVariant.variants;
      const callIndex = [pallet.index.toNumber(), variants.map((v) => v.index.toNumber()).find((i) => registry.findMetaCall(new Uint8Array([pallet.index.toNumber(), i])).method === program.method)!];
      const fields = registry.findMetaCall(new Uint8Array(callIndex)).meta.fields;
      const hex = registry.createType('Call', { callIndex, args: Object.fromEntries(fields.map((f, i) => [f.name.unwrap().toString(), program.args[i]])) }).toHex();
      expect(scanned(registry, hex).verdict, program.name).toBe(afterDecoding(registry, hex));
    }
    expect(programs.length).toBeGreaterThan(20);
  });
});

describe('call data that does not decode, or holds too many values: a 400 after the scan alone', () => {
  it('a program nested 1,000 deep (2 kB; polkadot.js ran out of stack after 1.3 s of CPU): UndecodableCallError naming the argument', () => {
    const hex = `0x1f030404${'1604'.repeat(1_000)}0a02286bee821a0600`; // polkadotXcm.execute(V4 [SetAppendix([SetAppendix(... [ClearOrigin])])])
    expect(scanned(hub, hex)).toEqual({ verdict: expect.stringMatching(/^UndecodableCallError .* at byte 2: argument message of polkadotXcm\.execute: values nested more than 1024 deep/), decoded: false });
  });

  it('a list longer than the bytes left', () => {
    expect(scanned(hub, '0x1f030482b92a000a02286bee821a0600')).toEqual({ verdict: expect.stringMatching(/^UndecodableCallError .* at byte 2: argument message of polkadotXcm\.execute: a list of 700000 items runs past the end/), decoded: false });
  });

  it(`a batch of ${MAX_EXPLAIN_CALLS} remarks, ${MAX_EXPLAIN_CALLS + 1} calls: ExplanationTooLargeError (MAX_EXPLAIN_CALLS); one remark less is read`, () => {
    const remarks = (n: number) => callData(hub, 'Utility', 'batch', { calls: Array.from({ length: n }, () => callData(hub, 'System', 'remark', { remark: '0x' })) });
    expect(scanned(hub, remarks(MAX_EXPLAIN_CALLS - 1))).toEqual({ verdict: 'ok', decoded: true });
    expect(scanned(hub, remarks(MAX_EXPLAIN_CALLS))).toEqual({
      verdict: expect.stringMatching(/^ExplanationTooLargeError hex is too large to explain: it holds 129 calls .*more than the 128 an explanation reads \(MAX_EXPLAIN_CALLS\)/),
      decoded: false,
    });
  });

  it(`a set_storage of 1,400 items (more than MAX_EXPLAIN_VALUES, ${MAX_EXPLAIN_VALUES}): ExplanationTooLargeError`, () => {
    expect(scanned(hub, callData(hub, 'System', 'set_storage', { items: Array.from({ length: 1_400 }, () => ['0x', '0x']) }))).toEqual({
      verdict: expect.stringMatching(/^ExplanationTooLargeError hex is too large to explain: it holds 4202 values .*more than the 3072 an explanation reads \(MAX_EXPLAIN_VALUES\)/),
      decoded: false,
    });
  });
});
