import { render, screen } from '@testing-library/react';
import { DataSourcesNotice } from './data-sources-notice';

const at = Date.parse('2026-03-10T09:05:00Z');

describe('data sources notice', () => {
  it('says, per code, whether the rows are live or the archive of a date, and why', () => {
    render(
      <DataSourcesNotice
        result={{
          dataSource: 'LIVE',
          sources: [
            {
              taxCode: '01234567897',
              source: 'LIVE',
              asOf: at,
              missingFields: ['soggettoConcedente', 'cup', 'importoNominale'],
            },
            { taxCode: '98765432109', source: 'ARCHIVE', asOf: at, liveFallback: 'PACED' },
            { taxCode: '12345678903', source: 'ARCHIVE', asOf: at, liveFallback: 'UNAVAILABLE' },
          ],
        }}
      />,
    );
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items[0]).toMatch(/^01234567897: dati in tempo reale .*10-03-2026 10:05/);
    expect(items[1]).toMatch(/^98765432109: dati dell’archivio aggiornato al 10-03-2026 10:05.*in coda/);
    expect(items[2]).toMatch(/^12345678903: .*non risponde/);
    expect(screen.getByRole('status', { name: 'Provenienza dei dati' })).toHaveTextContent(
      'non consuma altre ricerche',
    );
  });

  it('names the aid fields the live answers leave out, and says nothing of them when no code came live', () => {
    const { unmount } = render(
      <DataSourcesNotice
        result={{
          dataSource: 'LIVE',
          sources: [
            {
              taxCode: '01234567897',
              source: 'LIVE',
              asOf: at,
              missingFields: ['soggettoConcedente', 'cup', 'importoNominale'],
            },
          ],
        }}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      /non riporta .*: soggetto concedente, CUP, importo nominale \(indicato pari all’elemento di aiuto/,
    );
    unmount();
    render(
      <DataSourcesNotice
        result={{
          dataSource: 'LIVE',
          sources: [{ taxCode: '01234567897', source: 'ARCHIVE', asOf: at, liveFallback: 'PACED' }],
        }}
      />,
    );
    expect(screen.getByRole('status')).not.toHaveTextContent('non riporta');
  });

  it('says nothing in archive mode, where the banner gives the date', () => {
    const { container } = render(
      <DataSourcesNotice
        result={{ dataSource: 'ARCHIVE', sources: [{ taxCode: '01234567897', source: 'ARCHIVE', asOf: at }] }}
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
