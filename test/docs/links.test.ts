// The README and the guides under docs/ are read from a clone: every relative link and anchor must
// lead somewhere, and every request example of the README must be one the tests send
// (test/http/user-paths.test.ts runs them all through test/support/readme-examples.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root';
import { fencedBlocks, readmeExamples } from '../support/readme-examples';

const root = projectRoot();
const DOCUMENTS = ['README.md', 'DEVELOPING.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Text outside fenced blocks and inline code, where Markdown links live. */
function prose(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines
    .map((line) => {
      const m = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (m && line.trimStart().startsWith(fence)) fence = undefined;
        return '';
      }
      if (m) {
        fence = m[1];
        return '';
      }
      return line.replace(/`[^`]*`/g, '');
    })
    .join('\n');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(markdown.replace(/`([^`]*)`/g, '$1')).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The targets of the Markdown links and images of a document, with their line. */
function links(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  prose(markdown)
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1], line: i + 1 });
    });
  return out;
}

describe('links in the README and the guides', () => {
  it.each(DOCUMENTS)('%s: every relative link and anchor leads somewhere', (doc) => {
    const text = readFileSync(join(root, doc), 'utf8');
    const dead: string[] = [];
    for (const { target, line } of links(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const path = file === '' ? join(root, doc) : resolve(dirname(join(root, doc)), decodeURIComponent(file));
      const where = `${doc}:${line} ${target}`;
      if (!path.startsWith(root) || !existsSync(path)) {
        dead.push(`${where}: no file ${relative(root, path)}`);
        continue;
      }
      if (anchor === undefined) continue;
      if (!path.endsWith('.md') || statSync(path).isDirectory()) dead.push(`${where}: an anchor into a file that is not Markdown`);
      else if (!anchors(readFileSync(path, 'utf8')).has(anchor)) dead.push(`${where}: no heading #${anchor} in ${relative(root, path)}`);
    }
    expect(dead).toEqual([]);
  });

  it('the README links every guide under docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const linked = new Set(links(readme).map((l) => l.target.split('#')[0]));
    const guides = DOCUMENTS.filter((d) => d.startsWith('docs/'));
    expect(guides.filter((g) => !linked.has(g))).toEqual([]);
  });

  it('the README stays short: at most 20 kB', () => {
    expect(statSync(join(root, 'README.md')).size).toBeLessThanOrEqual(20 * 1024);
  });
});

describe('the README request examples', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('are all curl commands in sh blocks, each of which the example reader understands', () => {
    const requestBlocks = fencedBlocks(readme).filter((b) => /\bcurl\b|localhost:3001/.test(b.text));
    const elsewhere = requestBlocks.filter((b) => !['sh', 'bash', 'shell'].includes(b.lang)).map((b) => `README.md:${b.line} (${b.lang || 'no language'})`);
    expect(elsewhere, 'requests outside sh blocks are not run: write them as curl in an sh block').toEqual([]);
    // readmeExamples throws on anything it cannot run, naming the line.
    const examples = readmeExamples(readme);
    const curls = requestBlocks.reduce((n, b) => n + [...b.text.matchAll(/(?:^|[\s($])curl\s/gm)].length, 0);
    expect(examples.reduce((n, e) => n + e.requests.length, 0)).toBe(curls);
    expect(curls).toBeGreaterThan(0);
  });

  it('are what test/http/user-paths.test.ts sends', () => {
    const userPaths = readFileSync(join(root, 'test/http/user-paths.test.ts'), 'utf8');
    expect(userPaths).toMatch(/readmeExamples\(\)/);
    expect(userPaths).toMatch(/runExample\(/);
  });
});
