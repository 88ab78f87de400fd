import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AidRowDto } from '@rna/domain';
import { searchResult } from '../../test/app';
import { AidDetailsTable, DETAIL_ROW_HEIGHT } from './aid-details-table';

const CODE = '01234567897';

const aid = (i: number, overrides: Partial<AidRowDto> = {}): AidRowDto => ({
  id: `${i}-0`,
  idComponenteAiuto: String(i),
  codiceFiscaleBeneficiario: CODE,
  denominazioneBeneficiario: 'ACME S.R.L.',
  soggettoConcedente: 'Regione Lombardia',
  titoloMisura: 'Bando digitalizzazione',
  dataConcessione: '10-05-2024',
  cup: 'n.d.',
  desProcedimento: 'De Minimis',
  desRegolamento: 'Reg. UE 2023/2831 de minimis generale',
  codRegolamento: 'CE2831/23',
  isDeMinimis: true,
  importoNominale: '20000.00',
  elementoDiAiuto: '1000.00',
  cor: String(900_000 + i),
  car: '12345',
  titoloProgetto: `Progetto ${i}`,
  ...overrides,
});

const renderDetails = (rows: AidRowDto[]) =>
  render(<AidDetailsTable answer={searchResult([CODE], rows, { details: true })} />);

/** The body rows on screen (the spacer rows keeping the scroll height are hidden). */
const shownRows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .filter((row) => row.getAttribute('aria-hidden') !== 'true') as HTMLTableRowElement[];

const columnOf = (name: string) => screen.getByRole('columnheader', { name: new RegExp(name) });

describe('the aid detail table', () => {
  it('shows each aid’s references, granting body, regulation, procedure and both amounts', () => {
    renderDetails([
      aid(1, {
        soggettoConcedente: 'Camera di commercio di Milano',
        titoloMisura: 'Voucher internazionalizzazione',
        titoloProgetto: 'Fiera di Hannover',
        desProcedimento: 'Regolamento di esenzione',
        codRegolamento: 'CE651/14',
        desRegolamento: 'Reg. UE 651/2014 esenzione per categoria',
        isDeMinimis: false,
        cor: '4567890',
        car: '23456',
        cup: 'F81B24000010007',
        importoNominale: '125000.50',
        elementoDiAiuto: '31250.25',
      }),
    ]);
    const [row] = shownRows();
    const cells = within(row!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      '10-05-2024',
      `ACME S.R.L.${CODE}`,
      'Camera di commercio di Milano',
      'Voucher internazionalizzazione',
      'Fiera di Hannover',
      'Regolamento di esenzione',
      'CE651/14Reg. UE 651/2014 esenzione per categoria',
      '4567890',
      '1',
      '23456',
      'F81B24000010007',
      '125.000,50 €',
      '31.250,25 €',
    ]);
    const headers = screen
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.replace(/[↕▲▼]/g, ''));
    expect(headers).toEqual([
      'Data concessione',
      'Beneficiario',
      'Soggetto concedente',
      'Titolo misura',
      'Titolo progetto',
      'Descrizione procedimento',
      'Regolamento',
      'COR',
      'ID componente aiuto',
      'CAR',
      'CUP',
      'Importo nominale',
      'Elemento di aiuto',
    ]);
  });

  it('lists the newest grant first, across years', () => {
    renderDetails([
      aid(1, { dataConcessione: '31-12-2023' }),
      aid(2, { dataConcessione: '01-01-2025' }),
      aid(3, { dataConcessione: '15-06-2024' }),
    ]);
    expect(shownRows().map((row) => row.cells[0]!.textContent)).toEqual([
      '01-01-2025',
      '15-06-2024',
      '31-12-2023',
    ]);
    expect(columnOf('Data concessione')).toHaveAttribute('aria-sort', 'descending');
  });

  it('sorts by an amount when its header is clicked: largest first, then smallest first', () => {
    renderDetails([
      aid(1, { elementoDiAiuto: '900.00' }),
      aid(2, { elementoDiAiuto: '15000.00' }),
      aid(3, { elementoDiAiuto: '2500.00' }),
    ]);
    const aidElements = () => shownRows().map((row) => row.cells[12]!.textContent);
    fireEvent.click(within(columnOf('Elemento di aiuto')).getByRole('button'));
    expect(aidElements()).toEqual(['15.000,00 €', '2.500,00 €', '900,00 €']);
    expect(columnOf('Elemento di aiuto')).toHaveAttribute('aria-sort', 'descending');
    expect(columnOf('Data concessione')).not.toHaveAttribute('aria-sort');
    fireEvent.click(within(columnOf('Elemento di aiuto')).getByRole('button'));
    expect(aidElements()).toEqual(['900,00 €', '2.500,00 €', '15.000,00 €']);
    expect(columnOf('Elemento di aiuto')).toHaveAttribute('aria-sort', 'ascending');
  });

  it('sorts by granting body from A to Z', () => {
    renderDetails([
      aid(1, { soggettoConcedente: 'Regione Veneto' }),
      aid(2, { soggettoConcedente: 'agenzia delle entrate' }),
      aid(3, { soggettoConcedente: 'Ministero delle imprese' }),
    ]);
    fireEvent.click(within(columnOf('Soggetto concedente')).getByRole('button'));
    expect(shownRows().map((row) => row.cells[2]!.textContent)).toEqual([
      'agenzia delle entrate',
      'Ministero delle imprese',
      'Regione Veneto',
    ]);
  });

  it('keeps only the rows in view in the DOM for 10,000 aids, and shows the last one once scrolled there', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => aid(i));
    renderDetails(rows);
    expect(shownRows().length).toBeLessThan(200);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '10001');
    expect(screen.queryByText('909999')).not.toBeInTheDocument();

    const region = screen.getByRole('region', { name: 'Dettaglio degli aiuti concessi' });
    region.scrollTop = 10_000 * DETAIL_ROW_HEIGHT;
    fireEvent.scroll(region);
    await waitFor(() => expect(screen.getByText('909999')).toBeInTheDocument());
    expect(shownRows().length).toBeLessThan(200);
  });
});
