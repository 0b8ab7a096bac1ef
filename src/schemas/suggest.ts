/** Names longer than this are compared by their first characters only: no valid name is longer. */
const MAX_COMPARED = 32;

/** Levenshtein distance, case-insensitive: used to suggest the names a caller probably meant. */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, i) => i);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[t.length];
}

function rank(input: string, names: readonly string[], count: number): string[] {
  const needle = input.slice(0, MAX_COMPARED).toLowerCase();
  return names
    .map((name) => {
      const lower = name.toLowerCase();
      const bonus = needle.length > 0 && (lower.startsWith(needle) || lower.includes(needle)) ? -100 : 0;
      return { name, score: distance(needle, name) + bonus };
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
