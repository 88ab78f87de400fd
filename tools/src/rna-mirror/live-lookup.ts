/**
 * The register's live look-up ("Trasparenza") answered from the files the mirror serves:
 * every record of a tax code, in the shape public projects have seen.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import unzipper from 'unzipper';
import type { AidRecord } from '@rna/domain';
import { parseAidStream, type LiveAidRow } from '@rna/infra/register';
import type { ServedFile } from './archive-folder';

/** "€ 1.234,56" */
export function formatEuro(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `€ ${sign}${whole},${String(abs % 100).padStart(2, '0')}`;
}

export function toLiveRow(aid: AidRecord): LiveAidRow {
  const [year, month, day] = aid.dataConcessione.split('-');
  return {
    cor: aid.cor,
    car: aid.car,
    ce: aid.codRegolamento,
    titolo: aid.titoloMisura,
    tipo: aid.desProcedimento,
    progetto: aid.titoloProgetto,
    data: `${day}/${month}/${year}`,
    beneficiario: aid.denominazioneBeneficiario,
    cf: aid.codiceFiscaleBeneficiario,
    regione: aid.regioneBeneficiario,
    elemento_aiuto: formatEuro(aid.elementoDiAiutoCents),
    id_concessione: aid.idComponenteAiuto,
  };
}

/** Rows by tax code, rebuilt when the folder's files change. */
export class LiveIndex {
  private signature = '';
  private rows: Promise<Map<string, LiveAidRow[]>> | null = null;

  lookup(files: ServedFile[], taxCode: string): Promise<LiveAidRow[]> {
    const signature = files.map((f) => `${f.name}:${f.mtimeMs}:${f.size}`).join('|');
    if (!this.rows || signature !== this.signature) {
      this.signature = signature;
      this.rows = build(files);
    }
    return this.rows.then((rows) => rows.get(taxCode.trim().toUpperCase()) ?? []);
  }
}

async function build(files: ServedFile[]): Promise<Map<string, LiveAidRow[]>> {
  const rows = new Map<string, LiveAidRow[]>();
  for (const file of files) {
    const xml: Readable = file.xmlPath
      ? createReadStream(file.xmlPath)
      : createReadStream(file.zipPath as string).pipe(unzipper.ParseOne(/\.xml$/i));
    try {
      await parseAidStream(xml, {
        sourceFile: file.name,
        importId: 'live',
        now: Date.now(),
        onBatch: async (batch) => {
          for (const aid of batch) {
            const key = aid.codiceFiscaleBeneficiario.toUpperCase();
            const list = rows.get(key) ?? [];
            list.push(toLiveRow(aid));
            rows.set(key, list);
          }
        },
      });
    } catch {
      // A broken file answers what it could; the register's endpoint is just as partial.
    }
  }
  return rows;
}
