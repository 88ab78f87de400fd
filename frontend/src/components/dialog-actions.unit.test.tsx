import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DialogActions } from './dialog-actions';

function ActionsForm({
  onSubmit,
  onCancel,
  disabled,
}: {
  onSubmit: () => void;
  onCancel: () => void;
  disabled?: boolean;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <DialogActions onCancel={onCancel} submitLabel="Salva" submitDisabled={disabled} />
    </form>
  );
}

describe('DialogActions', () => {
  it('cancels without submitting, and its confirm button submits the form', async () => {
    const onSubmit = jest.fn();
    const onCancel = jest.fn();
    render(<ActionsForm onSubmit={onSubmit} onCancel={onCancel} />);
    await userEvent.click(screen.getByRole('button', { name: 'Annulla' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Salva' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('disables only the confirm button while busy', () => {
    render(<ActionsForm onSubmit={jest.fn()} onCancel={jest.fn()} disabled />);
    expect(screen.getByRole('button', { name: 'Salva' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Annulla' })).toBeEnabled();
  });
});
