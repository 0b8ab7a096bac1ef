import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

const ms = (fallback: number) => z.coerce.number().int().positive().max(3_600_000).default(fallback);

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
/** `64mb` -> bytes (a bare number is bytes). */
const bytesOf = (size: string) => {
  const [, digits, unit = 'b'] = /^(\d+)([a-z]*)$/i.exec(size) ?? [];
  return Number(digits) * (UNITS[unit.toLowerCase()] ?? 1);
};

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
  CACHE_MAX_BYTES: z
    .string()
    .regex(/^\d+(b|kb|mb|gb)?$/i, 'must be a size such as 64mb')
    .default('64mb')
    .transform(bytesOf),
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
