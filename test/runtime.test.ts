import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/project-root';

const version = (v: string) => v.replace(/^[^\d]*/, '').split('.').map(Number);

describe('runtime', () => {
  it('the suite runs on Node 24 or later and on at least the version `engines` names', () => {
    const [major, minor] = version(process.versions.node);
    const hint = `running on Node ${process.version}: run the tests through npm (npm test), which puts the project's Node 24 first`;
    expect(major, hint).toBeGreaterThanOrEqual(24);
    const { engines } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { engines: { node: string } };
    const [wantMajor, wantMinor] = version(engines.node);
    expect(major > wantMajor || (major === wantMajor && minor >= wantMinor), `${hint}; engines asks ${engines.node}`).toBe(true);
  });
});
