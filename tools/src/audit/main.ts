/**
 * Entry point of the audit CLI: reads the event store the portal is configured with (EVENTSTORE_URL
 * for EventStoreDB, else the embedded store under DATA_DIR, default ./data).
 */
import { loadConfig } from '@rna/infra/config';
import { openStores } from '@rna/infra/stores';
import { parseAuditArgs, runAudit, UsageError } from './audit';

async function main(): Promise<void> {
  const args = parseAuditArgs(process.argv.slice(2));
  const config = loadConfig();
  const stores = openStores({ dataDir: config.dataDir, engines: config.engines });
  try {
    await runAudit(stores.eventStore, args, (text) => console.log(text));
  } finally {
    await stores.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : `Audit non riuscito: ${String(error)}`);
  process.exitCode = 1;
});
