// Turns of the event loop for long work, taken one at a time by the whole process. A long decode
// yields between slices and a large frame reaches its client a turn after it was checked; with a
// setImmediate each, every slice and frame waiting would run back to back in the same check phase
// (four hostile requests: four slices, or four 15 MB parses, before /health is read again). Here
// one waiter is let go per turn, in order, and the loop polls sockets between any two.

const waiting: (() => void)[] = [];
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(letOneGo);
}

function letOneGo(): void {
  scheduled = false;
  const next = waiting.shift();
  if (waiting.length > 0) schedule();
  next?.();
}

/** Runs `work` in a later turn of the event loop, after the work already waiting, alone in its turn. */
export function inTurn(work: () => void): void {
  waiting.push(work);
  schedule();
}

/** Resolves in a later turn of the event loop, after those already waiting, alone in its turn. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => inTurn(resolve));
