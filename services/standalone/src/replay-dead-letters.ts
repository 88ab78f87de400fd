/**
 * `npm run replay-dead-letters`: applies again to the aid index, on the configured stores, every aid
 * message it set aside (projector aids/replay-dead-letters.ts), and says what became of them. It may
 * run beside the portal or the projector: the index's writes are idempotent by aid id and import order.
 */
import type { DeadLetterDoc } from '@rna/infra/dead-letters';
import { loadConfig } from '@rna/infra/config';
import { openStores } from '@rna/infra/stores';
import { replayDeadLetters, type DeadLetterReplaySummary } from '@rna/projector/aids';

const describeLetter = (letter: DeadLetterDoc): string =>
  `  ${letter.position} (${letter.sourceFile ?? 'file sconosciuto'}): ${letter.error}`;

/** The replay's summary as the command prints it. */
export function describeReplay(summary: DeadLetterReplaySummary): string {
  const lines = [
    `Aiuti messi da parte riapplicati all'indice: ${summary.replayed.length}; ancora rifiutati: ${summary.stillFailing.length}`,
  ];
  if (summary.superseded.length > 0)
    lines.push(`Rimossi perché il loro file è stato importato di nuovo dopo: ${summary.superseded.length}`);
  if (summary.stillFailing.length > 0) {
    lines.push('Ancora rifiutati (restano messi da parte):');
    lines.push(...summary.stillFailing.map(describeLetter));
  }
  if (summary.withoutMessage.length > 0) {
    lines.push(
      `Messi da parte senza copia del messaggio (il file sarà importato di nuovo dalla prossima sincronizzazione, se è la sua ultima importazione): ${summary.withoutMessage.length}`,
    );
    lines.push(...summary.withoutMessage.map(describeLetter));
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const stores = openStores({ dataDir: config.dataDir, engines: config.engines });
  try {
    const summary = await replayDeadLetters(stores);
    process.stdout.write(describeReplay(summary));
  } finally {
    await stores.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`Replay failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
