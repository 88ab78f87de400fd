// Child process: takes the data directory lock and holds it until killed.
import { acquireDataDirLock } from '../data-dir-lock';

const dataDir = process.argv[2] ?? '';
try {
  acquireDataDirLock(dataDir, 'test child');
  process.stdout.write(`locked ${process.pid}\n`);
  setInterval(() => undefined, 60_000);
} catch (error) {
  process.stdout.write(`refused ${(error as Error).message}\n`);
  process.exit(3);
}
