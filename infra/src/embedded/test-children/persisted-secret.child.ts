// Child process: reads (or creates) the persisted secret of a data directory and prints it.
import { persistedSecret } from '../../config/config';

process.stdout.write(`secret ${persistedSecret(process.argv[2] ?? '', 'jwt-secret')}\n`);
