import type { HeadroomDto } from '@rna/domain';
import { headroomHtml } from './headroom-report';
import { escapeHtml } from './pdf-template';

const zero = { GENERAL: '0.00', AGRICULTURE: '0.00', FISHERIES: '0.00', SIEG: '0.00' };
const headroom: HeadroomDto = {
  taxCodes: ['01234567897', '98765432109'],
  date: '2025-06-30',
  regime: 'GENERAL',
  windowStart: '2022-07-01',
  usedByRegime: { ...zero, GENERAL: '270000.00' },
  limits: [
    {
      ceiling: '300000.00',
      regimes: ['GENERAL', 'AGRICULTURE', 'FISHERIES'],
      used: '270000.00',
      remaining: '30000.00',
    },
  ],
  headroom: '30000.00',
  releases: [{ date: '2027-04-01', amount: '120000.00' }],
  perCompany: [
    { taxCode: '01234567897', name: 'ACME <S.R.L.>', usedByRegime: { ...zero, GENERAL: '120000.00' } },
    { taxCode: '98765432109', name: 'BETA S.P.A.', usedByRegime: { ...zero, GENERAL: '150000.00' } },
  ],
  unknownRegulationAids: 0,
  group: { id: 'g1', name: 'Gruppo & soci' },
};

describe('the PDF’s headroom section', () => {
  it('names the group, its headroom, limits, each member’s share and the releases, escaped', () => {
    const text = headroomHtml([headroom], escapeHtml).replace(/\s+/g, ' ');
    expect(text).toContain('Impresa unica «Gruppo &amp; soci»');
    expect(text).toMatch(/30\.000,00\s€/);
    expect(text).toContain('Generale + Agricoltura + Pesca');
    expect(text).toContain('ACME &lt;S.R.L.&gt; (01234567897)');
    expect(text).toMatch(/si liberano 120\.000,00\s€ il 01-04-2027/);
    expect(text).toContain('SIAN');
  });

  it('is absent when no headroom was asked for', () => {
    expect(headroomHtml([], escapeHtml)).toBe('');
  });
});
