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
    const march = screen.getByRole('button', { name: `2024_03 ${formatDateTime(UPDATED)}` });
    expect(screen.getByRole('button', { name: /2024_02_002/ })).toHaveTextContent('Mai');
    expect(march).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(march);
    expect(march).toHaveAttribute('aria-pressed', 'true');
    expect(march).toHaveClass('archive-file--selected');
    await userEvent.click(march);
    expect(march).not.toHaveClass('archive-file--selected');
  });

  it('colours cards by their latest outcome, green or red', () => {
    render(<Selectable />);
    expect(screen.getByRole('button', { name: /2024_03/ })).toHaveClass('status--success');
    expect(screen.getByRole('button', { name: /2024_02_002/ })).toHaveClass('status--error');
    expect(screen.getByRole('button', { name: /2024_02 / })).not.toHaveClass(
      'status--success',
      'status--error',
    );
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

  it('while a sync runs, a file it has finished is a green card with its new date, not "Mai"', async () => {
    const onToggle = jest.fn();
    const done = archiveFile('2024_02_002', { status: 'SUCCESS', lastUpdate: UPDATED, progress: 100 });
    const runFiles = new Map([
      ['2024_02_002', done],
      ['2024_02', archiveFile('2024_02', { status: 'DOWNLOADING', progress: 5 })],
    ]);
    const shown = [archiveFile('2024_03'), done, archiveFile('2024_02')];
    render(<ArchiveGrid files={shown} runFiles={runFiles} running selected={[]} onToggle={onToggle} />);
    const card = screen.getByRole('button', { name: `2024_02_002 ${formatDateTime(UPDATED)}` });
    expect(card).toHaveClass('status--success');
    expect(card).not.toHaveTextContent('Mai');
    await userEvent.click(card);
    expect(onToggle).toHaveBeenCalledWith('2024_02_002');
  });
});
