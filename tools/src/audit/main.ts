/** Entry point of the audit CLI: reads the event store of DATA_DIR (default ./data). */
import { join } from 'node:path';
import { openSqliteEventStore } from '@rna/infra/event-store';
import { parseAuditArgs, runAudit, UsageError } from './audit';

async function main(): Promise<void> {
  const args = parseAuditArgs(process.argv.slice(2));
  const eventStore = openSqliteEventStore(join(process.env.DATA_DIR ?? './data', 'events.db'));
  try {
    console.log(await runAudit(eventStore, args));
  } finally {
    await eventStore.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : `Audit non riuscito: ${String(error)}`);
  process.exitCode = 1;
});
