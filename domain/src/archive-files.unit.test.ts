import {
  archiveDisplayName,
  isSyncScope,
  monthsForScope,
  parseArchiveFileName,
  parseArchiveName,
  selectFilesForScope,
  sortArchiveFilesNewestFirst,
  sortArchiveNamesNewestFirst,
  type ArchiveFileName,
} from './archive-files';

const files = (...names: string[]): ArchiveFileName[] =>
  names.map((name) => {
    const parsed = parseArchiveFileName(name);
    if (!parsed) throw new Error(`not an archive name: ${name}`);
    return parsed;
  });

describe('archive file names', () => {
  it('parses a month file and its further parts, .xml or .zip', () => {
    expect(parseArchiveFileName('OpenData_Aiuti_2024_02.xml')).toEqual({
      year: 2024,
      month: 2,
      part: 1,
      displayName: '2024_02',
      fileName: 'OpenData_Aiuti_2024_02.xml',
    });
    expect(parseArchiveFileName('OpenData_Aiuti_2024_02_002.zip')).toEqual({
      year: 2024,
      month: 2,
      part: 2,
      displayName: '2024_02_002',
      fileName: 'OpenData_Aiuti_2024_02_002.zip',
    });
    expect(parseArchiveFileName('OpenData_Aiuti_2024_02_006')?.part).toBe(6);
  });

  it('takes December, any case of the name, and the spaces around it', () => {
    expect(parseArchiveFileName(' opendata_aiuti_2023_12.XML ')).toEqual({
      year: 2023,
      month: 12,
      part: 1,
      displayName: '2023_12',
      fileName: 'opendata_aiuti_2023_12.XML',
    });
  });

  it('returns null for other names', () => {
    for (const name of [
      'OpenData_Aiuto_2024_02.xml', // singular
      'OpenData_Aiuti_2024_13.xml',
      'OpenData_Aiuti_2024_2.xml',
      'OpenData_Aiuti_2024_02_02.xml',
      'OpenData_Aiuti_2024_02.csv',
      'OpenData_Aiuti_2024_00.xml',
      'OpenData_Aiuti_2024_02_000.xml',
      'OpenData_Aiuti_24_02.xml',
      'OpenData_Aiuti_2024_02.xml.bak',
      'old_OpenData_Aiuti_2024_02.xml',
      'OpenData_Misure_2024_02.xml',
      'readme.txt',
      '',
    ]) {
      expect(parseArchiveFileName(name)).toBeNull();
    }
  });

  it('shows names without the open-data prefix', () => {
    expect(archiveDisplayName('OpenData_Aiuti_2015_01.xml')).toBe('2015_01');
    expect(archiveDisplayName('OpenData_Aiuti_2024_02_003.zip')).toBe('2024_02_003');
    expect(archiveDisplayName('something-else.xml')).toBe('something-else.xml');
  });

  it('reads display names too', () => {
    expect(parseArchiveName('2024_02_002')).toMatchObject({ year: 2024, month: 2, part: 2 });
    expect(parseArchiveName('2024_00')).toBeNull();
    expect(parseArchiveName(' 2024_02 ')).toEqual({
      year: 2024,
      month: 2,
      part: 1,
      displayName: '2024_02',
      fileName: 'OpenData_Aiuti_2024_02.xml',
    });
    expect(parseArchiveName('OpenData_Aiuti_2024_02_002.zip')?.displayName).toBe('2024_02_002');
    for (const name of ['2024_13', '2024_2', 'x2024_02', '2024_02_002x', '2024_02_000']) {
      expect(parseArchiveName(name)).toBeNull();
    }
  });
});

describe('newest-first order', () => {
  it('sorts by year, month, then part, all descending', () => {
    const sorted = sortArchiveFilesNewestFirst(
      files(
        'OpenData_Aiuti_2023_12.xml',
        'OpenData_Aiuti_2024_02.xml',
        'OpenData_Aiuti_2024_02_003.xml',
        'OpenData_Aiuti_2024_01.xml',
        'OpenData_Aiuti_2024_02_002.xml',
        'OpenData_Aiuti_2024_10.xml',
      ),
    );
    expect(sorted.map((file) => file.displayName)).toEqual([
      '2024_10',
      '2024_02_003',
      '2024_02_002',
      '2024_02',
      '2024_01',
      '2023_12',
    ]);
  });

  it('sorts display names the same way, unknown names last', () => {
    expect(
      sortArchiveNamesNewestFirst(['2023_12', 'zeta', '2024_02', 'alpha', '2024_02_002', '2024_11']),
    ).toEqual(['2024_11', '2024_02_002', '2024_02', '2023_12', 'alpha', 'zeta']);
    // whichever comes first in the list
    expect(sortArchiveNamesNewestFirst(['zeta', '2023_12', 'alpha'])).toEqual(['2023_12', 'alpha', 'zeta']);
    expect(sortArchiveNamesNewestFirst(['2023_12', 'zeta', 'alpha'])).toEqual(['2023_12', 'alpha', 'zeta']);
    // also an unknown name that the alphabet puts before digits ('_' sorts before '2')
    expect(sortArchiveNamesNewestFirst(['_leggimi', '2024_01'])).toEqual(['2024_01', '_leggimi']);
    expect(sortArchiveNamesNewestFirst(['2024_01', '_leggimi'])).toEqual(['2024_01', '_leggimi']);
  });
});

