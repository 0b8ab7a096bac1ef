// vitest globalSetup of `npm run test:real`: one line when there are no specs to run (the tests skip).
import { realSpecsDir } from '../support/real-specs';

export default function setup(): void {
  if (!realSpecsDir()) console.log('test:real: REALRUN_SPECS_DIR names no folder of chain specs; the real-runtime tests skip');
}
