import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { LoginForm } from './login-form';
import { ResetForm } from './reset-form';

describe('login form', () => {
  it('requires the disclaimer to be ticked (C002) and sends remember-me', async () => {
    const onSubmit = jest.fn();
    render(<LoginForm onSubmit={onSubmit} />, { wrapper: MemoryRouter });
    await userEvent.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(screen.getByRole('alert')).toHaveTextContent('L’email è obbligatoria');

    await userEvent.type(screen.getByLabelText('Email'), 'a@b.it');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'È necessario prendere visione del documento di responsabilità',
    );
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.click(screen.getByLabelText(/Dichiaro di aver letto/));
    await userEvent.click(screen.getByLabelText('Ricordami'));
    await userEvent.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(onSubmit).toHaveBeenCalledWith({ email: 'a@b.it', password: 'secret-password', remember: true });
  });

  it('opens the disclaimer dialog from its link and closes it with Escape', async () => {
    render(<LoginForm onSubmit={jest.fn()} />, { wrapper: MemoryRouter });
    await userEvent.click(screen.getByRole('button', { name: 'Leggi il documento' }));
    expect(
      screen.getByRole('dialog', { name: 'Attribuzione e limitazione di responsabilità' }),
    ).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('reset form', () => {
  it('needs 8 characters and equal passwords (C001)', async () => {
    const onSubmit = jest.fn();
    render(<ResetForm onSubmit={onSubmit} />, { wrapper: MemoryRouter });
    await userEvent.type(screen.getByLabelText('Nuova password'), 'short');
    await userEvent.type(screen.getByLabelText('Conferma password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Imposta password' }));
    expect(screen.getByRole('alert')).toHaveTextContent('almeno 8 caratteri');

    await userEvent.clear(screen.getByLabelText('Nuova password'));
    await userEvent.clear(screen.getByLabelText('Conferma password'));
    await userEvent.type(screen.getByLabelText('Nuova password'), 'long-enough-1');
    await userEvent.type(screen.getByLabelText('Conferma password'), 'long-enough-2');
    await userEvent.click(screen.getByRole('button', { name: 'Imposta password' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Le password non coincidono');
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Conferma password'));
    await userEvent.type(screen.getByLabelText('Conferma password'), 'long-enough-1');
    await userEvent.click(screen.getByRole('button', { name: 'Imposta password' }));
    expect(onSubmit).toHaveBeenCalledWith('long-enough-1');
  });
});
