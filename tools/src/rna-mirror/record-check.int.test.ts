/**
 * Register records are checked like user input on the way in (issue 31): the portal as `npm start`
 * runs it syncs a hand-written register file of good and bad records from the mirror, and what an
 * administrator and a searcher meet is checked over HTTP: the bad records are not searchable, do not
 * move the de minimis figures, and the archive screen's answers count them with their reasons.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type ArchiveFileDto,
  type ArchiveStatsDto,
  type SearchAnswerDto,
  type SyncResultDto,
  type SyncRunDto,
  type SyncStatusDto,
} from '@rna/domain';
import { runningClockFrom } from '@rna/infra/config';
import { signInByApi, type ApiClient } from '../e2e/harness/api';
import { startFullPortal, type FullPortal } from '../e2e/harness/full-portal';
import { RNA_NAMESPACE } from '../generator/generate';
import { startMirror, type RunningMirror } from './server';

jest.setTimeout(60_000);

const ADMIN = { email: 'admin@portale.test', password: 'a-long-admin-password' };
/** The sync runs on 15 March 2024: grants up to 15 March 2025 are plausible. */
const SYNC_START = new Date('2024-03-15T10:00:00Z');
const COMPANY = '01234567897';
const LONG_NAMED = '12345678903';
const LONG_NAME = 'ACME S.R.L. '.repeat(180_000); // 2,160,000 characters

/** One concession with one de minimis component. */
function aid(id: string, taxCode: string, date: string, amount: string, name = 'ACME S.R.L.'): string {
  return (
    `<AIUTO><CAR>10001</CAR><TITOLO_MISURA>Sostegno alle imprese</TITOLO_MISURA>` +
    `<SOGGETTO_CONCEDENTE>Regione Lombardia</SOGGETTO_CONCEDENTE><COR>${id}0</COR>` +
    `<TITOLO_PROGETTO>Progetto ${id}</TITOLO_PROGETTO><DATA_CONCESSIONE>${date}</DATA_CONCESSIONE>` +
    `<CUP>n.d.</CUP><DENOMINAZIONE_BENEFICIARIO>${name}</DENOMINAZIONE_BENEFICIARIO>` +
    `<CODICE_FISCALE_BENEFICIARIO>${taxCode}</CODICE_FISCALE_BENEFICIARIO><COMPONENTI_AIUTO>` +
    `<COMPONENTE_AIUTO><ID_COMPONENTE_AIUTO>${id}</ID_COMPONENTE_AIUTO>` +
    `<COD_PROCEDIMENTO>1</COD_PROCEDIMENTO><DES_PROCEDIMENTO>De Minimis</DES_PROCEDIMENTO>` +
    `<COD_REGOLAMENTO>CE2831/23</COD_REGOLAMENTO><STRUMENTI_AIUTO><STRUMENTO_AIUTO>` +
    `<COD_STRUMENTO>1</COD_STRUMENTO><ELEMENTO_DI_AIUTO>${amount}</ELEMENTO_DI_AIUTO>` +
    `<IMPORTO_NOMINALE>${amount}</IMPORTO_NOMINALE></STRUMENTO_AIUTO></STRUMENTI_AIUTO>` +
    `</COMPONENTE_AIUTO></COMPONENTI_AIUTO></AIUTO>`
  );
}

/** Three good records (one with a 2.16-million-character name) and four the check must reject. */
const REGISTER_FILE =
  `<?xml version="1.0" encoding="UTF-8"?>\n<LISTA_AIUTI xmlns="${RNA_NAMESPACE}">\n` +
  [
    aid('1001', COMPANY, '2024-02-05', '100000.00'),
    aid('1002', COMPANY, '2024-02-29', '50000.00'), // a leap day: a real date
    aid('1003', COMPANY, '2024-02-10', '-500000.00'),
    aid('1004', COMPANY, '2026-13-45', '120000.00'),
    aid('1005', COMPANY, '9999-12-31', '80000.00'),
    aid('1006', COMPANY, '2023-02-29', '1000.00'),
    aid('2001', LONG_NAMED, '2024-02-12', '10000.00', LONG_NAME),
  ].join('\n') +
  `\n</LISTA_AIUTI>\n`;

let root: string;
let mirror: RunningMirror;
let portal: FullPortal;
let admin: ApiClient;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'record-check-'));
  const registerDir = path.join(root, 'register');
  await mkdir(registerDir);
  await writeFile(path.join(registerDir, 'OpenData_Aiuti_2024_02.xml'), REGISTER_FILE);
  mirror = await startMirror({ dir: registerDir, host: '127.0.0.1' });
  const clock = runningClockFrom(SYNC_START);
  portal = await startFullPortal({
    env: {
      DATA_DIR: path.join(root, 'data'),
      PORT: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RNA_BASE_URL: mirror.url,
      JWT_SECRET: 'record-check-secret-that-is-long-enough-for-hs256',
    },
    clock,
  });
  admin = await signInByApi(portal.url, ADMIN.email, ADMIN.password);
  await syncFile();
});

afterAll(async () => {
  await portal?.stop();
  await mirror?.close();
  await rm(root, { recursive: true, force: true });
});

