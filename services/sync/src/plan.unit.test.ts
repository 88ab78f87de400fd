import type { RegisterFileInfo } from '@rna/infra/register';
import { percentage } from './live-progress';
import { filesGoneFromRegister, planFiles } from './plan';
import { isUnchanged } from './worker';

const file = (name: string): RegisterFileInfo => {
  const [year, month, part] = name.split('_').map(Number);
  return {
    name, fileName: `OpenData_Aiuti_${name}.xml`, nid: '1', formats: ['xml'], year: year as number, month: month as number,
    part: part ?? 1, etag: '"a"', lastModified: 'Fri, 01 Mar 2024 08:00:00 GMT', size: 10,
  }; // prettier-ignore
};
const files = [
  '2013_12',
  '2021_04',
  '2021_03',
  '2023_04',
  '2023_03',
  '2024_02',
  '2024_02_002',
  '2024_03',
].map(file);
const now = new Date('2024-03-15T00:00:00Z');

describe('planFiles', () => {
  it('covers 12 months for last year, 36 for last 3 years, 120 for all, newest first', () => {
    expect(planFiles(files, 'LAST_YEAR', [], now).map((f) => f.name)).toEqual([
      '2024_03',
      '2024_02_002',
      '2024_02',
      '2023_04',
    ]);
    expect(planFiles(files, 'LAST_3_YEARS', [], now).map((f) => f.name)).toContain('2021_04');
    expect(planFiles(files, 'LAST_3_YEARS', [], now).map((f) => f.name)).not.toContain('2021_03');
    expect(planFiles(files, 'ALL', [], now).map((f) => f.name)).not.toContain('2013_12');
  });
  it('takes exactly the selected files for a custom sync', () => {
    expect(
      planFiles(files, 'CUSTOM', ['OpenData_Aiuti_2013_12.xml', '2024_02_002', '2030_01'], now).map(
        (f) => f.name,
      ),
    ).toEqual(['2024_02_002', '2013_12']);
  });
});

describe('change detection and progress', () => {
  it('skips a file only when its ETag (or, without one, Last-Modified) is the same', () => {
    const last = {
      id: '2024_03',
      etag: '"a"',
      lastModified: 'x',
      records: 1,
      importId: 'i',
      succeededAt: '',
    };
    expect(isUnchanged(file('2024_03'), last)).toBe(true);
    expect(isUnchanged({ ...file('2024_03'), etag: '"b"' }, last)).toBe(false);
    expect(isUnchanged({ ...file('2024_03'), etag: null, lastModified: 'x' }, last)).toBe(true);
    expect(isUnchanged(file('2024_03'), null)).toBe(false);
  });
  it('reports download percentages with 2 decimals', () => {
    expect(percentage(1, 3)).toBe(33.33);
    expect(percentage(5, null)).toBe(0);
    expect(percentage(10, 10)).toBe(100);
  });
});

describe('files that left the register', () => {
  const imported = ['2024_03', '2024_02', '2024_02_002', '2023_04', '2023_03', '2021_04'];

  it('are the imported files a complete listing no longer has, inside the 10 years', () => {
    const listed = ['2024_03', '2024_02', '2023_04', '2023_03', '2021_04', '2024_01'];
    expect(filesGoneFromRegister(listed, imported, now)).toEqual({ gone: ['2024_02_002'], fault: null });
    // a file older than the 10 years is not in the listing's scope: never taken as gone
    expect(filesGoneFromRegister(listed, [...imported, '2013_12'], now)).toEqual({
      gone: ['2024_02_002'],
      fault: null,
    });
    expect(filesGoneFromRegister([...listed, '2024_02_002'], imported, now)).toEqual({
      gone: [],
      fault: null,
    });
  });

  it('are none, with a fault, when the listing is empty or loses more than a fifth at once', () => {
    expect(filesGoneFromRegister([], imported, now)).toEqual({
      gone: [],
      fault: expect.stringMatching(/vuoto/),
    });
    // 2 of 6 gone: more than a fifth
    expect(filesGoneFromRegister(['2024_03', '2024_02', '2023_04', '2023_03'], imported, now)).toEqual({
      gone: [],
      fault: expect.stringMatching(/mancano 2 dei 6/),
    });
    // nothing imported yet: nothing can be gone, even from an empty listing
    expect(filesGoneFromRegister([], [], now)).toEqual({ gone: [], fault: null });
  });
});
