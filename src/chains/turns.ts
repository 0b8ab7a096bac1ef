// Turns of the event loop for long work, taken one at a time by the whole process. A long decode
// yields between slices and a large frame reaches its client a turn after it was checked; with a
// setImmediate each, every slice and frame waiting would run back to back in the same check phase
// (four hostile requests: four slices, or four 15 MB parses, before /health is read again). Here
// one waiter is let go per turn and the loop polls sockets between any two. Waiters queue per
// client (client-context.ts: whose work it is) and the clients take turns round-robin, so one
// client's many requests cost another client's request one slice of theirs per slice of its own,
// not a slice of each.
import { currentClient } from './client-context';

/** Each client's waiters in order; the Map's order is the round: the client let go moves to its end. */
const lanes = new Map<string, (() => void)[]>();
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(letOneGo);
}

function letOneGo(): void {
  scheduled = false;
  const first = lanes.entries().next();
  if (first.done) return;
  const [client, waiting] = first.value;
  const next = waiting.shift();
  lanes.delete(client);
  if (waiting.length > 0) lanes.set(client, waiting);
  if (lanes.size > 0) schedule();
  next?.();
}

/** Runs `work` in a later turn of the event loop, alone in its turn, after the work its client queued already and a turn of each other client waiting. */
export function inTurn(work: () => void): void {
  const client = currentClient();
  const waiting = lanes.get(client);
  if (waiting) waiting.push(work);
  else lanes.set(client, [work]);
  schedule();
}

/** Resolves in a later turn of the event loop, alone in its turn (inTurn's order). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => inTurn(resolve));
