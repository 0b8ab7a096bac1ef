import type { Logger } from 'pino';
import type { Config } from '../config';

/** Everything below the HTTP layer that holds state; lookups are stateless functions. */
export interface Services {
  /** Whether the service can take traffic (false while shutting down). */
  ready(): boolean;
  close(): Promise<void>;
}

export function createServices(_config: Config, _logger: Logger): Services {
  let closing = false;
  return {
    ready: () => !closing,
    close: async () => {
      closing = true;
    },
  };
}
