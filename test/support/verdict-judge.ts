// What a runtime does with a program of the verdict corpus (verdict-corpus.ts), asked through
// its DryRunApi as a wallet would: dry_run_call of the call on the origin, signed by Alice, then
// dry_run_xcm of each message it forwards on the chain it goes to. Delivered means every hop
// completes, nothing is trapped, and Bob's account receives something where the message ends.
// The same questions are put to the real runtimes (chopsticks) and to the sandbox's nodes.
import type { ApiPromise } from '@polkadot/api';
import type { Codec } from '@polkadot/types/types';
import request from 'supertest';
import { expect } from 'vitest';
import { ALICE, BOB, type Failure, type Role, type VerdictProgram } from './verdict-corpus';

/** The runtime's answer; `at` is null where it names no instruction (Incomplete carries no index in these runtimes). */
export type Judged = { delivered: true } | { delivered: false; failure: Omit<Failure, 'at'> & { at: string | null } };

/** Whether the runtime's answer is the corpus's expected one (the instruction compared where the runtime names it). */
export function sameOutcome(got: Judged, expected: VerdictProgram['expect']): boolean {
  if (got.delivered || expected.delivered) return got.delivered === expected.delivered;
  const [a, b] = [got.failure, expected.failure];
  return a.hop === b.hop && a.error === b.error && (a.at === null || a.at === b.at);
}

const PARA: Record<Role, number | null> = { relay: null, hub: 1000, people: 1004 };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const variant = (v: unknown): [string, unknown] | null => (isObject(v) && Object.keys(v).length === 1 ? (Object.entries(v)[0] as [string, unknown]) : typeof v === 'string' ? [v, null] : null);
const named = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `to`'s location as `from` writes it. */
function seen(from: Role, to: Role): Json {
  const para = PARA[to];
  if (from === 'relay') return { parents: 0, interior: { X1: [{ Parachain: para }] } };
  return para === null ? { parents: 1, interior: 'Here' } : { parents: 1, interior: { X1: [{ Parachain: para }] } };
}

/** The role a forwarded message's destination (as `from` writes it) names. */
function roleAt(from: Role, dest: unknown): Role | null {
  const loc = variant(dest)?.[1] as { parents?: unknown; interior?: unknown } | undefined;
  const interior = JSON.stringify(loc?.interior ?? '').toLowerCase().replace('{"here":null}', '"here"');
  const parents = Number(loc?.parents ?? -1);
  const para = /"parachain":(\d+)/.exec(interior)?.[1];
  if (from !== 'relay' && parents === 1 && interior === '"here"') return 'relay';
  const expected = from === 'relay' ? 0 : 1;
  if (parents !== expected || !para) return null;
  return (Object.keys(PARA) as Role[]).find((r) => PARA[r] === Number(para)) ?? null;
}

/** The instruction names of a versioned program (toJSON spelling). */
const namesOf = (program: unknown): string[] => {
  const list = variant(program)?.[1];
  return Array.isArray(list) ? list.map((i) => named(variant(i)?.[0] ?? '?')) : [];
};

/** The error of a dispatch result, by name; for pallet-xcm's incomplete local execution also its instruction's index and the XCM error. */
function dispatchError(api: ApiPromise, error: Codec): { name: string; index?: number; xcm?: string } {
  const json = error.toJSON() as Json;
  const module = isObject(json.module) ? json.module : null;
  if (!module) return { name: Object.keys(json)[0] ?? 'Unknown' };
  const meta = api.registry.findMetaError({ index: api.createType('u8', module.index), error: api.createType('[u8;4]', module.error) });
  const bytes = api.createType('[u8;4]', module.error).toU8a();
  if (meta.name === 'LocalExecutionIncompleteWithError') {
    // { index: u8, error: ExecutionError (XCM's errors as an enum) }: the variant's bytes follow the pallet's error index.
    const def = api.registry.lookup.getSiType(meta.fields[1]!.type).def;
    const name = def.isVariant ? def.asVariant.variants.find((v) => v.index.toNumber() === bytes[2])?.name.toString() : undefined;
    return { name: meta.name, index: bytes[1], xcm: name ?? 'Unknown' };
  }
  return { name: meta.name };
}

