// Patch: sdk-core makes its table of chain objects once, not on every getChain().
//
// Corrects: sdk-core 11.14.8's `getChain(chain)` calls `chains()`, which constructs all of its
// ~140 chain objects (Babel classes, each through Reflect.construct) to return one of them; a
// transfer calls it many times (validation, version, ecosystem, and `getTChain` once per chain of
// the registry). Profiled: 16% of the CPU of POST /x-transfer AssetHubPolkadot -> Hydration USDt,
// 5% of the teleport. The objects hold only what their constructor sets (name, info, ecosystem,
// XCM version), so one table serves every call (patches of their prototypes apply to it alike).
//
// Still needed? Read sdk-core's `getChain` in dist/index.cjs: when it no longer calls `chains()`
// per call (or caches its table), the patch can go. The rewrite fails start-up when the text it
// replaces is not there, so an SDK upgrade cannot skip it silently.
//
// Guarded by: test/sdk/chain-instances-once.test.ts "the SDK hands out one object per chain".
import Module from 'node:module';

const ORIGINAL = 'var getChain = function getChain(chain) {\n  var map = chains();\n  return map[chain];\n};';
// As many lines as the original: the SDK's stack traces keep their line numbers.
const ONCE = 'var chainTable, getChain = function getChain(chain) {\n  var map = chainTable || (chainTable = chains());\n  return map[chain];\n};';

type Compile = (this: unknown, content: string, filename: string, ...rest: unknown[]) => unknown;

/** Loads the SDK (`load(id)`) with sdk-core's getChain rewritten as it is compiled. */
export function loadWithChainInstancesOnce<T>(load: NodeJS.Require, id: string): T {
  const sdkCore = Module.createRequire(load.resolve('@paraspell/sdk-pjs')).resolve('@paraspell/sdk-core');
  // Loaded already (a second evaluation of load.ts in one process, as under vitest): rewritten then.
  if (load.cache[sdkCore]) return load(id) as T;
  const proto = Module.prototype as unknown as { _compile: Compile };
  const compile = proto._compile;
  let rewritten = false;
  proto._compile = function (content, filename, ...rest) {
    if (filename === sdkCore) {
      if (!content.includes(ORIGINAL)) throw new Error(`sdk-core's getChain is not the one patches/chain-instances-once.ts rewrites (${sdkCore})`);
      content = content.replace(ORIGINAL, ONCE);
      rewritten = true;
    }
    return compile.call(this, content, filename, ...rest);
  };
  let loaded: T;
  try {
    loaded = load(id) as T;
  } finally {
    proto._compile = compile;
  }
  if (!rewritten) throw new Error(`patches/chain-instances-once.ts: loading ${id} did not compile ${sdkCore}`);
  return loaded;
}
