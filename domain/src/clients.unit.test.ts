import { clientStatusLabel, endDateFromDay, isAccessExpired, renewedEndDate, renewEndDate } from './clients';

describe('client status label', () => {
  const endDate = Date.UTC(2025, 0, 15, 11, 0); // 15 Jan 2025, 12:00 in Rome

  it("is 'Scaduto' at the end date's instant and after, even for an active client", () => {
    expect(clientStatusLabel({ active: true, endDate }, endDate)).toBe('Scaduto');
    expect(clientStatusLabel({ active: false, endDate }, new Date(endDate + 1))).toBe('Scaduto');
  });

  it("is 'Attivo' for an active client before the end date, else 'In attesa'", () => {
    expect(clientStatusLabel({ active: true, endDate }, endDate - 1)).toBe('Attivo');
    expect(clientStatusLabel({ active: false, endDate }, new Date(endDate - 1))).toBe('In attesa');
  });

  it('agrees with isAccessExpired', () => {
    expect(isAccessExpired(endDate, endDate)).toBe(true);
    expect(isAccessExpired(endDate, endDate - 1)).toBe(false);
  });
});

describe('end dates', () => {
  it('stores the chosen day at 12:00 in Rome, winter and summer', () => {
    expect(endDateFromDay('2025-01-15')).toBe(Date.UTC(2025, 0, 15, 11, 0));
    expect(endDateFromDay('2025-07-15')).toBe(Date.UTC(2025, 6, 15, 10, 0));
  });

  it('refuses a malformed day with J001', () => {
    expect(() => endDateFromDay('15-01-2025')).toThrow(expect.objectContaining({ code: 'J001' }));
    expect(() => endDateFromDay('2025-02-29')).toThrow(expect.objectContaining({ code: 'J001' }));
  });

  it('renews by one calendar year keeping 12:00 in Rome', () => {
    expect(renewEndDate(endDateFromDay('2025-01-15'))).toBe(endDateFromDay('2026-01-15'));
    // 10:00 UTC in summer stays 12:00 Rome the next year
    expect(renewEndDate(endDateFromDay('2025-07-15'))).toBe(Date.UTC(2026, 6, 15, 10, 0));
    // 29 Feb → 28 Feb
    expect(renewEndDate(endDateFromDay('2024-02-29'))).toBe(endDateFromDay('2025-02-28'));
  });

  it('renews from the later of today and the current end date', () => {
    const today = new Date('2026-03-10T09:00:00Z');
    // still active until June: a year from June, nothing lost
    expect(renewedEndDate(endDateFromDay('2026-06-30'), today)).toBe(endDateFromDay('2027-06-30'));
    // ended 400 days ago: a year from today, active again at once
    const longExpired = endDateFromDay('2025-02-03');
    const renewed = renewedEndDate(longExpired, today);
    expect(renewed).toBe(endDateFromDay('2027-03-10'));
    expect(isAccessExpired(renewed, today)).toBe(false);
    // ended this morning: a year from today's noon
    expect(renewedEndDate(Date.parse('2026-03-10T06:00:00Z'), today)).toBe(endDateFromDay('2027-03-10'));
    // never granted: a year from today
    expect(renewedEndDate(null, today)).toBe(endDateFromDay('2027-03-10'));
  });

  it('keeps the wall-clock time across a DST change of day', () => {
    // 30 Mar 2024 was winter time (11:00 UTC at noon); on 30 Mar 2025 summer time starts (10:00 UTC)
    expect(renewEndDate(endDateFromDay('2024-03-30'))).toBe(Date.UTC(2025, 2, 30, 10, 0));
    expect(renewEndDate(endDateFromDay('2024-03-30'))).not.toBe(
      endDateFromDay('2024-03-30') + 365 * 86_400_000,
    );
  });
});
