import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import {
  EMPTY_PASSWORD_PAIR,
  PasswordPair,
  passwordPairProblem,
  type PasswordPairValue,
} from './password-pair';
import { ProblemText } from './problem-text';

/** A form as reset and change password use it: the problem shows on submit. */
function PairForm({ onValid }: { onValid: (password: string) => void }) {
  const [pair, setPair] = useState<PasswordPairValue>(EMPTY_PASSWORD_PAIR);
  const [shown, setShown] = useState<ReturnType<typeof passwordPairProblem>>(null);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const found = passwordPairProblem(pair);
        setShown(found);
        if (!found) onValid(pair.password);
      }}
    >
      <PasswordPair
        ids={{ password: 'p-new', confirm: 'p-confirm' }}
        labels={{ password: 'Nuova', confirm: 'Conferma' }}
        value={pair}
        onChange={setPair}
      />
      <ProblemText problem={shown} />
      <button type="submit">Invia</button>
    </form>
  );
}

describe('PasswordPair', () => {
  it('renders two labelled new-password inputs of at least 8 characters', () => {
    render(<PairForm onValid={jest.fn()} />);
    for (const [label, id] of [
      ['Nuova', 'p-new'],
      ['Conferma', 'p-confirm'],
    ] as const) {
      const input = screen.getByLabelText(label);
      expect(input).toHaveAttribute('id', id);
      expect(input).toHaveAttribute('type', 'password');
      expect(input).toHaveAttribute('autocomplete', 'new-password');
      expect(input).toHaveAttribute('minlength', '8');
      expect(input).toBeRequired();
    }
  });

  it('asks for both, then 8 characters, then equal passwords (C001)', async () => {
    const onValid = jest.fn();
    render(<PairForm onValid={onValid} />);
    const submit = screen.getByRole('button', { name: 'Invia' });
    await userEvent.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Compili tutti i campi password');

    await userEvent.type(screen.getByLabelText('Nuova'), '1234567');
    await userEvent.type(screen.getByLabelText('Conferma'), '1234567');
    await userEvent.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('almeno 8 caratteri');

    await userEvent.type(screen.getByLabelText('Nuova'), '8');
    await userEvent.type(screen.getByLabelText('Conferma'), '9');
    await userEvent.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Le password non coincidono');
    expect(onValid).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByLabelText('Conferma'));
    await userEvent.type(screen.getByLabelText('Conferma'), '12345678');
    await userEvent.click(submit);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onValid).toHaveBeenCalledWith('12345678');
  });
});
