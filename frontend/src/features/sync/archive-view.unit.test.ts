import type { ArchiveFileDto } from '@rna/domain';
import { archiveView, runSignature } from './archive-view';
import { archiveFile } from '../../test/archive-files';

const byName = (files: ArchiveFileDto[]) => new Map(files.map((f) => [f.name, f]));

describe('archive view', () => {
  it('on a first sync shows the run’s files, newest first, though the archive list is still empty', () => {
    const run = [
      archiveFile('2024_01', { status: 'PENDING' }),
      archiveFile('2024_02_002', { status: 'DOWNLOADING' }),
    ];
    expect(archiveView([], byName(run)).map((f) => f.name)).toEqual(['2024_02_002', '2024_01']);
  });

  it('keeps files outside the run and takes the newer date of list and run', () => {
    const list = [archiveFile('2023_12', { lastUpdate: 5 }), archiveFile('2024_01', { lastUpdate: 10 })];
    const run = [
      archiveFile('2024_01', { status: 'SUCCESS', lastUpdate: 20 }),
      archiveFile('2024_02', { lastUpdate: null }),
    ];
    const shown = archiveView(list, byName(run));
    expect(shown.map((f) => [f.name, f.lastUpdate])).toEqual([
      ['2024_02', null],
      ['2024_01', 20],
      ['2023_12', 5],
    ]);
    // a run file not projected yet keeps the list's date
    expect(archiveView(list, byName([archiveFile('2024_01')]))[0]?.lastUpdate).toBe(10);
  });

  it('shows the rejected records of the newer import, the run’s once it has imported the file', () => {
    const old = { idComponenteAiuto: '1', reason: 'DATA_NON_VALIDA' as const, message: 'vecchio' };
    const fresh = { idComponenteAiuto: '2', reason: 'IMPORTO_NEGATIVO' as const, message: 'nuovo' };
    const list = [archiveFile('2024_01', { lastUpdate: 10, recordsRejected: 1, rejected: [old] })];
    const imported = archiveFile('2024_01', {
      status: 'SUCCESS',
      lastUpdate: 20,
      recordsRejected: 3,
      rejected: [fresh],
    });
    expect(archiveView(list, byName([imported]))[0]).toMatchObject({ recordsRejected: 3, rejected: [fresh] });
    // not imported by the run yet (or skipped as unchanged): the list's last import still holds
    const pending = archiveFile('2024_01', { status: 'PENDING', lastUpdate: 10 });
    expect(archiveView(list, byName([pending]))[0]).toMatchObject({ recordsRejected: 1, rejected: [old] });
  });

  it('the run signature changes when a file joins, changes state or gets its date, not on progress', () => {
    const a = [archiveFile('2024_01', { status: 'DOWNLOADING', progress: 10 })];
    const progressed = [archiveFile('2024_01', { status: 'DOWNLOADING', progress: 60 })];
    const parsed = [archiveFile('2024_01', { status: 'PARSING' })];
    const imported = [archiveFile('2024_01', { status: 'SUCCESS' })];
    const dated = [archiveFile('2024_01', { status: 'SUCCESS', lastUpdate: 1 })];
    const joined = [...a, archiveFile('2024_02', { status: 'PENDING' })];
    expect(runSignature(progressed)).toBe(runSignature(a));
    const all = [a, parsed, imported, dated, joined].map(runSignature);
    expect(new Set(all).size).toBe(all.length);
  });
});
