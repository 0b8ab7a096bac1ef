// `npm run sandbox`: the service over local emulated chains, for trying every operation offline
// and for a wallet team's CI (docs/sandbox.md). It starts an emulated node per chain (network.ts),
// and its Ethereum node, then the service with the registry's endpoints of those chains pointing at
// them (CHAIN_ENDPOINTS) and ETHEREUM_RPC_URL at the Ethereum node, on the usual port and paths. It
// never passes for production: /status answers `mode: "sandbox"` and every log line carries
// `sandbox: true`. SIGINT or SIGTERM stops the service
// and the nodes, then the process.
import { z } from 'zod';
import { isOwnCloseReport } from '../chains/own-closes';
import { loadConfig, type Config } from '../config';
import { createLogger, flushLogger, routeConsoleTo } from '../logger';
import { runtimeProblem, SANDBOX_LOG_BINDINGS, start, type Running } from '../server';
import { sandboxDocsNote } from './docs-note';
import { DEV_ACCOUNTS, MOONBEAM_DEV_ACCOUNTS, startSandbox, type Sandbox } from './network';

/** The sandbox's own settings (the service's are the usual ones: PORT, LOG_LEVEL, ...). */
const sandboxEnv = z.object({
  /** Milliseconds between blocks, on every chain. */
  SANDBOX_BLOCK_MS: z.coerce.number().int().min(100).max(60_000).default(6_000),
  /** Port of the first chain's node, the next chains' on the ports after it; 0: ports the system picks. */
  SANDBOX_NODE_PORT: z.coerce.number().int().min(0).max(65_000).default(9944),
});

/** The service's settings the sandbox sets unless the environment does. */
const SANDBOX_DEFAULTS = { HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_CHAIN_PER_MINUTE: '0' };

/** The rate limits in words, for the start-up line. */
function rateLimitsSaid({ perMinute, chainPerMinute }: { perMinute: number; chainPerMinute: number }): string {
  const said = (n: number) => (n === 0 ? 'off' : `${n} a minute`);
  return perMinute === 0 && chainPerMinute === 0
    ? 'rate limits off (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_CHAIN_PER_MINUTE set them)'
    : `rate limits: ${said(perMinute)} per client, ${said(chainPerMinute)} to operations that dial chains`;
}

async function main(): Promise<void> {
  const lastWords = createLogger('fatal', SANDBOX_LOG_BINDINGS);
  const refuse = (reason: string) => {
    lastWords.fatal(reason);
    process.exit(1);
  };
  const problem = runtimeProblem();
  if (problem) return refuse(problem);
  const settings = sandboxEnv.safeParse(process.env);
  if (!settings.success) return refuse(`Invalid configuration: ${settings.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const { SANDBOX_BLOCK_MS: blockMs, SANDBOX_NODE_PORT: basePort } = settings.data;

  let sandbox: Sandbox | undefined;
  let running: Running | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (code: number) =>
    (stopping ??= (async () => {
      try {
        await running?.stop();
      } finally {
        await sandbox?.close();
        flushLogger(lastWords);
        process.exit(code);
      }
    })());
  process.on('uncaughtException', (error) => {
    lastWords.fatal({ err: error }, 'uncaught exception: the sandbox stops');
    void stop(1);
  });
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGINT', () => void stop(0));

  try {
    sandbox = await startSandbox({ blockMs, basePort });
  } catch (error) {
    lastWords.fatal({ err: error }, 'the sandbox chains cannot start');
    return void stop(1);
  }
  let config: Config;
  try {
    // Loopback by default: the sandbox is for this machine (HOST=0.0.0.0 serves others, in a container).
    // Rate limits off by default: a CI loop sends far more than a client of a live service may.
    const operator = process.env.CHAIN_ENDPOINTS ? (JSON.parse(process.env.CHAIN_ENDPOINTS) as Record<string, unknown>) : {};
    config = loadConfig({ ...SANDBOX_DEFAULTS, ...process.env, CHAIN_ENDPOINTS: JSON.stringify({ ...operator, ...sandbox.endpoints }), ETHEREUM_RPC_URL: sandbox.ethereum.url });
  } catch (error) {
    lastWords.fatal(error instanceof Error ? error.message : String(error));
    return void stop(1);
  }
  const logger = createLogger(config.LOG_LEVEL, SANDBOX_LOG_BINDINGS);
  routeConsoleTo(logger, isOwnCloseReport);
  const rateLimits = { perMinute: config.RATE_LIMIT_PER_MINUTE, chainPerMinute: config.RATE_LIMIT_CHAIN_PER_MINUTE };
  logger.info(
    { chains: sandbox.endpoints, ethereum: sandbox.ethereum.url, blockMs, accounts: DEV_ACCOUNTS.map((name) => `//${name}`), moonbeamAccounts: MOONBEAM_DEV_ACCOUNTS, localWebhookReceivers: true, rateLimits },
    `sandbox chains ready (emulated: see docs/sandbox.md); webhook receivers on this machine are allowed; ${rateLimitsSaid(rateLimits)}`,
  );
  try {
    running = await start(config, { sandbox: true, docsNote: sandboxDocsNote() });
  } catch (error) {
    lastWords.fatal({ err: error }, 'the service cannot start');
    return void stop(1);
  }
  process.on('unhandledRejection', (reason) => {
    running?.logger.error({ err: reason }, 'unhandled promise rejection; the sandbox keeps running');
  });
}

if (require.main === module) void main();
