// The layout holds: no import cycle (type-only imports included), no import pointing up a layer,
// capability folders entered through their index.ts, the SDK loaded only in src/sdk. The rules are
// .dependency-cruiser.cjs; `npm run deps` prints the same report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/project-root';

const root = projectRoot();

function cruise(cwd: string): { status: number | null; report: string } {
  const bin = join(root, 'node_modules/.bin/depcruise');
  const run = spawnSync(process.execPath, [bin, 'src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: run.status, report: `${run.stdout}${run.stderr}` };
}

describe('layers', () => {
  it('src has no import cycle, no upward import, no side door into a folder', () => {
    const { status, report } = cruise(root);
    expect(status, report).toBe(0);
  }, 60_000);

  it('the rules catch a type-only cycle, an upward import, ops importing http and the service importing the sandbox', () => {
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }),
      'src/http/app.ts': 'export const app = 1;\n',
      'src/service/transfer/index.ts': "import { app } from '../../http/app';\nexport const up = app;\n",
      'src/chains/a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
      'src/chains/b.ts': "import type { A } from './a';\nexport type B = { a?: A };\n",
      'src/ops/metrics.ts': "import { app } from '../http/app';\nexport const seen = app;\n",
      'src/sandbox/main.ts': 'export const nodes = 1;\n',
      'src/service/status/index.ts': "import { nodes } from '../../sandbox/main';\nexport const local = nodes;\n",
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      const { status, report } = cruise(dir);
      expect(status, report).not.toBe(0);
      expect(report).toContain('no-cycle: src/chains/a.ts');
      expect(report).toContain('service-not-up: src/service/transfer/index.ts → src/http/app.ts');
      expect(report).toContain('ops-not-up: src/ops/metrics.ts → src/http/app.ts');
      expect(report).toContain('sandbox-on-top: src/service/status/index.ts → src/sandbox/main.ts');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
