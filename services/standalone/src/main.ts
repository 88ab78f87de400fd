/** `npm start`: the portal on the embedded default, in one process. */
import { createApiLogger } from '@rna/api';
import { DataDirLockedError } from '@rna/infra/embedded';
import { ConfigError, loadConfig, processClock, stopOnSignals } from '@rna/infra/config';
import { startPortal } from './portal';

async function main(): Promise<void> {
  const logger = createApiLogger();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.fatal({ err: { message: error.message } }, 'invalid configuration');
      process.exit(2);
    }
    throw error;
  }
  let portal;
  try {
    portal = await startPortal(config, { logger, clock: processClock() });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      logger.fatal({ dataDir: config.dataDir }, error.message);
      process.exit(3);
    }
    throw error;
  }
  // Stoppable before it says it has started: a supervisor (or a test) signals as soon as it reads that.
  stopOnSignals(logger, () => portal.stop());
  if (portal.generatedAdminPassword) {
    // Printed once, on the terminal only: it is never logged as a JSON line or stored in clear.
    process.stdout.write(
      `\nPrimo amministratore creato: ${config.adminEmail}\nPassword generata (mostrata una sola volta): ${portal.generatedAdminPassword}\n\n`,
    );
  }
  logger.info({ url: portal.url, dataDir: config.dataDir, version: config.version }, 'portal started');
}

main().catch((error: unknown) => {
  process.stderr.write(`Portal failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
