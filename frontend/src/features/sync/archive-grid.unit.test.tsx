import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { formatDateTime } from '../../lib/domain-rules';
import { ArchiveGrid } from './archive-grid';
import { archiveFile } from '../../test/archive-files';

const UPDATED = new Date(2024, 2, 5, 10, 30).getTime();
const files = [
  archiveFile('2024_03', { lastUpdate: UPDATED, status: 'SUCCESS' }),
  archiveFile('2024_02_002', { status: 'ERROR' }),
  archiveFile('2024_02'),
];

function Selectable() {
  const [selected, setSelected] = useState<string[]>([]);
  return (
    <ArchiveGrid
      files={files}
      runFiles={new Map()}
      running={false}
      selected={selected}
      onToggle={(name) => setSelected((s) => (s.includes(name) ? s.filter((n) => n !== name) : [...s, name]))}
    />
  );
}

describe('archive grid', () => {
  it('shows each file by name and last update, selected by click and highlighted', async () => {
    render(<Selectable />);
    const march = screen.getByRole('button', { name: `2024_03 ${formatDateTime(UPDATED)} Completato` });
    expect(screen.getByRole('button', { name: /2024_02_002/ })).toHaveTextContent('Mai');
    expect(march).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(march);
    expect(march).toHaveAttribute('aria-pressed', 'true');
    expect(march).toHaveClass('archive-file--selected');
    await userEvent.click(march);
    expect(march).not.toHaveClass('archive-file--selected');
  });

  it('colours cards by their latest outcome, green or red, and says it in words and a symbol too', () => {
    render(<Selectable />);
    const imported = screen.getByRole('button', { name: /2024_03/ });
    const failed = screen.getByRole('button', { name: /2024_02_002/ });
    const never = screen.getByRole('button', { name: /2024_02 / });
    expect(imported).toHaveClass('status--success');
    expect(failed).toHaveClass('status--error');
    expect(never).not.toHaveClass('status--success', 'status--error');
    // not by colour alone: the outcome is visible text with a symbol, and part of the card's name
    expect(imported).toHaveTextContent('✓ Completato');
    expect(imported).toHaveAccessibleName(/ Completato$/);
    expect(failed).toHaveTextContent('✕ Errore');
    expect(failed).toHaveAccessibleName('2024_02_002 Mai Errore');
    expect(never).toHaveAccessibleName('2024_02 Mai');
  });

  it('says under a file how many of its aids the index set aside in the sync', () => {
    const runFiles = new Map([
      ['2024_03', { ...archiveFile('2024_03', { status: 'SUCCESS' }), recordsSetAside: 2 }],
      ['2024_02', { ...archiveFile('2024_02', { status: 'SUCCESS' }), recordsSetAside: 0 }],
    ]);
    render(
      <ArchiveGrid files={files} runFiles={runFiles} running={false} selected={[]} onToggle={() => {}} />,
    );
    const march = screen.getByRole('button', { name: /2024_03/ }).closest('li')!;
    expect(march).toHaveTextContent('2 record non indicizzati: messi da parte dopo più tentativi');
    expect(screen.getAllByText(/messi? da parte/)).toHaveLength(1);
  });

  it('while a sync runs, shows active files as progress cards with the download percentage', () => {
    const runFiles = new Map([
      ['2024_03', archiveFile('2024_03', { status: 'DOWNLOADING', progress: 37.5 })],
      ['2024_02', archiveFile('2024_02', { status: 'PARSING' })],
    ]);
    render(<ArchiveGrid files={files} runFiles={runFiles} running selected={[]} onToggle={jest.fn()} />);
    const cards = screen.getAllByRole('listitem');
    expect(cards[0]).toHaveClass('status--downloading');
    expect(within(cards[0]!).getByText('37,50%')).toBeInTheDocument();
    expect(cards[2]).toHaveClass('status--parsing');
    expect(within(cards[2]!).getByText('Elaborazione')).toBeInTheDocument();
    // only the file outside the run is still a selectable card, and it stays selectable (SPEC §4)
    expect(screen.getAllByRole('button')).toHaveLength(1);
    expect(screen.getByRole('button', { name: /2024_02_002/ })).toBeEnabled();
  });

  it('says under a file’s card how many records its import rejected, and lists them with their reasons', async () => {
    const rejected = [
      { idComponenteAiuto: '1003', reason: 'IMPORTO_NEGATIVO' as const, message: 'Importo negativo (elemento di aiuto): -500.000,00 €' },
      { idComponenteAiuto: '1004', reason: 'DATA_NON_VALIDA' as const, message: 'Data di concessione non valida: 2026-13-45' },
      { idComponenteAiuto: '1005', reason: 'DATA_FUORI_INTERVALLO' as const, message: 'Data di concessione fuori dall’intervallo ammesso (1990-01-01 – 2025-03-15): 9999-12-31' },
      { idComponenteAiuto: '1006', reason: 'DATA_NON_VALIDA' as const, message: 'Data di concessione non valida: 2023-02-29' },
    ]; // prettier-ignore
    const shown = [
      archiveFile('2024_03', {
        status: 'SUCCESS',
        lastUpdate: UPDATED,
        records: 3,
        recordsRejected: 4,
        rejected,
      }),
      archiveFile('2024_02', { status: 'SUCCESS', lastUpdate: UPDATED, records: 9 }),
    ];
    render(
      <ArchiveGrid files={shown} runFiles={new Map()} running={false} selected={[]} onToggle={jest.fn()} />,
    );

    // the card keeps its name and date, and says "SUCCESS with 4 rejected" under it and as its tooltip
    const card = screen.getByRole('button', { name: `2024_03 ${formatDateTime(UPDATED)} Completato` });
    expect(card).toHaveTextContent('Completato');
    const link = screen.getByRole('button', { name: 'Completato con 4 record scartati' });
    // a file whose import rejected nothing says just "Completato"
    expect(screen.getByRole('button', { name: /2024_02/ })).toHaveTextContent('✓ Completato');
    expect(screen.getAllByText(/record scartat/)).toHaveLength(1);

    await userEvent.click(link);
    const dialog = screen.getByRole('dialog', { name: 'Record scartati: 2024_03' });
    expect(dialog).toHaveTextContent('ha scartato 4 record pubblicati dal registro con dati non validi');
    const rows = within(dialog).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['1003', 'Importo negativo', 'Importo negativo (elemento di aiuto): -500.000,00 €'],
      ['1004', 'Data di concessione non valida', 'Data di concessione non valida: 2026-13-45'],
      ['1005', 'Data di concessione fuori intervallo', rejected[2]!.message],
      ['1006', 'Data di concessione non valida', 'Data di concessione non valida: 2023-02-29'],
    ]);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('counts every rejected record in the singular or plural, and says when only the first are listed', async () => {
    const one = { idComponenteAiuto: '7', reason: 'ID_NON_VALIDO' as const, message: 'x' };
    const listed = Array.from({ length: 100 }, (_, i) => ({ ...one, idComponenteAiuto: String(i + 1) }));
    const shown = [
      archiveFile('2024_03', { status: 'SUCCESS', recordsRejected: 1, rejected: [one] }),
      archiveFile('2024_02', { status: 'SUCCESS', recordsRejected: 1_234, rejected: listed }),
      // a failed file's list of the earlier import is not offered: the card is red with its error
      archiveFile('2024_01', { status: 'ERROR', recordsRejected: 2, rejected: [one, one] }),
    ];
    render(
      <ArchiveGrid files={shown} runFiles={new Map()} running={false} selected={[]} onToggle={jest.fn()} />,
    );
    expect(screen.getByRole('button', { name: 'Completato con 1 record scartato' })).toBeInTheDocument();
    expect(screen.queryAllByText(/record scartat/)).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Completato con 1.234 record scartati' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('ha scartato 1.234 record');
    expect(dialog).toHaveTextContent('Sono elencati i primi 100.');
    // ten to a page
    expect(within(dialog).getAllByRole('row')).toHaveLength(11);
  });

  it('while a sync runs, a file it has finished is a green card with its new date, not "Mai"', async () => {
    const onToggle = jest.fn();
    const done = archiveFile('2024_02_002', { status: 'SUCCESS', lastUpdate: UPDATED, progress: 100 });
    const runFiles = new Map([
      ['2024_02_002', done],
      ['2024_02', archiveFile('2024_02', { status: 'DOWNLOADING', progress: 5 })],
    ]);
    const shown = [archiveFile('2024_03'), done, archiveFile('2024_02')];
    render(<ArchiveGrid files={shown} runFiles={runFiles} running selected={[]} onToggle={onToggle} />);
    const card = screen.getByRole('button', { name: `2024_02_002 ${formatDateTime(UPDATED)} Completato` });
    expect(card).toHaveClass('status--success');
    expect(card).not.toHaveTextContent('Mai');
    await userEvent.click(card);
    expect(onToggle).toHaveBeenCalledWith('2024_02_002');
  });
});
