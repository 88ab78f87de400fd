/** The client settings dialog as an administrator fills it: one date field, a date refused, a renewal. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClientDto } from '@rna/domain';
import { ClientSettingsDialog } from './client-settings-dialog';

const client: ClientDto = {
  id: 'c1',
  email: 'cliente01@example.it',
  taxCode: null,
  invitedAt: Date.UTC(2025, 11, 20),
  active: true,
  activationTime: Date.UTC(2026, 0, 1),
  lastAccessTime: null,
  endDate: Date.UTC(2030, 0, 1, 11), // 12:00 in Rome
  availableYearlySearches: 50,
  remainingSearches: 4,
  enableVariationAlerts: false,
  pdfEnabled: true,
  logo: null,
  status: 'Attivo',
};

function open() {
  const onSave = jest.fn();
  const onClose = jest.fn();
  render(
    <ClientSettingsDialog
      client={client}
      logos={[]}
      onSave={onSave}
      onClose={onClose}
      now={() => Date.UTC(2026, 10, 25, 9)}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Impostazioni cliente' });
  return { dialog, onSave, onClose, endDate: within(dialog).getByLabelText('Scadenza') };
}

describe('the client settings dialog', () => {
  it('shows the end date once, as one field, under one name', () => {
    const { dialog, endDate } = open();
    expect(endDate).toHaveValue('01-01-2030');
    // the only drop-down is the logo: no day, month and year selectors repeating the date
    expect(
      within(dialog)
        .getAllByRole('combobox')
        .map((c) => c.id),
    ).toEqual(['settings-logo']);
    expect(within(dialog).getByText('Scadenza attuale: 01-01-2030')).toBeInTheDocument();
    expect(within(dialog).queryByText(/rinnovo/i)).not.toBeInTheDocument();
  });

  it('keeps a date that is not valid as typed, says why, and does not save it', async () => {
    const { dialog, endDate, onSave } = open();
    await userEvent.clear(endDate);
    await userEvent.type(endDate, '31-02-2030');
    await userEvent.tab();
    expect(endDate).toHaveValue('31-02-2030');
    expect(endDate).toHaveAttribute('aria-invalid', 'true');
    expect(endDate).toHaveAccessibleDescription(/Data non valida/);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Salva' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(within(dialog).getByText('Scadenza non valida: usi il formato gg-mm-aaaa')).toBeInTheDocument();
    expect(endDate).toHaveValue('31-02-2030');

    // corrected where it was typed, it is saved
    await userEvent.clear(endDate);
    await userEvent.type(endDate, '28-02-2030{Enter}');
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ endDate: Date.UTC(2030, 1, 28, 11) }));
  });

  it('says an emptied end date is required', async () => {
    const { dialog, endDate, onSave } = open();
    await userEvent.clear(endDate);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salva' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(within(dialog).getByText('La scadenza è obbligatoria')).toBeInTheDocument();
  });

  it('shows a renewal as a change of the form, sent only by "Salva"', async () => {
    const { dialog, endDate, onSave, onClose } = open();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rinnova di un anno' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(endDate).toHaveValue('01-01-2031');
    expect(within(dialog).getByLabelText('Ricerche annuali rimanenti')).toHaveValue(50);
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Rinnovo pronto: nuova scadenza 01-01-2031, ricerche annuali rimanenti riportate a 50. Il rinnovo si applica solo al salvataggio.',
    );

    // taken back, the form is as it was
    await userEvent.click(within(dialog).getByRole('button', { name: 'Annulla il rinnovo' }));
    expect(endDate).toHaveValue('01-01-2030');
    expect(within(dialog).getByLabelText('Ricerche annuali rimanenti')).toHaveValue(4);
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Rinnova di un anno' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salva' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        availableYearlySearches: 50,
        remainingSearches: 50,
        endDate: Date.UTC(2031, 0, 1, 11),
      }),
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('"Annulla" after a renewal saves nothing', async () => {
    const { dialog, onSave, onClose } = open();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rinnova di un anno' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Annulla' }));
    expect(onClose).toHaveBeenCalled();
    expect(onSave).not.toHaveBeenCalled();
  });
});
