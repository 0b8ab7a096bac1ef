// vitest setupFiles: runs in every test file's process before its tests.
import { afterEach } from 'vitest';
import { validateSupertestAnswers } from '../helpers/openapi-responses';
import { dropChainClientReports } from './console';
import { installOfflineGuard, takeOfflineViolations } from './offline';

installOfflineGuard();
validateSupertestAnswers();
dropChainClientReports();

afterEach(() => {
  const leaks = takeOfflineViolations();
  if (leaks.length > 0) throw new Error(`this test tried to leave 127.0.0.1:\n${[...new Set(leaks)].join('\n')}`);
});
