import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

const ms = (fallback: number) => z.coerce.number().int().positive().max(3_600_000).default(fallback);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3001),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)?$/i, 'must be a size such as 100kb or 1mb')
    .default('100kb'),
  CONNECT_TIMEOUT_MS: ms(10_000),
  REQUEST_TIMEOUT_MS: ms(30_000),
  IDLE_TIMEOUT_MS: ms(300_000),
  MAX_CHAINS: z.coerce.number().int().positive().max(1000).default(32),
  SHUTDOWN_GRACE_MS: ms(10_000),
  ALLOW_PRIVATE_OVERRIDES: bool.default('false'),
  CORS_ORIGIN: z.string().min(1).default('*'),
  // Chain sockets and the HTTP server (issue 9): see README "Security and limits".
  CHAIN_MAX_FRAME_BYTES: z.coerce.number().int().min(1024).max(256 * 1024 * 1024).default(16 * 1024 * 1024),
  MAX_METADATA_DECODING: z.coerce.number().int().positive().max(64).default(2),
  HEADERS_TIMEOUT_MS: ms(10_000),
  HTTP_REQUEST_TIMEOUT_MS: ms(30_000),
  KEEP_ALIVE_TIMEOUT_MS: ms(65_000),
  MAX_REQUESTS_PER_SOCKET: z.coerce.number().int().min(0).max(1_000_000).default(1000),
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** Reads the configuration from the environment; a bad value names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  return parsed.data;
}
