// Where the real runtimes' chain specs are: the folder named by REALRUN_SPECS_DIR (CI points it at
// ../shared/realrun-specs). They are other repositories' data: read from there, never copied here.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The gzipped raw chain spec of each chain the folder holds, by the SDK's chain name. */
export const REAL_SPEC_FILES = {
  Paseo: 'paseo-local.json.gz',
  AssetHubPaseo: 'asset-hub-paseo-local.json.gz',
  PeoplePaseo: 'people-paseo-local.json.gz',
  Kusama: 'kusama-local.json.gz',
  AssetHubKusama: 'asset-hub-kusama-local.json.gz',
} as const;

export type RealChain = keyof typeof REAL_SPEC_FILES;

/** The specs folder, or undefined when REALRUN_SPECS_DIR is unset or names no folder holding them. */
export function realSpecsDir(): string | undefined {
  const dir = process.env['REALRUN_SPECS_DIR'];
  return dir && existsSync(join(dir, REAL_SPEC_FILES.Paseo)) ? dir : undefined;
}
