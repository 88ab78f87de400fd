/**
 * The texts the API writes itself (e-mails, report and export labels, error messages) follow the
 * same glossary as the screens: docs/glossary.md, read here, is the list of what is refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { ERROR_CATALOGUE, readGlossaryLists, styleBreaches, type BulkJobState } from '@rna/domain';
import { alertMail } from '../alerts/notifier';
import { auditHistoryWorkbook } from '../audit/history-sheet';
import { resetMailText } from '../auth/password-reset';
import { bulkMail } from '../bulk-searches/runner';
import { clientsWorkbook } from '../clients/export';
import { invitationMailText } from '../clients/invite';
import { buildExcelReport } from '../reports/excel';
import { pdfSummaryHtml } from '../reports/pdf-template';
import { aReportInput, aReportRow } from '../reports/testing';

const glossary = readGlossaryLists(readFileSync(join(__dirname, '../../../../docs/glossary.md'), 'utf8'));

/** Each breach as "where: rule found"; empty when every text follows the glossary. */
function breaches(texts: Record<string, string>): string[] {
  return Object.entries(texts).flatMap(([where, text]) =>
    // one line at a time: a mail's lines are sentences or labels of their own
    text
      .split('\n')
      .flatMap((line) => styleBreaches(line, glossary).map((b) => `${where}: ${b.rule} ${b.found}`)),
  );
}

const URL = 'https://portale.example';
const job = {
  sourceName: 'clienti.xlsx',
  totalCodes: 12,
  companiesWithAids: 3,
  aids: 10,
  overCeiling: 1,
  failureCode: 'B008',
} as unknown as BulkJobState;

describe('the API’s own Italian texts follow docs/glossary.md', () => {
  it('in the e-mails, all in the formal register', () => {
    const mails = {
      reset: resetMailText(`${URL}/reset-password?code=x`),
      invitation: invitationMailText(URL, 'cliente@example.it', 'ABC123'),
      alert: alertMail(URL, ['01234567897'], ['01234567897']).text,
      groupAlert: alertMail(URL, ['01234567897'], ['01234567897'], { name: 'gruppo' }).text,
      bulkDone: bulkMail(URL, job, false).text,
      bulkFailed: bulkMail(URL, job, true).text,
    };
    expect(breaches(mails)).toEqual([]);
  });

  it('in the error messages', () => {
    const messages = Object.fromEntries(
      Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.message]),
    );
    expect(breaches(messages)).toEqual([]);
  });

  it('in the labels of the Excel report, the clients export and the activity log', async () => {
    const labels: Record<string, string> = {};
    const collect = async (name: string, bytes: Buffer, labelColumns: Record<string, number> = {}) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
      workbook.eachSheet((sheet) => {
        labels[`${name} sheet`] = sheet.name;
        sheet
          .getRow(1)
          .eachCell((cell, col) => (labels[`${name} ${sheet.name} header ${col}`] = String(cell.value)));
        const column = labelColumns[sheet.name];
        if (column)
          sheet.eachRow(
            (row, n) => (labels[`${name} ${sheet.name} row ${n}`] = String(row.getCell(column).value ?? '')),
          );
      });
    };
    await collect('report', await buildExcelReport(aReportInput([aReportRow(1)])), { Riepilogo: 1 });
    await collect('clients', await clientsWorkbook([], new Date()));
    const history = {
      entries: [],
      asOf: null,
      remainingSearches: 0,
      availableYearlySearches: 0,
      endDate: null,
    };
    await collect('audit', await auditHistoryWorkbook('Cliente', history as never, new Date()), { Stato: 1 });
    expect(Object.keys(labels).length).toBeGreaterThan(30);
    expect(breaches(labels)).toEqual([]);
  });

  it('in the fixed texts of the PDF summary', () => {
    const input = aReportInput([aReportRow(1)]);
    // the register's and the client's own words are data, not the portal's texts
    const data = [
      ...input.result.perCode.map((c) => c.name ?? ''),
      input.branding.footer1,
      input.branding.footer2,
      input.branding.organisation ?? '',
    ].filter(Boolean);
    let text = pdfSummaryHtml(input)
      .replace(/<style[\s\S]*?<\/style>/g, ' ')
      .replace(/<[^>]*>/g, '\n')
      .replace(/&[a-z#0-9]+;/g, ' ');
    for (const value of data) text = text.split(value).join(' ');
    expect(breaches({ pdf: text })).toEqual([]);
  });
});
