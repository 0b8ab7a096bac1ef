// The bytes of an ended watch's record (`{ watch, progress, deliveries }` as JSON), counted against
// WATCH_RETAIN_BYTES_PER_CLIENT, without serializing its status answer again: that answer's JSON is
// already in the body of the event that ended the watch (recorder.ts records the final or timeout
// event and the ended progress in one advance, the event's `data` being that progress's status).
import type { Delivery, Watch, WatchEvent, WatchProgress } from './model';

/**
 * A delivery's JSON past its strings' own: its keys, quotes and commas (86), the longest state (9),
 * a code (3), two epoch-ms times (13 each) and an attempt count (at most 6 digits): 130 at most.
 */
const DELIVERY_BYTES = 130;
/** `{"watch":,"progress":{"status":,"ended":"timeout","events":},"deliveries":[]}` and an event count's digits. */
const RECORD_BYTES = 90;

/** The JSON bytes of `value` as a string: quotes, escapes and UTF-8 included. */
const stringBytes = (value: string): number => Buffer.byteLength(JSON.stringify(value));

/**
 * The bytes of an ended progress's status answer, given the events recorded with it: the last one's
 * body is `{"type":…,"timestamp":…,"data":<that answer>}`, so its bytes bound the answer's from
 * above by the type and timestamp (about 70 bytes). Measured when no event came with the end.
 */
export function statusBytesOf(progress: WatchProgress, events: readonly WatchEvent[]): number {
  const ending = events.at(-1);
  return Buffer.byteLength(ending ? ending.body : JSON.stringify(progress.status));
}

/**
 * An upper bound of the record's JSON bytes, given its status answer's (`statusBytes`): the watch is
 * measured (small: its request and webhook), each delivery by its strings and a fixed overhead that
 * covers the rest of it. Over the exact size by about a hundred bytes a record and a few a delivery.
 */
export function recordBytes(watch: Watch, statusBytes: number, deliveries: readonly Delivery[]): number {
  let bytes = RECORD_BYTES + Buffer.byteLength(JSON.stringify(watch)) + statusBytes;
  for (const d of deliveries) {
    bytes += DELIVERY_BYTES + stringBytes(d.eventId) + stringBytes(d.type) + (d.lastError === undefined ? 0 : stringBytes(d.lastError));
  }
  return bytes;
}
