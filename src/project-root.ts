import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder holding package.json: the same answer from src/ under vitest and from dist/. */
export function projectRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}
