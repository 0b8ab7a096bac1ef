import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRoot } from '../project-root';

/**
 * The `@paraspell/sdk-pjs` release this service is written against: its patches of the SDK, the
 * result shapes it translates and the error kinds it maps are this release's. Start-up refuses any other.
 */
export const SDK_VERSION = '11.14.8';

/** The version of `@paraspell/sdk-pjs` that `require` finds, read from its package.json without loading it. */
export function installedSdkVersion(): string {
  const entry = createRequire(__filename).resolve('@paraspell/sdk-pjs');
  // The nearest package.json above the SDK's entry point is its own.
  const { version } = JSON.parse(readFileSync(join(projectRoot(dirname(entry)), 'package.json'), 'utf8')) as { version: string };
  return version;
}

/** Why `installed` cannot serve, or `undefined` when it is the release this service is written against. */
export function sdkVersionProblem(installed: string): string | undefined {
  if (installed === SDK_VERSION) return undefined;
  return `@paraspell/sdk-pjs ${installed} is installed; xcm-gateway is written against ${SDK_VERSION} exactly: run npm ci to install the locked version`;
}
