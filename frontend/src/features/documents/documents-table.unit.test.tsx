import { render, screen } from '@testing-library/react';
import type { AidRowDto } from '@rna/domain';
import { searchResult } from '../../test/app';
import { DocumentsTable, LABELLED_CARD_ROW_HEIGHT, visibleWindow } from './documents-table';

const answerOf = (rows: AidRowDto[]) => searchResult(['01234567890'], rows);

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
    render(<DocumentsTable answer={answerOf(rows)} />);
    const rendered = screen.getAllByRole('row').filter((r) => r.getAttribute('aria-hidden') !== 'true');
    expect(rendered.length).toBeLessThan(60);
    expect(screen.getByText('Procedimento 0')).toBeInTheDocument();
    expect(screen.getAllByText('1.234,50 €').length).toBeGreaterThan(0);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '5001');
  });
  it('says whose each row is when several companies were searched: a column on desktop', () => {
    const rows = [
      row(1),
      { ...row(2), codiceFiscaleBeneficiario: 'RSSMRA80A01H501U', denominazioneBeneficiario: 'Mario Rossi' },
    ];
    render(<DocumentsTable answer={answerOf(rows)} showBeneficiary />);
    expect(screen.getByRole('columnheader', { name: 'Beneficiario' })).toBeInTheDocument();
    const [, first, second] = screen.getAllByRole('row');
    expect(first).toHaveTextContent('ACME01234567890');
    expect(second).toHaveTextContent('Mario RossiRSSMRA80A01H501U');
  });

  it('… and a label on each row on a phone', () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...matchMedia(query),
      matches: true,
    })) as typeof window.matchMedia;
    try {
      render(<DocumentsTable answer={answerOf([row(1)])} showBeneficiary />);
      expect(screen.queryByRole('columnheader', { name: 'Beneficiario' })).not.toBeInTheDocument();
      expect(screen.getAllByRole('row')[1]).toHaveTextContent('ACME · 01234567890');
      // a card: the date and the amount each name themselves, the row as tall as a card
      expect(screen.getByText('01-02-2024')).toHaveAttribute('data-label', 'Data concessione');
      expect(screen.getByText('1.234,50 €')).toHaveAttribute('data-label', 'Elemento di aiuto');
      expect(screen.getAllByRole('row')[1]).toHaveStyle({ height: `${LABELLED_CARD_ROW_HEIGHT}px` });
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('shows no beneficiary for a single company', () => {
    render(<DocumentsTable answer={answerOf([row(1)])} />);
    expect(screen.queryByRole('columnheader', { name: 'Beneficiario' })).not.toBeInTheDocument();
    expect(screen.queryByText('ACME', { exact: false })).not.toBeInTheDocument();
  });

  it('computes the window from the scroll position', () => {
    expect(visibleWindow(44 * 1000, 5000)).toEqual({ start: 988, end: 1025 });
  });
});
