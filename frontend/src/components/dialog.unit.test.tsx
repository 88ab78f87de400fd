import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Dialog } from './dialog';

/** A page with a button outside the dialogs, a dialog, and a second one opened from the first. */
function TwoDialogs() {
  const [first, setFirst] = useState(true);
  const [second, setSecond] = useState(false);
  return (
    <>
      <button type="button">Fuori</button>
      {first && (
        <Dialog title="Primo" onClose={() => setFirst(false)}>
          <button type="button" onClick={() => setSecond(true)}>
            Apri il secondo
          </button>
        </Dialog>
      )}
      {second && (
        <Dialog title="Secondo" onClose={() => setSecond(false)}>
          <input aria-label="Nome" />
        </Dialog>
      )}
    </>
  );
}

const blurFocus = () => act(() => (document.activeElement as HTMLElement | null)?.blur());

describe('dialog', () => {
  it('closes with Escape even when focus has left it', async () => {
    render(<TwoDialogs />);
    expect(screen.getByRole('dialog', { name: 'Primo' })).toContainElement(
      document.activeElement as HTMLElement,
    );
    blurFocus();
    expect(document.activeElement).toBe(document.body);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Escape closes only the top-most dialog, one per press', async () => {
    render(<TwoDialogs />);
    await userEvent.click(screen.getByRole('button', { name: 'Apri il secondo' }));
    expect(screen.getByRole('dialog', { name: 'Secondo' })).toContainElement(screen.getByLabelText('Nome'));
    blurFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Secondo' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Primo' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps Tab inside the dialog, cycling from the last control to the first', async () => {
    render(
      <Dialog title="Modulo" onClose={jest.fn()}>
        <input aria-label="Uno" />
        <input aria-label="Due" />
      </Dialog>,
    );
    // the header's close button comes first, then the two fields
    expect(screen.getByRole('button', { name: 'Chiudi' })).toHaveFocus();
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByLabelText('Due')).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Chiudi' })).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(screen.getByLabelText('Due')).toHaveFocus();
  });

  it('leaves Escape to a control inside that handles it itself', async () => {
    const onClose = jest.fn();
    render(
      <Dialog title="Con menu" onClose={onClose}>
        <input
          aria-label="Cerca"
          onKeyDown={(event) => {
            if (event.key === 'Escape') event.preventDefault();
          }}
        />
      </Dialog>,
    );
    await userEvent.click(screen.getByLabelText('Cerca'));
    await userEvent.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
  });
});
