// One spelling per route: the path as Express's routers match it, for what must count a request
// by the route it runs (rate limits, their exemptions, metric labels) rather than by its spelling.

/**
 * The path as Express's routers match it, so that a limit counts the route that will run whatever
 * the spelling: they match the raw path (percent-escapes are not decoded first, so `%2D` reaches
 * no route), ASCII letters in any case (path-to-regexp's `i` flag without `u`: no other letter
 * folds into ASCII), and with one optional trailing slash (non-strict routing).
 */
export function routedPath(path: string): string {
  const folded = path.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  return folded.length > 1 && folded.endsWith('/') ? folded.slice(0, -1) : folded;
}

/** The path of a request line as Express reads it (`req.path`): before any query or fragment. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}