/** Syncs the register file; answers once that run is over and the index has applied what it published. */
async function syncFile(): Promise<SyncStatusDto> {
  const run = await admin.call<SyncRunDto>('POST', '/sync', { type: 'CUSTOM', onlyDocuments: ['2024_02'] });
  for (let i = 0; i < 400; i++) {
    const status = await admin.call<SyncStatusDto>('GET', '/sync/status');
    if (status.run?.id === run.id && status.run.status !== 'RUNNING' && !status.indexing) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the sync did not end');
}

const search = (taxCode: string) => admin.call<SearchAnswerDto>('GET', `/documents?taxCodes=${taxCode}`);

describe('a register file with records that fail the check', () => {
  it('indexes only the good records: the bad ones are not found by a search', async () => {
    const rows = (await search(COMPANY)).rows;
    expect(rows.map((row) => row.idComponenteAiuto).sort()).toEqual(['1001', '1002']);
    expect(rows.find((row) => row.idComponenteAiuto === '1002')?.dataConcessione).toBe('29-02-2024');
    const stats = await admin.call<ArchiveStatsDto>('GET', '/sync/archive-stats');
    // three aids in the archive; the rejected ones were never published, so none is a dead letter
    expect(stats).toMatchObject({ totalDocuments: 3, deadLetters: 0 });
  });

  it('leaves the de minimis figures as the good records make them', async () => {
    const answer = await search(COMPANY);
    // 100.000 + 50.000 € used: 150.000 € of the 300.000 € left (not 800.000 € with the -500.000 € "aid")
    expect(answer.stats).toMatchObject({
      totalDocuments: 2,
      totalImportDeMinimis: 150_000,
      remainingDeMinimis: 150_000,
    });
    expect(answer.perCode[0]).toMatchObject({ deMinimisUsed: 150_000, remainingDeMinimis: 150_000 });
  });

  it('keeps an aid with a 2.16-million-character name, its name capped', async () => {
    const answer = await search(LONG_NAMED);
    expect(answer.rows).toHaveLength(1);
    const name = answer.beneficiaries[0]?.name ?? '';
    expect(name.length).toBe(2_000);
    expect(name.startsWith('ACME S.R.L. ACME')).toBe(true);
    expect(name.endsWith('…')).toBe(true);
  });

  it('counts the rejected records on the file with their reasons, in the run and in the archive list', async () => {
    const expected = {
      name: '2024_02',
      status: 'SUCCESS',
      records: 3,
      recordsRejected: 4,
      rejected: [
        { idComponenteAiuto: '1003', reason: 'IMPORTO_NEGATIVO', message: 'Importo negativo (elemento di aiuto): -500.000,00 €' },
        { idComponenteAiuto: '1004', reason: 'DATA_NON_VALIDA', message: 'Data di concessione non valida: 2026-13-45' },
        { idComponenteAiuto: '1005', reason: 'DATA_FUORI_INTERVALLO', message: expect.stringContaining('9999-12-31') },
        { idComponenteAiuto: '1006', reason: 'DATA_NON_VALIDA', message: 'Data di concessione non valida: 2023-02-29' },
      ],
    }; // prettier-ignore
    const status = await admin.call<SyncStatusDto>('GET', '/sync/status');
    expect(status.run).toMatchObject({ status: 'SUCCESS', records: 3, recordsRejected: 4 });
    expect(status.run?.files).toEqual([expect.objectContaining(expected)]);
    const files = await admin.call<ArchiveFileDto[]>('GET', '/sync/documents-update');
    expect(files.find((file) => file.name === '2024_02')).toMatchObject(expected);
    const [history] = await admin.call<SyncResultDto[]>('GET', '/sync/results');
    expect(history).toMatchObject({ status: 'SUCCESS', succeeded: 1, records: 3, recordsRejected: 4 });
  });

  it('withdraws an aid indexed before when the register republishes it with a negative amount', async () => {
    // the register corrects the file: aid 1001 (100.000 €) comes back as -100.000 €
    const corrected = REGISTER_FILE.replace(
      aid('1001', COMPANY, '2024-02-05', '100000.00'),
      aid('1001', COMPANY, '2024-02-05', '-100000.00'),
    );
    expect(corrected).not.toBe(REGISTER_FILE);
    await writeFile(path.join(root, 'register', 'OpenData_Aiuti_2024_02.xml'), corrected);
    const status = await syncFile();

    const answer = await search(COMPANY);
    expect(answer.rows.map((row) => row.idComponenteAiuto)).toEqual(['1002']);
    // 50.000 € used, 250.000 € left: neither the old 100.000 € nor a deduction of 100.000 €
    expect(answer.stats).toMatchObject({ totalImportDeMinimis: 50_000, remainingDeMinimis: 250_000 });
    expect(status.run?.files[0]).toMatchObject({ records: 2, recordsRejected: 5 });
    expect(status.run?.files[0]?.rejected[0]).toMatchObject({
      idComponenteAiuto: '1001',
      reason: 'IMPORTO_NEGATIVO',
    });
  });
});