describe('sync scopes', () => {
  const now = new Date('2025-03-15T10:00:00Z');

  it('knows its scopes', () => {
    expect(isSyncScope('LAST_3_YEARS')).toBe(true);
    expect(isSyncScope('LAST_MONTH')).toBe(false);
    for (const scope of ['LAST_YEAR', 'ALL', 'CUSTOM']) expect(isSyncScope(scope)).toBe(true);
    for (const value of [null, 12, ['ALL'], 'all', '']) expect(isSyncScope(value)).toBe(false);
  });

  it('LAST_YEAR is the 12 months ending with the current month', () => {
    const months = monthsForScope('LAST_YEAR', now);
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ year: 2025, month: 3 });
    expect(months[11]).toEqual({ year: 2024, month: 4 });
  });

  it('LAST_3_YEARS is 36 months and ALL the last 10 years (120 months)', () => {
    const three = monthsForScope('LAST_3_YEARS', now);
    expect(three).toHaveLength(36);
    expect(three[35]).toEqual({ year: 2022, month: 4 });
    const all = monthsForScope('ALL', now);
    expect(all).toHaveLength(120);
    expect(all[119]).toEqual({ year: 2015, month: 4 });
    expect(monthsForScope('CUSTOM', now)).toEqual([]);
  });

  it('uses the month in Rome', () => {
    // 23:30 UTC on 31 Mar is 1 Apr in Rome
    expect(monthsForScope('LAST_YEAR', new Date('2025-03-31T22:30:00Z'))[0]).toEqual({
      year: 2025,
      month: 4,
    });
  });

  const listing = files(
    'OpenData_Aiuti_2025_03.xml',
    'OpenData_Aiuti_2024_04.xml',
    'OpenData_Aiuti_2024_04_002.xml',
    'OpenData_Aiuti_2024_03.xml', // 13 months back: outside LAST_YEAR
    'OpenData_Aiuti_2022_04.xml',
    'OpenData_Aiuti_2022_03.xml',
    'OpenData_Aiuti_2015_04.zip',
    'OpenData_Aiuti_2015_03.xml',
    'OpenData_Aiuti_2014_12.xml',
  );
  const names = (selected: ArchiveFileName[]) => selected.map((file) => file.displayName);

  it('selects the files of the scope’s months, newest first', () => {
    expect(names(selectFilesForScope(listing, 'LAST_YEAR', now))).toEqual([
      '2025_03',
      '2024_04_002',
      '2024_04',
    ]);
    expect(names(selectFilesForScope(listing, 'LAST_3_YEARS', now))).toEqual([
      '2025_03',
      '2024_04_002',
      '2024_04',
      '2024_03',
      '2022_04',
    ]);
    expect(names(selectFilesForScope(listing, 'ALL', now))).toHaveLength(7);
    expect(names(selectFilesForScope(listing, 'ALL', now))).not.toContain('2015_03');
    // onlyDocuments does not narrow the other scopes
    expect(selectFilesForScope(listing, 'LAST_YEAR', now, ['2025_03'])).toHaveLength(3);
  });

  it('CUSTOM selects exactly the named files, by display or file name', () => {
    expect(
      names(selectFilesForScope(listing, 'CUSTOM', now, ['2014_12', 'OpenData_Aiuti_2024_04_002.xml'])),
    ).toEqual(['2024_04_002', '2014_12']);
    // the zip listed, the xml asked for: same file of the register
    expect(names(selectFilesForScope(listing, 'CUSTOM', now, ['OpenData_Aiuti_2015_04.xml']))).toEqual([
      '2015_04',
    ]);
    expect(selectFilesForScope(listing, 'CUSTOM', now, ['2099_01', 'junk'])).toEqual([]);
    expect(selectFilesForScope(listing, 'CUSTOM', now)).toEqual([]);
    // a name copied with spaces around it, asked twice, selects its file once
    expect(
      names(selectFilesForScope(listing, 'CUSTOM', now, [' OpenData_Aiuti_2015_04.zip ', '2015_04'])),
    ).toEqual(['2015_04']);
    // a file name copied with spaces selects that very file, not the other spelling of its month
    const both = files('OpenData_Aiuti_2024_05.xml', 'OpenData_Aiuti_2024_05.zip');
    expect(
      selectFilesForScope(both, 'CUSTOM', now, ['  OpenData_Aiuti_2024_05.zip ']).map(
        (file) => file.fileName,
      ),
    ).toEqual(['OpenData_Aiuti_2024_05.zip']);
  });

  it('CUSTOM takes the very file named when the listing has it in two spellings', () => {
    const both = files('OpenData_Aiuti_2024_04.xml', 'OpenData_Aiuti_2024_04.zip');
    expect(
      selectFilesForScope(both, 'CUSTOM', now, ['OpenData_Aiuti_2024_04.zip']).map((f) => f.fileName),
    ).toEqual(['OpenData_Aiuti_2024_04.zip']);
    expect(selectFilesForScope(both, 'CUSTOM', now, ['2024_04'])).toHaveLength(2);
  });
});
