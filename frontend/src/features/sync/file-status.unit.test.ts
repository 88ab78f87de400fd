import type { RegisterFileStatus } from '@rna/domain';
import i18n from 'i18next';
import { compareArchiveNames, displayName, fileStatusView, finishedTone } from './file-status';

describe('archive file status labels', () => {
  it('maps each state to its catalogue label and colour, the download percentage with 2 decimals', () => {
    const shown = (status: RegisterFileStatus, progress: number) => {
      const view = fileStatusView(status, progress);
      return [view.tone, i18n.t(view.labelKey, view.values)];
    };
    expect(shown('PENDING', 0)).toEqual(['pending', 'In attesa']);
    expect(shown('DOWNLOADING', 42.456)).toEqual(['downloading', '42,46%']);
    expect(shown('DOWNLOADING', 7)).toEqual(['downloading', '7,00%']);
    expect(shown('PARSING', 100)).toEqual(['parsing', 'Elaborazione']);
    expect(shown('SUCCESS', 100)).toEqual(['success', 'Completato']);
    expect(shown('ERROR', 3)).toEqual(['error', 'Errore']);
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
