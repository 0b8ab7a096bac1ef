// Call data read once per runtime. What the walk reads of call data (its section, method and
// arguments as polkadot.js's toJSON spells them) is a pure function of the bytes and the metadata
// they are decoded with: the same bytes under the same metadata are not decoded again. Decoding is
// most of a check's CPU (polkadot.js's codecs and their toJSON: about two thirds of it, profiled),
// and the same bytes come back: a build template learns a shape by reading the call the SDK built,
// then the check reads it again; a route the SDK builds afresh each time (a bridge, a router's
// hop) gives the same bytes for the same request. Kept per registry and per the metadata it holds:
// polkadot.js keeps a connection's registry across a runtime upgrade and gives it the new
// metadata (setMetadata), so a registry with other metadata starts afresh. Batches and proxies
// (calls inside a call) are walked from the decoded call and not kept.
import type { Call } from '@polkadot/types/interfaces';
import type { Registry } from '@polkadot/types/types';
import { LRUCache } from 'lru-cache';
import { viewOf, type CallView } from './walker';

/** Calls kept per runtime; a gateway builds a few shapes over a few assets, to a few recipients. */
export const READ_CALLS_PER_RUNTIME = 512;
/** Call data (hex characters) kept per runtime, and the longest kept: a view holds several times its bytes. */
const MAX_HEX_CHARS = 2_000_000;
const MAX_ENTRY_HEX_CHARS = 32_768;

interface RuntimeReadings {
  readonly metadata: unknown;
  readonly views: LRUCache<string, CallView>;
}

const byRegistry = new WeakMap<Registry, RuntimeReadings>();

function readingsOf(registry: Registry): RuntimeReadings {
  const metadata = registry.metadata as unknown;
  const kept = byRegistry.get(registry);
  if (kept && kept.metadata === metadata) return kept;
  const readings: RuntimeReadings = { metadata, views: new LRUCache<string, CallView>({ max: READ_CALLS_PER_RUNTIME, maxSize: MAX_HEX_CHARS, maxEntrySize: MAX_ENTRY_HEX_CHARS, sizeCalculation: (_view, hex) => hex.length }) };
  byRegistry.set(registry, readings);
  return readings;
}

/** A view shared by every reader of the same bytes: frozen, so a walk that wrote into it would fail loudly rather than change the next one. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

const hasCallsInside = (call: Call): boolean => call.section === 'utility' || call.section === 'proxy';

/**
 * Call data `hex` as `registry` (the origin's metadata) decodes it: its view, read once per bytes
 * and runtime, or for a batch or a proxy the decoded call itself (decoded at each ask).
 */
export function readOnce(registry: Registry, hex: string): { view: CallView } | { call: Call } {
  const { views } = readingsOf(registry);
  const kept = views.get(hex);
  if (kept) return { view: kept };
  const call = registry.createType<Call>('Call', hex);
  if (hasCallsInside(call)) return { call };
  const view = frozen(viewOf(call));
  views.set(hex, view);
  return { view };
}
