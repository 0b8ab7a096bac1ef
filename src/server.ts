import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { isOwnCloseReport } from './chains/own-closes';
import { loadConfig, type Config } from './config';
import { createLogger, flushLogger, routeConsoleTo } from './logger';
import { closeStalledWrites } from './http/write-deadline';
import { projectRoot } from './project-root';
import { installedSdkVersion, sdkVersionProblem } from './sdk/version';

export interface StartOptions {
  /** Started by the sandbox over its emulated nodes: /status says so, and so does every log line. */
  sandbox?: boolean;
  /** Markdown /docs shows first. */
  docsNote?: string;
}

/** What every log line of a sandbox carries: it can never be taken for a live service's. */
export const SANDBOX_LOG_BINDINGS = { sandbox: true } as const;

export interface Running {
  server: Server;
  url: string;
  logger: Logger;
  stop(): Promise<void>;
}

/** Starts the service; `stop` stops accepting, lets in-flight requests finish (bounded) and closes chains. */
export async function start(config: Config, options: StartOptions = {}): Promise<Running> {
  // Loaded here, not at the top: main() refuses a wrong Node or SDK before anything loads the SDK.
  const [{ createApp }, { createOps }, { createServices }] = await Promise.all([import('./http/app'), import('./ops'), import('./service')]);
  const logger = createLogger(config.LOG_LEVEL, options.sandbox ? SANDBOX_LOG_BINDINGS : undefined);
  const services = createServices(config, logger, { localWebhooks: options.sandbox === true });
  const ops = createOps(config, logger);
  const app = createApp({ config, logger, services, ops, sandbox: options.sandbox, docsNote: options.docsNote });
  // Slow clients cannot hold a socket: headers within HEADERS_TIMEOUT_MS, the whole request within
  // HTTP_REQUEST_TIMEOUT_MS (checked every second, not Node's default 30 s), idle keep-alive
  // sockets closed after KEEP_ALIVE_TIMEOUT_MS, at most MAX_REQUESTS_PER_SOCKET per connection,
  // and answers the client does not read closed after HTTP_WRITE_TIMEOUT_MS without progress.
  const server = createServer({
    headersTimeout: config.HEADERS_TIMEOUT_MS,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: 1_000,
  });
  const stopWriteChecks = closeStalledWrites(server, config.HTTP_WRITE_TIMEOUT_MS);
  server.maxRequestsPerSocket = config.MAX_REQUESTS_PER_SOCKET;
  // Node marks the answer that reaches the cap `Connection: close` but keeps the socket, and
  // answers 503 to everything sent on it after: a client that ignores the header would get
  // nothing else. Our own `Connection: close` makes Node close the socket after that answer.
  const served = new WeakMap<Socket, number>();
  let draining = false;
  // A kept-alive connection goes idle when its answer ends: during the drain, close it then. One
  // function for every answer, added with `on` ('close' comes once): `once` wraps it anew per answer.
  const closeIdleIfDraining = () => {
    if (draining) setImmediate(() => server.closeIdleConnections());
  };
  server.on('request', (req, res: ServerResponse) => {
    const count = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, count);
    if (draining || count === config.MAX_REQUESTS_PER_SOCKET) res.setHeader('Connection', 'close');
    res.on('close', closeIdleIfDraining);
  });
  // After the listener above, so that it sees every request before the app answers it.
  server.on('request', app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  logger.info({ url, runtime: `Node.js ${process.version}`, v8: process.versions.v8 }, 'listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('shutting down');
      // From now on /ready answers 503 (also on kept-alive connections), every new request closes
      // its connection, and a connection whose in-flight answer ends is closed once idle.
      draining = true;
      services.drain();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS).unref());
      await Promise.race([closed, grace]);
      server.closeAllConnections();
      stopWriteChecks();
      await services.close();
      await ops.close();
      logger.info('stopped');
      flushLogger(logger);
    })());
  return { server, url, logger, stop };
}

/** The Node.js this service needs (package.json `runtime`, `>=X.Y.Z`); `undefined` when `running` is one. */
export function nodeVersionProblem(running: string, needed: string): string | undefined {
  const wanted = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(needed.trim());
  if (!wanted) throw new Error(`package.json runtime.node must read >=X.Y.Z, not ${needed}`);
  const have = running.replace(/^v/, '').split('.').map(Number);
  const need = wanted.slice(1).map(Number);
  const order = have[0] - need[0] || have[1] - need[1] || have[2] - need[2];
  if (order >= 0) return undefined;
  return `Node.js ${running} is running; xcm-gateway needs Node.js ${needed.trim()}: start it with npm start (which runs the project's own Node ${need[0]}, installed by npm ci) or install Node.js ${need[0]}`;
}

/** Why this process cannot serve (wrong Node, wrong SDK), read without loading the SDK. */
export function runtimeProblem(): string | undefined {
  const { runtime } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { runtime: { node: string } };
  return nodeVersionProblem(process.version, runtime.node) ?? sdkVersionProblem(installedSdkVersion());
}

async function main(): Promise<void> {
  // Refusals and crashes are written at any LOG_LEVEL (and before it is read), as JSON lines like
  // every other; the logger's exit hook writes out whatever is still buffered.
  const lastWords = createLogger('fatal');
  const refuse = (reason: string) => {
    lastWords.fatal(reason);
    process.exit(1);
  };
  let running: Running | undefined;
  let crashed = false;
  // Nothing is safe to resume after an uncaught exception (a stray rejection during start-up is
  // one too): say why and stop. A running service first answers /ready 503 and gives in-flight
  // requests the shutdown grace; a second exception meanwhile ends the process at once.
  process.on('uncaughtException', (error) => {
    lastWords.fatal({ err: error }, 'uncaught exception: the service stops');
    flushLogger(lastWords);
    if (!running || crashed) process.exit(1);
    crashed = true;
    process.exitCode = 1;
    void running.stop().finally(() => process.exit());
  });

  const problem = runtimeProblem();
  if (problem) return refuse(problem);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
  routeConsoleTo(createLogger(config.LOG_LEVEL), isOwnCloseReport);
  try {
    running = await start(config);
  } catch (error) {
    lastWords.fatal({ err: error }, 'the service cannot start');
    return process.exit(1);
  }
  const { stop, logger } = running;
  // xcm-router SDK_VERSION's Acala/Karura clients (and the chain clients it abandons after our
  // deadline) reject promises nobody awaits. Log them and keep serving.
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection; the service keeps running');
  });
  const onSignal = (signal: NodeJS.Signals) => {
    // process.exit() exits 1 if a crash began the shutdown (process.exitCode), else 0.
    stop().then(
      () => process.exit(),
      (error: unknown) => {
        lastWords.fatal({ err: error, signal }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

if (require.main === module) void main();
