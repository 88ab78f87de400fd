/** Process life cycle shared by every entry point: a clean stop on SIGTERM/SIGINT. */

interface ShutdownLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * On the first SIGTERM or SIGINT: logs it, awaits `stop` (stop accepting, drain, close stores)
 * and exits 0, or 1 if stopping failed. Later signals are ignored while stopping.
 */
export function stopOnSignals(logger: ShutdownLogger, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop()
      .then(() => {
        logger.info({}, 'stopped cleanly');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
