import { fireEvent, screen } from '@testing-library/react';
import { clientUser, signedInRoutes, startRememberedApp, startSignedOutApp } from '../../test/app';

const ISSUED = {
  code: 'ABCD-2345-WXYZ-G',
  issuedAt: Date.UTC(2026, 2, 10, 9, 30),
  kind: 'pdf',
  taxCodes: ['01234567897', '12345678903'],
  organisation: 'Studio Bianchi',
};

describe('Verifica di un resoconto', () => {
  it('tells anyone, without signing in, what the portal issued under a code', async () => {
    const { calls } = startSignedOutApp(
      { 'GET /api/reports/verify/ABCD-2345-WXYZ-G': { status: 200, body: ISSUED } },
      '/verifica/ABCD-2345-WXYZ-G',
    );
    const answer = await screen.findByRole('status');
    expect(answer).toHaveTextContent('Resoconto emesso dal portale');
    expect(answer).toHaveTextContent('01234567897, 12345678903');
    expect(answer).toHaveTextContent('Studio Bianchi');
    expect(answer).toHaveTextContent('Resoconto PDF');
    expect(answer).toHaveTextContent('10-03-2026 10:30');
    expect(calls).toContain('GET /api/reports/verify/ABCD-2345-WXYZ-G');
  });

  it('says so when the portal never issued the code, in the spec’s words for R002', async () => {
    startSignedOutApp(
      { 'GET /api/reports/verify/ABCD-2345-WXYZ-H': { status: 404, body: { code: 'R002', message: 'x' } } },
      '/verifica/ABCD-2345-WXYZ-H',
    );
    const text = (await screen.findAllByRole('alert')).map((alert) => alert.textContent).join(' ');
    expect(text).toContain('Resoconto non riconosciuto');
    expect(text).toContain('Il portale non ha emesso alcun documento con questo codice');
    expect(screen.queryByText('Resoconto emesso dal portale')).toBeNull();
  });

  it('checks a code typed into the form, and is reachable when signed in too', async () => {
    const user = clientUser('c-1', 'studio@example.it');
    const { calls } = await startRememberedApp(
      {
        ...signedInRoutes(user),
        'GET /api/reports/verify/abcd2345wxyzg': { status: 200, body: ISSUED },
      },
      '/verifica',
    );
    fireEvent.change(await screen.findByLabelText('Codice di verifica'), {
      target: { value: ' abcd2345wxyzg ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Verifica' }));
    expect(await screen.findByText('Resoconto emesso dal portale')).toBeInTheDocument();
    expect(calls).toContain('GET /api/reports/verify/abcd2345wxyzg');
  });
});
