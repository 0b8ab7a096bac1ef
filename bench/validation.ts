// Validation cost of hostile bodies at the body limit (issue 9): for each body, the median CPU
// time of 7 parses (what one request's validation holds the event loop for), the first parse in
// this process, and the size of the error answer.
// Rule: under 50 ms and under 16 kB each. In-process, no chain, no HTTP.
import type { z } from 'zod';
import { ApiError } from '../src/errors';
import { batchBody } from '../src/schemas/batch';
import { currencyBody } from '../src/schemas/lookups';
import { parseInput } from '../src/schemas/parse';
import { preflightSchemas } from '../src/schemas/preflight';
import { routerBody } from '../src/schemas/router';
import { transferBody } from '../src/schemas/transfer';

const LIMIT = 100 * 1024;
const ALICE = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';

/** As many copies of `item` as fit the body limit inside `wrap`, at most `max`. */
function fill(wrap: (items: string) => string, item: string, max = Infinity): string {
  const count = Math.min(max, Math.floor((LIMIT - wrap('').length) / (item.length + 1)));
  return wrap(Array.from({ length: count }, () => item).join(','));
}

const transfer = (amount = '"1"', currency = `{"symbol":"DOT","amount":${amount}}`) => `{"from":"Polkadot","to":"AssetHubPolkadot","currency":${currency},"address":"${ALICE}"}`;
const unknownLocation = (i: number) => `{"location":{"parents":1,"interior":{"X2":[{"Parachain":${i}},{"GeneralIndex":${i}}]}},"amount":"100000000000000000000"}`;

const manyLocations = transfer('', `[${Array.from({ length: 8 }, (_, i) => unknownLocation(i)).join(',')}]`);

const CASES: { name: string; schema: z.ZodTypeAny; text: string }[] = [
  { name: 'batch: 100 empty transfers, unknown apiOverrides keys', schema: batchBody('v5'), text: fill((k) => `{"transfers":[${Array(100).fill('{}').join(',')}],"options":{"apiOverrides":{${k}}}}`, '"Chain0000":"ws://a"') },
  { name: 'batch: 32 unknown chains in apiOverrides, 100 transfers', schema: batchBody('v5'), text: `{"transfers":[${Array(100).fill(transfer()).join(',')}],"options":{"apiOverrides":{${Array.from({ length: 32 }, (_, i) => `"${'Polkadat'.repeat(8)}${i}":"ws://a"`).join(',')}}}}` },
  { name: 'batch: 20,000 empty transfers', schema: batchBody('v5'), text: fill((t) => `{"transfers":[${t}]}`, '{}') },
  { name: 'batch: 8 unknown locations per transfer, huge amounts, abstract decimals', schema: batchBody('v5'), text: fill((t) => `{"transfers":[${t}],"options":{"abstractDecimals":true}}`, manyLocations, 100) },
  { name: 'batch: 8 unknown locations per transfer, base units', schema: batchBody('v5'), text: fill((t) => `{"transfers":[${t}]}`, manyLocations, 100) },
  { name: 'transfer: 4,000 currencies', schema: transferBody('v5', { senderRequired: false }), text: fill((c) => transfer('', `[${c}]`), '{"symbol":"DOT","amount":"1"}') },
  { name: 'transfer: 30,000 nested arrays in to', schema: transferBody('v5', { senderRequired: false }), text: `{"from":"Polkadot","to":{"parents":1,"interior":{"X1":${'['.repeat(30_000)}${']'.repeat(30_000)}}},"currency":{"symbol":"DOT","amount":"1"},"address":"${ALICE}"}` },
  { name: 'transfer: 5,000 junctions in to', schema: transferBody('v5', { senderRequired: false }), text: fill((j) => `{"from":"Polkadot","to":{"parents":1,"interior":{"X1":[${j}]}},"currency":{"symbol":"DOT","amount":"1"},"address":"${ALICE}"}`, '{"Parachain":1000}') },
  { name: 'transfer: 100 kB unknown chain name', schema: transferBody('v5', { senderRequired: false }), text: `{"from":"${'Polkadat'.repeat(12_000)}","to":"AssetHubPolkadot","currency":{"symbol":"DOT","amount":"1"},"address":"${ALICE}"}` },
  { name: 'transfer: 100 kB address', schema: transferBody('v5', { senderRequired: false }), text: `{"from":"Polkadot","to":"AssetHubPolkadot","currency":{"symbol":"DOT","amount":"1"},"address":"5${'G'.repeat(100_000)}"}` },
  { name: 'transfer: 100 kB amount of digits', schema: transferBody('v5', { senderRequired: false }), text: transfer(`"${'9'.repeat(100_000)}"`) },
  { name: 'transfer: 6,000 unknown top-level keys', schema: transferBody('v5', { senderRequired: false }), text: fill((k) => `{${k}}`, '"key00000":1') },
  { name: 'pre-flight: 4,000 apiOverrides URLs for one chain', schema: preflightSchemas('v5').transferInfo, text: fill((u) => `{"from":"Polkadot","to":"AssetHubPolkadot","currency":{"symbol":"DOT","amount":"1"},"address":"${ALICE}","senderAddress":"${ALICE}","options":{"apiOverrides":{"Polkadot":[${u}]}}}`, '"ws://127.0.0.1:1"') },
  { name: 'lookup: 30,000 nested objects in a location', schema: currencyBody, text: `{"currency":{"location":{"parents":1,"interior":{"X1":${'{"a":'.repeat(15_000)}1${'}'.repeat(15_000)}}}}}` },
  { name: 'router: 6,000 exchanges', schema: routerBody('v5', 'build'), text: fill((e) => `{"from":"Polkadot","to":"Astar","exchange":[${e}],"currencyFrom":{"symbol":"DOT"},"currencyTo":{"symbol":"ASTR"},"amount":"1","slippagePct":"1","recipientAddress":"${ALICE}","senderAddress":"${ALICE}"}`, '"NopeDex"') },
];

/**
 * CPU time, not wall time: on a shared machine the wall clock also counts other processes, while
 * the CPU time of a synchronous parse is what it holds the event loop for on an idle core.
 */
function measure(schema: z.ZodTypeAny, body: unknown): { ms: number; answer: number } {
  const start = process.cpuUsage();
  let answer = 0;
  try {
    parseInput(schema, body, 'body');
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    answer = JSON.stringify({ message: error.message, details: error.details }).length;
  }
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, answer };
}

const selected = CASES.filter((k) => !process.env.ONLY || k.name.includes(process.env.ONLY));
const bodies = selected.map((c) => {
  if (c.text.length > LIMIT) throw new Error(`${c.name}: the body is over the limit`);
  return JSON.parse(c.text) as unknown;
});
// One round first: the first parses of a fresh process include compiling the schemas' code.
const cold = selected.map((c, i) => measure(c.schema, bodies[i]).ms);
selected.forEach((c, i) => {
  const runs = Array.from({ length: 7 }, () => measure(c.schema, bodies[i]));
  const median = runs.map((r) => r.ms).sort((a, b) => a - b)[3];
  console.log(
    `${c.name.padEnd(80)} ${(c.text.length / 1024).toFixed(0).padStart(4)} kB body  ${median.toFixed(1).padStart(6)} ms (first ${cold[i].toFixed(1).padStart(6)} ms)  ${runs[0].answer.toString().padStart(6)} B answer`,
  );
});
