/** The API's logger: pino with secrets redacted wherever they might appear in a logged object. */
import pino, { type Logger, type LoggerOptions } from 'pino';

export const REDACTED_PATHS = [
  'authorization',
  'password',
  'newPassword',
  'passwordHash',
  'refreshToken',
  'accessToken',
  'token',
  'code',
  'invitationCode',
  'jwtSecret',
  '*.authorization',
  '*.password',
  '*.newPassword',
  '*.passwordHash',
  '*.refreshToken',
  '*.accessToken',
  '*.token',
  '*.code',
  '*.invitationCode',
  '*.jwtSecret',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];

export function createApiLogger(options: LoggerOptions = {}, destination?: pino.DestinationStream): Logger {
  const config: LoggerOptions = {
    level: process.env.LOG_LEVEL ?? 'info',
    ...options,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(config, destination) : pino(config);
}
