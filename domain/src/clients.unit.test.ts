import {
  clientDecider,
  clientStatusLabel,
  endDateFromDay,
  isAccessExpired,
  renewedEndDate,
  renewEndDate,
} from './clients';
import { stateOf } from './decider';
import type { Actor, ClientEvent } from './events';
import { deciderSpecification } from './testing';

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
    // the message names the end date and quotes what was sent
    expect(() => endDateFromDay('15-01-2025')).toThrow('Data di scadenza non valida: "15-01-2025"');
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

describe('the client decider', () => {
  const spec = deciderSpecification(clientDecider);
  const admin: Actor = { userId: 'admin-1', email: 'admin@portale.it', role: 'ADMIN' };
  const at = '2026-01-05T10:00:00.000Z';
  const invited: ClientEvent = {
    type: 'ClientInvited',
    data: { clientId: 'c1', email: 'studio@rossi.it', fixedTaxCode: null, invitedAt: at, by: admin },
  };
  const activated: ClientEvent = { type: 'ClientActivated', data: { clientId: 'c1', activatedAt: at } };
  const removed: ClientEvent = { type: 'ClientRemoved', data: { clientId: 'c1', by: admin } };

  it('assigns a logo and removes a client', () => {
    spec
      .given([invited])
      .when({ type: 'AssignLogo', data: { clientId: 'c1', logoId: 7, by: admin } })
      .then([{ type: 'ClientLogoAssigned', data: { clientId: 'c1', logoId: 7, by: admin } }]);
    spec
      .given([invited, activated])
      .when({ type: 'RemoveClient', data: { clientId: 'c1', by: admin } })
      .then([removed]);
  });

  it('keeps a client after its other events: a sign-in, a flag, a logo', () => {
    const history: ClientEvent[] = [
      invited,
      activated,
      { type: 'ClientAccessed', data: { clientId: 'c1', accessedAt: at } },
      { type: 'ClientPdfEnabledSet', data: { clientId: 'c1', enabled: true, by: admin } },
      { type: 'ClientLogoAssigned', data: { clientId: 'c1', logoId: 7, by: admin } },
    ];
    spec
      .given(history)
      .when({ type: 'RecordSignIn', data: { clientId: 'c1', at } })
      .then([{ type: 'ClientAccessed', data: { clientId: 'c1', accessedAt: at } }]);
  });

  it('forgets a removed client’s address and password: the stream is as if it was never invited', () => {
    expect(stateOf(clientDecider, [invited, activated, removed])).toEqual(clientDecider.initialState);
  });
});
