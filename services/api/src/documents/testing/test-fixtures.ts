/** Test data shared by the search feature's tests: aids shaped like the register's, and a quota grant. */
import { isDeMinimisProcedure, streams, type Actor, type AidRecord, type QuotaEvent } from '@rna/domain';
import type { AidIndex, EventStore } from '@rna/infra';
import { newestFirst } from '../rows';

export const ADMIN: Actor = { userId: 'admin-1', email: 'admin@example.com', role: 'ADMIN' };
export const clientActor = (id: string): Actor => ({
  userId: id,
  email: `${id}@example.com`,
  role: 'CLIENT',
});

let sequence = 0;
export function anAid(overrides: Partial<AidRecord> = {}): AidRecord {
  sequence += 1;
  return {
    idComponenteAiuto: String(100000 + sequence),
    cor: String(900000 + sequence),
    car: '12345',
    titoloMisura: 'Bando digitalizzazione PMI',
    desTipoMisura: 'Regime di aiuti',
    soggettoConcedente: 'Regione Lombardia',
    titoloProgetto: 'Nuovo gestionale',
    dataConcessione: '2024-05-10',
    cup: 'n.d.',
    denominazioneBeneficiario: 'ACME S.R.L.',
    codiceFiscaleBeneficiario: '01234567897',
    desTipoBeneficiario: 'Piccola impresa',
    regioneBeneficiario: 'Lombardia',
    codProcedimento: '1',
    desProcedimento: 'De Minimis',
    codRegolamento: 'CE2831/23',
    desRegolamento: 'Reg. UE 2023/2831 de minimis generale',
    codObiettivo: '1',
    desObiettivo: 'Sviluppo',
    settoreAttivita: 'C.25.1',
    elementoDiAiutoCents: 1_000_000,
    importoNominaleCents: 2_000_000,
    sourceFile: '2024_05',
    importId: 'import-1',
    ...overrides,
  };
}

export async function grantAllowance(
  eventStore: EventStore,
  clientId: string,
  remainingSearches: number,
  endDate: number,
): Promise<void> {
  const event: QuotaEvent = {
    type: 'SearchAllowanceGranted',
    data: {
      clientId,
      availableYearlySearches: remainingSearches,
      remainingSearches,
      endDate,
      at: new Date(endDate - 365 * 86_400_000).toISOString(),
      by: ADMIN,
    },
  };
  await eventStore.appendToStream(streams.quota(clientId), [event]);
}

/** An 11-digit code per index (the length rule is what the API checks). */
export const taxCodeNumber = (i: number): string => String(10_000_000_000 + i);

/** A plain in-memory aid index for tests that are about the API, not about the index. */
export function memoryAidIndex(initial: AidRecord[] = []): AidIndex {
  const byId = new Map(initial.map((aid) => [aid.idComponenteAiuto, aid]));
  const remove = (keep: (aid: AidRecord) => boolean) => {
    const taxCodes = new Set<string>();
    let count = 0;
    for (const [id, aid] of byId) {
      if (keep(aid)) continue;
      byId.delete(id);
      taxCodes.add(aid.codiceFiscaleBeneficiario);
      count += 1;
    }
    return Promise.resolve({ count, taxCodes: [...taxCodes] });
  };
  const index: AidIndex = {
    upsert: (records) => {
      for (const aid of records) byId.set(aid.idComponenteAiuto, aid);
      const changedTaxCodes = [...new Set(records.map((aid) => aid.codiceFiscaleBeneficiario))];
      return Promise.resolve({ changed: records.length, changedTaxCodes });
    },
    withdraw: (ids) => remove((aid) => !ids.includes(aid.idComponenteAiuto)),
    withdrawBySourceFile: (sourceFile, keepImportId) =>
      remove((aid) => aid.sourceFile !== sourceFile || aid.importId === keepImportId),
    search: (query) =>
      Promise.resolve(
        [...byId.values()]
          .filter(
            (aid) =>
              query.taxCodes.includes(aid.codiceFiscaleBeneficiario) &&
              (!query.dateFrom || aid.dataConcessione >= query.dateFrom) &&
              (!query.deMinimisOnly || isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento)),
          )
          .sort(newestFirst)
          .slice(0, query.limit),
      ),
    get: (id) => Promise.resolve(byId.get(id) ?? null),
    count: () => Promise.resolve(byId.size),
    statsBySourceFile: () => Promise.resolve([]),
    clear: () => Promise.resolve(byId.clear()),
    beginRebuild: () => {
      byId.clear();
      return Promise.resolve({
        target: index,
        complete: () => Promise.resolve(),
        abandon: () => Promise.resolve(),
      });
    },
    close: () => Promise.resolve(),
  };
  return index;
}
