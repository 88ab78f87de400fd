import { compareArchiveNames, displayName, fileStatusView, finishedTone } from './file-status';

describe('archive file status labels', () => {
  it('maps each state to its label and colour', () => {
    expect(fileStatusView('PENDING', 0)).toEqual({ tone: 'pending', label: 'In attesa' });
    expect(fileStatusView('DOWNLOADING', 42.456)).toEqual({ tone: 'downloading', label: '42,46%' });
    expect(fileStatusView('PARSING', 100)).toEqual({ tone: 'parsing', label: 'Elaborazione' });
    expect(fileStatusView('SUCCESS', 100)).toEqual({ tone: 'success', label: 'Completato' });
    expect(fileStatusView('ERROR', 3)).toEqual({ tone: 'error', label: 'Errore' });
  });
  it('shows names without the open-data prefix, newest first by year, month and part', () => {
    expect(displayName('OpenData_Aiuti_2024_02_002.xml')).toBe('2024_02_002');
    const names = ['2023_12', '2024_02', '2024_02_002', '2024_01'];
    expect([...names].sort(compareArchiveNames)).toEqual(['2024_02_002', '2024_02', '2024_01', '2023_12']);
  });
  it('colours a selectable card green or red by its latest outcome only', () => {
    expect(finishedTone('SUCCESS')).toBe('success');
    expect(finishedTone('ERROR')).toBe('error');
    // outside a run a pending or downloading state is stale, so the card stays plain
    expect(['PENDING', 'DOWNLOADING', 'PARSING', null].map((s) => finishedTone(s as never))).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});
