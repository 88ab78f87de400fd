/** What the worker needs from its surroundings besides the stores. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** Pino-compatible subset. */
export interface Logger {
  info(data: object, message?: string): void;
  warn(data: object, message?: string): void;
  error(data: object, message?: string): void;
}
export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
