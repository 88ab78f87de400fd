import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAidStream } from '@rna/infra/register';
import { generateArchive } from './generate';
import { seededRandom } from './random';
import { isValidCodiceFiscale, isValidPartitaIva } from '@rna/domain';
import { randomCodiceFiscale, randomPartitaIva } from './tax-codes';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'generator-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tax codes', () => {
  it('checks known real-format codes', () => {
    expect(isValidPartitaIva('00743110157')).toBe(true); // a published company VAT number
    expect(isValidPartitaIva('00743110158')).toBe(false);
    expect(isValidCodiceFiscale('RSSMRA85T10A562S')).toBe(true); // the textbook example
    expect(isValidCodiceFiscale('RSSMRA85T10A562T')).toBe(false);
  });
  it('generates only valid codes', () => {
    const random = seededRandom(3);
    for (let i = 0; i < 500; i++) {
      expect(isValidPartitaIva(randomPartitaIva(random))).toBe(true);
      expect(isValidCodiceFiscale(randomCodiceFiscale(random))).toBe(true);
    }
  });
});

describe('generateArchive', () => {
  it('is deterministic for a seed and splits large months into parts', async () => {
    const first = await generateArchive({
      outDir: path.join(dir, 'a'),
      months: ['2024_05'],
      aids: 150,
      partSize: 50,
      seed: 9,
    });
    const second = await generateArchive({
      outDir: path.join(dir, 'b'),
      months: ['2024_05'],
      aids: 150,
      partSize: 50,
      seed: 9,
    });
    expect(first.files.map((f) => f.name)).toEqual(['2024_05', '2024_05_002', '2024_05_003']);
    for (const [i, file] of first.files.entries()) {
      expect(await readFile(file.path)).toEqual(await readFile((second.files[i] as { path: string }).path));
    }
  });

  it('writes files whose parse equals the ground truth, defects included', async () => {
    const result = await generateArchive({
      outDir: dir,
      months: ['2023_12', '2024_01'],
      aids: 200,
      seed: 5,
      defects: true,
    });
    const truth = (await readFile(result.truthFile as string, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const parsed: unknown[] = [];
    let controlBytes = 0;
    const truncated = new Set<string>();
    for (const file of result.files) {
      const report = await parseAidStream(createReadStream(file.path), {
        sourceFile: file.name,
        importId: 'i',
        // a day after the generated months: every grant date is plausible
        now: new Date('2024-02-01T12:00:00Z'),
        onBatch: async (batch) => {
          parsed.push(...batch.map(({ importId: _i, ...rest }) => rest));
        },
      });
      controlBytes += report.controlBytesRemoved;
      report.truncatedTags.forEach((t) => truncated.add(t));
    }
    expect(parsed).toEqual(truth);
    expect(controlBytes).toBeGreaterThan(0);
    expect([...truncated]).toContain('IMPORTO_NOMIN→IMPORTO_NOMINALE');
    // De minimis under both regulations, by the year of the grant.
    expect(truth.some((r) => r.codRegolamento === 'CE1407/13' && r.dataConcessione.startsWith('2023'))).toBe(
      true,
    );
    expect(truth.some((r) => r.codRegolamento === 'CE2831/23' && r.dataConcessione.startsWith('2024'))).toBe(
      true,
    );
  });
});
