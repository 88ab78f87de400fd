import { parseDateInput } from './date-input';

describe('date input (dd-mm-yyyy [hh:mm])', () => {
  it('accepts valid dates and times', () => {
    expect(parseDateInput('29-02-2024')?.getDate()).toBe(29);
    const withTime = parseDateInput('01-12-2025 23:59');
    expect([withTime?.getMonth(), withTime?.getHours(), withTime?.getMinutes()]).toEqual([11, 23, 59]);
  });
  it('rejects impossible days, months, hours and minutes', () => {
    for (const text of [
      '29-02-2023',
      '31-04-2024',
      '00-01-2024',
      '10-13-2024',
      '10-00-2024',
      '01-01-24',
      '01-01-2024 24:00',
      '01-01-2024 10:60',
      'abc',
    ]) {
      expect(parseDateInput(text)).toBeNull();
    }
  });
});
