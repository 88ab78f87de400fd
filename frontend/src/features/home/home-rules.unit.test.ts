import { alertColumns } from './alerts-columns';
import { homeRedirect } from './home-redirect';

describe('home', () => {
  it('redirects a fixed tax code with both flags false, before any saved search', () => {
    expect(
      homeRedirect('01234567890', [
        { id: '1', taxCodes: ['X1234567890'], deMinimis: true, last3Years: true },
      ]),
    ).toBe('/documents?taxCode=01234567890&deMinimis=false&last3Years=false');
  });
  it('redirects to the first saved search, or stays', () => {
    expect(
      homeRedirect(null, [
        { id: '1', taxCodes: ['A1234567890', 'B1234567890'], deMinimis: true, last3Years: false },
      ]),
    ).toBe('/documents?taxCode=A1234567890%2CB1234567890&deMinimis=true&last3Years=false');
    expect(homeRedirect(null, [])).toBeNull();
  });
  it('lays alerts out in 1, 2 or 3 columns by count', () => {
    expect([0, 1, 2, 3, 10].map(alertColumns)).toEqual([1, 1, 2, 3, 3]);
  });
});
