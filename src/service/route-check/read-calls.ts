// Call data read once per runtime. What the walk reads of call data (its section, method and
// arguments as polkadot.js's toJSON spells them) is a pure function of the bytes and the metadata
// they are decoded with: the same bytes under the same metadata are not read again. New bytes are
// read straight into that view (call-reader.ts, the readers kept here per metadata), and only what
// it declines is decoded by polkadot.js (its codecs and their toJSON were about three quarters of
// a check, profiled). The same bytes come back: a build template learns a shape by reading the
// call the SDK built, then the check reads it again; a route the SDK builds afresh each time (a
// bridge, a router's hop) gives the same bytes for the same request. Kept per registry and per
// the metadata it holds: polkadot.js keeps a connection's registry across a runtime upgrade and
// gives it the new metadata (setMetadata), so a registry with other metadata starts afresh. Bytes
// read once wait in a short list of recent reads and are kept longer only when read again: views
// kept for bytes that never come back (a new amount each request) survived young-generation
// collections and made the check of new bytes dearer (bench/route-check.ts, p99). Batches and
// proxies (calls inside a call) are walked from the decoded call and not kept. A view is shared by
// every reader of the same bytes: the walk only reads it (as it reads a build template's views).
// Freezing it to make sure tripled the check of new bytes (bench/route-check.ts, CPU p50 0.07 -> 0.20 ms on the teleport).
import type { Call } from '@polkadot/types/interfaces';
import type { Registry } from '@polkadot/types/types';
import { LRUCache } from 'lru-cache';
import { CallReader } from './call-reader';
import { viewOf, type CallView } from './walker';

/** Calls kept per runtime once read twice; a gateway builds a few shapes over a few assets, to a few recipients. */
export const READ_CALLS_PER_RUNTIME = 512;
/** Calls read once kept per runtime: enough for a template's learning read and the check after it. */
const RECENT_READS = 16;
/** Call data (hex characters) kept per runtime, and the longest kept: a view holds several times its bytes. */
const MAX_HEX_CHARS = 2_000_000;
const MAX_ENTRY_HEX_CHARS = 32_768;

interface RuntimeReadings {
  readonly metadata: unknown;
  /** Reads call data straight from its bytes with this metadata (call-reader.ts). */
  readonly reader: CallReader;
  /** Read once, most recent last. */
  readonly recent: LRUCache<string, CallView>;
  /** Read more than once. */
  readonly views: LRUCache<string, CallView>;
}

const byRegistry = new WeakMap<Registry, RuntimeReadings>();

function readingsOf(registry: Registry): RuntimeReadings {
  const metadata = registry.metadata as unknown;
  const kept = byRegistry.get(registry);
  if (kept && kept.metadata === metadata) return kept;
  const readings: RuntimeReadings = { metadata, reader: new CallReader(registry), recent: new LRUCache<string, CallView>({ max: RECENT_READS, maxEntrySize: MAX_ENTRY_HEX_CHARS, sizeCalculation: (_view, hex) => hex.length, maxSize: RECENT_READS * MAX_ENTRY_HEX_CHARS }), views: new LRUCache<string, CallView>({ max: READ_CALLS_PER_RUNTIME, maxSize: MAX_HEX_CHARS, maxEntrySize: MAX_ENTRY_HEX_CHARS, sizeCalculation: (_view, hex) => hex.length }) };
  byRegistry.set(registry, readings);
  return readings;
}

const hasCallsInside = (call: Call): boolean => call.section === 'utility' || call.section === 'proxy';

/**
 * Call data `hex` as `registry` (the origin's metadata) decodes it: its view, read once per bytes
 * and runtime, or for a batch or a proxy the decoded call itself (decoded at each ask).
 */
export function readOnce(registry: Registry, hex: string): { view: CallView } | { call: Call } {
  const { reader, recent, views } = readingsOf(registry);
  const kept = views.get(hex);
  if (kept) return { view: kept };
  const again = recent.get(hex);
  if (again) {
    recent.delete(hex);
    views.set(hex, again);
    return { view: again };
  }
  const read = reader.view(hex);
  if (read) {
    recent.set(hex, read);
    return { view: read };
  }
  const call = registry.createType<Call>('Call', hex);
  if (hasCallsInside(call)) return { call };
  const view = viewOf(call);
  recent.set(hex, view);
  return { view };
}
