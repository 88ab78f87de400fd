/**
 * CLI: node tools/dist/generator/main.js --out <dir> --months 2024_01,2024_02 --aids N
 *      [--zip] [--defects] [--seed S] [--part-size N] [--revision R] [--no-truth]
 */
import { generateArchive } from './generate';

function parseArgs(argv: string[]): Map<string, string | true> {
  const args = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) continue;
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      args.set(arg.slice(2), next);
      i++;
    } else args.set(arg.slice(2), true);
  }
  return args;
}

function numberArg(args: Map<string, string | true>, name: string): number | undefined {
  const value = args.get(name);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`--${name} deve essere un intero non negativo`);
  return parsed;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const out = args.get('out');
  const months = args.get('months');
  const aids = numberArg(args, 'aids');
  if (typeof out !== 'string' || typeof months !== 'string' || aids === undefined) {
    console.error(
      'uso: generator --out <dir> --months 2024_01,2024_02 --aids N [--zip] [--defects] [--seed S]',
    );
    process.exit(2);
  }
  const started = Date.now();
  const result = await generateArchive({
    outDir: out,
    months: months.split(',').map((m) => m.trim()),
    aids,
    zip: args.has('zip'),
    defects: args.has('defects'),
    seed: numberArg(args, 'seed'),
    partSize: numberArg(args, 'part-size'),
    revision: numberArg(args, 'revision'),
    truthFile: args.has('no-truth') ? null : undefined,
  });
  for (const file of result.files) {
    console.log(
      `${file.fileName}\t${file.components} componenti\t${(file.xmlBytes / 1e6).toFixed(1)} MB XML`,
    );
  }
  console.log(`${result.components} componenti in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
