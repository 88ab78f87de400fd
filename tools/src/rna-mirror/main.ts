/**
 * CLI: node tools/dist/rna-mirror/main.js --dir <folder> --port <port>
 *      [--slow <bytes/s>] [--reset-after <bytes>] [--maintenance] [--truncate-zip]
 */
import { startMirror, type MirrorFaults } from './server';

function argValue(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dir = argValue(argv, 'dir');
  const port = Number(argValue(argv, 'port') ?? '8090');
  if (!dir || !Number.isInteger(port)) {
    console.error(
      'uso: rna-mirror --dir <cartella> --port <porta> [--slow B/s] [--reset-after B] [--maintenance] [--truncate-zip]',
    );
    process.exit(2);
  }
  const faults: Partial<MirrorFaults> = {
    maintenance: argv.includes('--maintenance'),
    truncateZip: argv.includes('--truncate-zip'),
  };
  const slow = argValue(argv, 'slow');
  if (slow) faults.bytesPerSecond = Number(slow);
  const reset = argValue(argv, 'reset-after');
  if (reset) faults.resetAfterBytes = Number(reset);
  const mirror = await startMirror({ dir, port, host: '0.0.0.0', faults });
  console.log(
    `Mirror RNA su http://localhost:${port} (cartella ${dir}); RNA_BASE_URL=http://localhost:${port}`,
  );
  const stop = () => {
    void mirror.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
