/**
 * The screens a client meets on its own: the first sign-in with the invitation code (choose a password,
 * then in), an ended subscription and a dead reset link (never a dead end: whom to ask, what to do).
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clientUser, signedInRoutes, startSignedOutApp } from '../../test/app';
import { sentBodies, type FakeRoutes } from '../../test/fake-server';
import { setRuntimeConfig } from '../../lib/runtime-config';
import { storage } from '../../lib/storage';

// typing in several fields with user-event takes a while on a busy machine
jest.setTimeout(30_000);

const CODE = 'Kq7pXz4mRt';
const client = clientUser('c1', 'nuovo@cliente.it');
const firstSignInAnswer = {
  status: 200,
  body: {
    accessToken: 'code-access',
    refreshToken: 'code-refresh',
    user: client,
    passwordChangeRequired: true,
  },
};

async function signIn(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByLabelText(/Dichiaro di aver letto/));
  await userEvent.click(screen.getByRole('button', { name: 'Accedi' }));
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setRuntimeConfig({});
});

describe('the first sign-in with the invitation code', () => {
  it('makes the client choose a password before anything else, then lands on the home page', async () => {
    const routes: FakeRoutes = {
      ...signedInRoutes(client),
      'POST /api/auth/login': firstSignInAnswer,
      'PUT /api/users/change-password': { status: 204 },
    };
    const { calls } = startSignedOutApp(routes);
    await signIn('nuovo@cliente.it', CODE);

    await screen.findByRole('heading', { name: 'Scelga la sua password' });
    expect(screen.getByText(/vale solo questa volta/)).toBeInTheDocument();
    // nothing of the portal opens yet, and the session is not kept
    expect(calls.filter((c) => c.startsWith('GET '))).toEqual([]);
    expect(storage.getAccessToken()).toBeNull();

    // the rules of every new password: 8 characters, both alike (C001)
    await userEvent.type(screen.getByLabelText('Nuova password'), 'breve');
    await userEvent.type(screen.getByLabelText('Conferma password'), 'breve');
    await userEvent.click(screen.getByRole('button', { name: 'Salva e accedi' }));
    expect(screen.getByRole('alert')).toHaveTextContent('almeno 8 caratteri');
    await userEvent.clear(screen.getByLabelText('Nuova password'));
    await userEvent.clear(screen.getByLabelText('Conferma password'));
    await userEvent.type(screen.getByLabelText('Nuova password'), 'la-mia-password');
    await userEvent.type(screen.getByLabelText('Conferma password'), 'la-mia-passwore');
    await userEvent.click(screen.getByRole('button', { name: 'Salva e accedi' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Le password non coincidono');
    expect(calls).not.toContain('PUT /api/users/change-password');

    await userEvent.clear(screen.getByLabelText('Conferma password'));
    await userEvent.type(screen.getByLabelText('Conferma password'), 'la-mia-password');
    await userEvent.click(screen.getByRole('button', { name: 'Salva e accedi' }));
    await screen.findByRole('button', { name: 'Esci' }); // signed in: the home page's menu
    expect(sentBodies).toContainEqual({
      call: 'PUT /api/users/change-password',
      body: { password: CODE, newPassword: 'la-mia-password' },
    });
    expect(calls).toContain('POST /api/auth/refresh');
    expect(storage.getAccessToken()).toBe('a'); // the refreshed session's tokens, not the code's
  });

  it('says why a choice is refused (the invitation code again: A004) and lets the client go back', async () => {
    startSignedOutApp({
      'POST /api/auth/login': firstSignInAnswer,
      'PUT /api/users/change-password': {
        status: 403,
        body: { code: 'A004', message: 'x' },
      },
    });
    await signIn('nuovo@cliente.it', CODE);
    await userEvent.type(await screen.findByLabelText('Nuova password'), CODE);
    await userEvent.type(screen.getByLabelText('Conferma password'), CODE);
    await userEvent.click(screen.getByRole('button', { name: 'Salva e accedi' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Al primo accesso deve scegliere una nuova password, diversa dal codice di invito',
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Torna all’accesso' }));
    await screen.findByRole('heading', { name: 'Accedi' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('no dead ends', () => {
  it('an expired client is told whom to write to', async () => {
    setRuntimeConfig({ contactEmail: 'assistenza@portale.it' });
    startSignedOutApp({ 'POST /api/auth/login': { status: 403, body: { code: 'A002', message: 'x' } } });
    await signIn('scaduto@cliente.it', 'password-giusta');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Abbonamento scaduto'));
    const contact = screen.getByRole('link', { name: 'assistenza@portale.it' });
    expect(contact).toHaveAttribute('href', 'mailto:assistenza@portale.it');
  });

  it('a used or expired reset link offers a new link and the contact, and never speaks of an invitation', async () => {
    setRuntimeConfig({ contactEmail: 'assistenza@portale.it' });
    startSignedOutApp(
      { 'POST /api/auth/reset-password': { status: 400, body: { code: 'U003', message: 'x' } } },
      '/reset-password?code=scaduto',
    );
    await userEvent.type(await screen.findByLabelText('Nuova password'), 'nuova-password');
    await userEvent.type(screen.getByLabelText('Conferma password'), 'nuova-password');
    await userEvent.click(screen.getByRole('button', { name: 'Imposta password' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('non è valido o è scaduto');
    expect(document.body.textContent).not.toMatch(/invit/i);
    expect(screen.getByRole('link', { name: 'assistenza@portale.it' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Richieda un nuovo collegamento' }));
    await screen.findByRole('heading', { name: 'Recupero password' });
  });

  it('without a contact address configured, still says whom to turn to', async () => {
    startSignedOutApp({ 'POST /api/auth/login': { status: 403, body: { code: 'A002', message: 'x' } } });
    await signIn('scaduto@cliente.it', 'password-giusta');
    await screen.findByText('Per assistenza si rivolga all’amministratore del portale.');
  });
});
