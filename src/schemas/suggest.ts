/** Names longer than this are compared by their first characters only: no valid name is longer. */
const MAX_COMPARED = 32;

/** Two rows of the distance table, grown to the longest name compared, reused by every comparison. */
let prev = new Int32Array(64);
let cur = new Int32Array(64);

/** Levenshtein distance between two lower-cased strings: used to suggest the names a caller probably meant. */
function distance(s: string, t: string): number {
  if (t.length + 1 > prev.length) {
    prev = new Int32Array(2 * (t.length + 1));
    cur = new Int32Array(2 * (t.length + 1));
  }
  for (let j = 0; j <= t.length; j++) prev[j] = j;
  for (let i = 1; i <= s.length; i++) {
    const c = s.charCodeAt(i - 1);
    cur[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const substitute = prev[j - 1] + (c === t.charCodeAt(j - 1) ? 0 : 1);
      const remove = prev[j] + 1;
      const insert = cur[j - 1] + 1;
      cur[j] = substitute < remove ? (substitute < insert ? substitute : insert) : remove < insert ? remove : insert;
    }
    const row = prev;
    prev = cur;
    cur = row;
  }
  return prev[t.length];
}

/** Each list's names lower-cased once. */
const lowerCased = new WeakMap<readonly string[], string[]>();

function rank(input: string, names: readonly string[], count: number): string[] {
  const needle = input.slice(0, MAX_COMPARED).toLowerCase();
  let lower = lowerCased.get(names);
  if (!lower) lowerCased.set(names, (lower = names.map((name) => name.toLowerCase())));
  return lower
    .map((name, i) => {
      const bonus = needle.length > 0 && name.includes(needle) ? -100 : 0;
      return { name: names[i], score: distance(needle, name) + bonus };
    })
    .sort((a, b) => a.score - b.score)
    .slice(0, count)
    .map((e) => e.name);
}

// A body may repeat one wrong name many times (a key in every transfer of a batch): each distinct
// name is ranked once per list of names. Bounded, oldest first out, so varied names cannot grow it.
const MAX_REMEMBERED = 1_000;
const remembered = new WeakMap<readonly string[], Map<string, string[]>>();

/** The valid names closest to `input`, best first (prefix and substring matches rank first). */
export function nearest(input: string, names: readonly string[], count = 3): string[] {
  let byInput = remembered.get(names);
  if (!byInput) remembered.set(names, (byInput = new Map()));
  const key = `${count}:${input.slice(0, MAX_COMPARED)}`;
  let found = byInput.get(key);
  if (!found) {
    found = rank(input, names, count);
    if (byInput.size >= MAX_REMEMBERED) byInput.delete(byInput.keys().next().value as string);
    byInput.set(key, found);
  }
  return found;
}
