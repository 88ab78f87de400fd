import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InviteDialog } from './invite-dialog';

describe('invite dialog', () => {
  it('requires a valid email and sends the optional tax code uppercased', async () => {
    const onInvite = jest.fn();
    render(<InviteDialog onInvite={onInvite} onClose={jest.fn()} />);
    const send = screen.getByRole('button', { name: 'Invia invito' });
    await userEvent.click(send);
    expect(screen.getByRole('alert')).toHaveTextContent('L’email è obbligatoria');
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await userEvent.click(send);
    expect(screen.getByRole('alert')).toHaveTextContent('Inserisca un indirizzo email valido');
    expect(onInvite).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), ' new@client.it ');
    await userEvent.type(screen.getByLabelText('Codice fiscale vincolato (facoltativo)'), 'rssmra80a01h501u');
    expect(screen.getByLabelText('Codice fiscale vincolato (facoltativo)')).toHaveValue('RSSMRA80A01H501U');
    await userEvent.click(send);
    expect(onInvite).toHaveBeenCalledWith({ email: 'new@client.it', fixedTaxCode: 'RSSMRA80A01H501U' });
  });

  it('closes from its cancel button', async () => {
    const onClose = jest.fn();
    render(<InviteDialog onInvite={jest.fn()} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Annulla' }));
    expect(onClose).toHaveBeenCalled();
  });
});
