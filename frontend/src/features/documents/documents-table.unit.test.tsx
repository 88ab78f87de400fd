import { render, screen } from '@testing-library/react';
import type { AidRowDto } from '@rna/domain';
import { DocumentsTable, visibleWindow } from './documents-table';

const row = (i: number): AidRowDto => ({
  id: `aid-${i}`,
  idComponenteAiuto: String(i),
  codiceFiscaleBeneficiario: '01234567890',
  denominazioneBeneficiario: 'ACME',
  soggettoConcedente: 'Regione',
  titoloMisura: 'Misura',
  dataConcessione: '01-02-2024',
  cup: '',
  desProcedimento: `Procedimento ${i}`,
  desRegolamento: '',
  isDeMinimis: false,
  importoNominale: '1000',
  elementoDiAiuto: '1234.5',
});

describe('documents table', () => {
  it('keeps only the rows in view in the DOM, however many there are', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => row(i));
    render(<DocumentsTable rows={rows} />);
    const rendered = screen.getAllByRole('row').filter((r) => r.getAttribute('aria-hidden') !== 'true');
    expect(rendered.length).toBeLessThan(60);
    expect(screen.getByText('Procedimento 0')).toBeInTheDocument();
    expect(screen.getAllByText('1.234,50 €').length).toBeGreaterThan(0);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '5001');
  });
  it('computes the window from the scroll position', () => {
    expect(visibleWindow(44 * 1000, 5000)).toEqual({ start: 988, end: 1025 });
  });
});
