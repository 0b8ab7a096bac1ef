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

/** The valid names closest to `input`, best first (prefix and substring matches rank first). */
export function nearest(input: string, names: readonly string[], count = 3): string[] {
  const needle = input.toLowerCase();
  return names
    .map((name) => {
      const lower = name.toLowerCase();
      const bonus = needle.length > 0 && (lower.startsWith(needle) || lower.includes(needle)) ? -100 : 0;
      return { name, score: distance(input, name) + bonus };
    })
    .sort((a, b) => a.score - b.score)
    .slice(0, count)
    .map((e) => e.name);
}
