import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streams, type ClientEvent, type QuotaEvent } from '@rna/domain';
import { openSqliteEventStore } from '@rna/infra/event-store';
import { parseAuditArgs, runAudit } from './audit';

const admin = { userId: 'a1', email: 'admin@example.com', role: 'ADMIN' as const };
const client = { userId: 'c1', email: 'studio@example.com', role: 'CLIENT' as const };

describe('audit CLI', () => {
  it('parses its arguments and refuses bad ones with the usage', () => {
    expect(parseAuditArgs(['--client', 'a@b.it'])).toEqual({ client: 'a@b.it', at: null });
    expect(parseAuditArgs(['--client', 'a@b.it', '--at', '2025-03-03T10:00:00Z']).at).toBe(
      Date.parse('2025-03-03T10:00:00Z'),
    );
    expect(() => parseAuditArgs([])).toThrow('Uso:');
    expect(() => parseAuditArgs(['--client'])).toThrow('richiede un valore');
    expect(() => parseAuditArgs(['--client', 'a@b.it', '--at', 'ieri'])).toThrow('Data non valida');
  });

  it('prints the history of a client found by email and the remaining searches at a date', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-cli-'));
    const eventStore = openSqliteEventStore(join(dir, 'events.db'));
    try {
      const invited: ClientEvent = {
        type: 'ClientInvited',
        data: {
          clientId: 'c1',
          email: 'studio@example.com',
          fixedTaxCode: null,
          invitedAt: '2025-01-01T00:00:00Z',
          by: admin,
        },
      };
      const quota: QuotaEvent[] = [
        {
          type: 'SearchAllowanceGranted',
          data: {
            clientId: 'c1',
            availableYearlySearches: 10,
            remainingSearches: 10,
            endDate: Date.parse('2026-01-01T11:00:00Z'),
            at: '2025-01-02T10:00:00Z',
            by: admin,
          },
        },
        {
          type: 'SearchPerformed',
          data: {
            clientId: 'c1',
            taxCodes: ['01234567897'],
            deMinimis: true,
            last3Years: false,
            at: '2025-02-10T10:00:00Z',
            by: client,
            dataSource: 'ARCHIVE',
            resultCount: 7,
            cost: 1,
          },
        },
        {
          type: 'ReportDownloaded',
          data: {
            clientId: 'c1',
            taxCodes: ['01234567897'],
            deMinimis: true,
            last3Years: false,
            at: '2025-02-10T10:05:00Z',
            by: client,
            kind: 'pdf',
          },
        },
        {
          type: 'SearchPerformed',
          data: {
            clientId: 'c1',
            taxCodes: ['98765432109'],
            deMinimis: false,
            last3Years: false,
            at: '2025-04-01T10:00:00Z',
            by: client,
            dataSource: 'LIVE',
            resultCount: 0,
            cost: 1,
          },
        },
      ];
      await eventStore.appendToStream(streams.client('c1'), [invited]);
      await eventStore.appendToStream(streams.quota('c1'), quota);

      const audit = async (argv: string[]) => {
        const printed: string[] = [];
        await runAudit(eventStore, parseAuditArgs(argv), (text) => printed.push(text));
        return printed.join('\n');
      };
      const report = await audit(['--client', 'studio@example.com', '--at', '2025-03-01']);
      expect(report).toContain('ricerche residue 9 su 10');
      expect(report).toContain('SEARCH');
      expect(report).toContain('DOWNLOAD');
      expect(report).toContain('pdf');
      expect(report).toContain('studio@example.com (CLIENT)');
      expect(report).toContain('7 risultati');
      expect(report).toContain('10/10 fino al 01-01-2026');
      expect(report).not.toContain('98765432109');
      expect(await audit(['--client', 'studio@example.com'])).toContain('ricerche residue 8 su 10');
      await expect(audit(['--client', 'nobody@example.com'])).rejects.toThrow('Nessun cliente');
    } finally {
      await eventStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
