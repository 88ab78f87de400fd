/**
 * CLI: node tools/dist/rna-mirror/main.js --dir <folder> --port <port>
 *      [--slow <bytes/s>] [--reset-after <bytes>] [--maintenance] [--truncate-zip]
 */
import { parseArgs } from 'node:util';
import { startMirror, type MirrorFaults } from './server';

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      dir: { type: 'string' },
      port: { type: 'string', default: '8090' },
      slow: { type: 'string' },
      'reset-after': { type: 'string' },
      maintenance: { type: 'boolean' },
      'truncate-zip': { type: 'boolean' },
    },
    strict: true,
  });
  const { dir } = args;
  const port = Number(args.port);
  if (!dir || !Number.isInteger(port)) {
    console.error(
      'uso: rna-mirror --dir <cartella> --port <porta> [--slow B/s] [--reset-after B] [--maintenance] [--truncate-zip]',
    );
    process.exit(2);
  }
  const faults: Partial<MirrorFaults> = {
    maintenance: args.maintenance === true,
    truncateZip: args['truncate-zip'] === true,
  };
  if (args.slow) faults.bytesPerSecond = Number(args.slow);
  if (args['reset-after']) faults.resetAfterBytes = Number(args['reset-after']);
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
