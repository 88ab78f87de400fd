/**
 * CLI: node tools/dist/generator/main.js --out <dir> --months 2024_01,2024_02 --aids N
 *      [--zip] [--defects] [--seed S] [--part-size N] [--revision R] [--no-truth]
 */
import { parseArgs } from 'node:util';
import { generateArchive } from './generate';

const OPTIONS = {
  out: { type: 'string' },
  months: { type: 'string' },
  aids: { type: 'string' },
  zip: { type: 'boolean' },
  defects: { type: 'boolean' },
  seed: { type: 'string' },
  'part-size': { type: 'string' },
  revision: { type: 'string' },
  'no-truth': { type: 'boolean' },
} as const;

function numberArg(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new Error(`--${name} deve essere un intero non negativo`);
  return parsed;
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({ options: OPTIONS, strict: true });
  const { out, months } = args;
  const aids = numberArg(args.aids, 'aids');
  if (out === undefined || months === undefined || aids === undefined) {
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
    zip: args.zip === true,
    defects: args.defects === true,
    seed: numberArg(args.seed, 'seed'),
    partSize: numberArg(args['part-size'], 'part-size'),
    revision: numberArg(args.revision, 'revision'),
    truthFile: args['no-truth'] ? null : undefined,
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