/** Runs `program` on the chains `apis` holds (its origin's and each of its path's). */
export async function judge(apis: Partial<Record<Role, ApiPromise>>, program: VerdictProgram): Promise<Judged> {
  const api = apis[program.origin]!;
  const pallet = api.tx.xcmPallet ?? api.tx.polkadotXcm;
  const fail = (hop: number, at: string | null, error: string): Judged => ({ delivered: false, failure: { hop, at, error } });
  let result: Codec;
  try {
    const call = pallet![program.method]!(...program.args);
    const args: unknown[] = [{ system: { Signed: ALICE } }, call];
    if ((api.call.dryRunApi!.dryRunCall as unknown as { meta: { params: unknown[] } }).meta.params.length > 2) args.push(5);
    result = await api.call.dryRunApi!.dryRunCall!(...args);
  } catch {
    return fail(0, program.method, 'decode');
  }
  const answer = result.toJSON() as Json;
  if (!isObject(answer.ok)) return fail(0, program.method, 'decode');
  const effects = (result as unknown as { asOk: { executionResult: { isErr: boolean; asErr: { error: Codec } }; forwardedXcms: Codec } }).asOk;
  if (effects.executionResult.isErr) {
    const error = dispatchError(api, effects.executionResult.asErr.error);
    if (error.index !== undefined && program.method === 'execute') return fail(0, namesOf(program.args[0])[error.index] ?? 'execute', error.xcm!);
    return fail(0, program.method, error.name);
  }
  let from = program.origin;
  let forwarded = (effects.forwardedXcms.toJSON() as Array<[unknown, unknown[]]>) ?? [];
  for (let hop = 1; forwarded.length > 0; hop++) {
    const [dest, messages] = forwarded[0]!;
    const to = roleAt(from, dest);
    const target = to ? apis[to] : undefined;
    if (!to || !target || !messages[0]) return fail(hop, 'send', `no chain at ${JSON.stringify(dest)}`);
    const ran = await target.call.dryRunApi!.dryRunXcm!({ V5: seen(to, from) }, messages[0]);
    const outcome = ((ran.toJSON() as Json).ok ?? {}) as Json;
    const executed = variant(outcome.executionResult);
    const names = namesOf(messages[0]);
    if (executed?.[0] !== 'complete') {
      const detail = (isObject(executed?.[1]) ? executed![1] : {}) as Json;
      const error = (isObject(detail.error) ? detail.error : detail) as Json;
      const indexed = 'index' in error;
      const xcm = named(String(variant(indexed ? error.error : error)?.[0] ?? 'Unknown'));
      if (xcm === 'Barrier' || executed?.[0] === 'error') return fail(hop, 'barrier', xcm);
      return fail(hop, indexed ? (names[Number(error.index)] ?? null) : null, xcm);
    }
    const events = (outcome.emittedEvents as Array<{ data?: unknown }> | undefined) ?? [];
    const human = JSON.stringify((ran as unknown as { asOk: { emittedEvents: Codec } }).asOk.emittedEvents.toHuman());
    if (/AssetsTrapped/.test(human)) return fail(hop, 'DepositAsset', 'AssetsTrapped');
    from = to;
    forwarded = (outcome.forwardedXcms as Array<[unknown, unknown[]]>) ?? [];
    if (forwarded.length === 0) {
      const bob = [BOB, target.createType('AccountId32', BOB).toString()];
      const reached = events.length > 0 && bob.some((b) => human.includes(b) || JSON.stringify(events).includes(b));
      if (!reached) return fail(hop, 'DepositAsset', 'NotDeposited');
    }
  }
  return { delivered: true };
}


/** A route as /explain answers it: each hop's chain, whether it is ok, its problems and warnings. */
export interface RouteView {
  chain: string;
  ok: boolean;
  problems: Array<{ at: string; message: string }>;
  warnings: Array<{ at: string; message: string }>;
}

/**
 * Whether `route` says what the runtime did: every hop ok when it delivers; otherwise the hop
 * where it stopped is not ok, with a problem at that instruction (`barrier`: the barrier's).
 */
export function routeAgrees(route: RouteView[], expected: VerdictProgram['expect']): boolean {
  if (expected.delivered) return route.length > 0 && route.every((h) => h.ok);
  const { hop, at } = expected.failure;
  const there = route[hop];
  return there !== undefined && !there.ok && route.slice(0, hop).every((h) => h.ok) && there.problems.some((p) => p.at === at || p.at.startsWith(`${at}.`));
}

/**
 * What both corpus tests assert of one program: the chains in `apis` do with it what the corpus
 * records, and /explain (of `app`, pointed at those chains, named by `names`) says the same.
 */
export async function expectVerdict(apis: Partial<Record<Role, ApiPromise>>, names: Partial<Record<Role, string>>, app: Parameters<typeof request>[0], program: VerdictProgram): Promise<void> {
  const api = apis[program.origin]!;
  const pallet = api.tx.xcmPallet ?? api.tx.polkadotXcm;
  const hex = pallet![program.method]!(...program.args).method.toHex();
  const outcome = await judge(apis, program);
  expect(sameOutcome(outcome, program.expect), `the chains: ${JSON.stringify(outcome)}`).toBe(true);
  const res = await request(app).post('/v5/explain').send({ chain: names[program.origin], hex });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(routeAgrees(res.body.route as RouteView[], program.expect), `route: ${JSON.stringify(res.body.route)}`).toBe(true);
}
