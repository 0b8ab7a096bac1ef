// Patch: Hydration's Omnipool math gets the max slip fee argument its trade router leaves out.
//
// Corrects: @galacticcouncil/sdk 10.6.1 (under xcm-router 11.14.8's HydrationDex) depends on
// @galacticcouncil/math-omnipool ^1.3.0, and the install resolves 1.4.0, whose four trade
// functions take one argument more (`max_slip_fee`). The SDK's calls leave it undefined and the
// wasm binding throws reading its length: every Omnipool quote, so every HydrationDex swap over
// the Omnipool, was a 500. A missing max slip fee is passed as "0": no slip fee, the 1.3.0 math.
//
// Still needed? While @galacticcouncil/sdk calls calculate_out_given_in (and the other three)
// with 9 (or 5) arguments against a math-omnipool that takes 10 (or 6); or pin math-omnipool to
// 1.3.x. Remove it and run the guard test.
//
// Guarded by: test/sandbox/openapi-examples.test.ts "POST /v5/router (example) answers its
// success ...", "POST /v5/x-transfers (example) ...".
import { createRequire } from 'node:module';

type MathFn = (...args: string[]) => string;

const load = createRequire(__filename);
/** Each trade function and the number of arguments it takes with `max_slip_fee`, its last. */
const ARITY: Record<string, number> = { calculate_out_given_in: 10, calculate_in_given_out: 10, calculate_out_given_lrna_in: 6, calculate_lrna_in_given_out: 6 };

export function passOmnipoolMaxSlipFee(): void {
  const math = load('@galacticcouncil/math-omnipool') as Record<string, MathFn>;
  for (const [name, arity] of Object.entries(ARITY)) {
    const original = math[name];
    // An older math (1.3) has no such argument: nothing to pass.
    if (!original || original.length !== arity) continue;
    math[name] = (...args: string[]) => original(...args, ...(args.length === arity - 1 ? ['0'] : []));
  }
}
