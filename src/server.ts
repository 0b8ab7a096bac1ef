import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { loadConfig, ConfigError, type Config } from './config';
import { createApp } from './http/app';
import { createLogger, flushLogger } from './logger';
import { createOps } from './ops';
import { createServices } from './service';

export interface Running {
  server: Server;
  url: string;
  logger: Logger;
  stop(): Promise<void>;
}

/** Starts the service; `stop` stops accepting, lets in-flight requests finish (bounded) and closes chains. */
export async function start(config: Config): Promise<Running> {
  const logger = createLogger(config.LOG_LEVEL);
  const services = createServices(config, logger);
  const ops = createOps(config, logger);
  const app = createApp({ config, logger, services, ops });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
  logger.info({ url, runtime: `Node.js ${process.version}`, v8: process.versions.v8 }, 'listening');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('shutting down');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS).unref());
      await Promise.race([closed, grace]);
      server.closeAllConnections();
      await services.close();
      await ops.close();
      logger.info('stopped');
      flushLogger(logger);
    })());
  return { server, url, logger, stop };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const running = await start(config);
  const onSignal = (signal: NodeJS.Signals) => {
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed after ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  // xcm-router 11.14.8's Acala/Karura clients (and the chain clients it abandons after our
  // deadline) reject promises nobody awaits; Node would exit on them. Log them and keep serving.
  process.on('unhandledRejection', (reason) => {
    running.logger.error({ err: reason }, 'unhandled promise rejection; the service keeps running');
  });
}

if (require.main === module) void main();
