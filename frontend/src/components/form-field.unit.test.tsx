import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { FormField } from './form-field';

function Controlled({ onText }: { onText: (text: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <FormField
      id="city"
      label="Città"
      required
      value={value}
      onChange={(text) => {
        onText(text);
        setValue(text.toUpperCase());
      }}
    />
  );
}

describe('FormField', () => {
  it('names its input by the label and hands typed text to onChange', async () => {
    const onText = jest.fn();
    render(<Controlled onText={onText} />);
    const input = screen.getByLabelText('Città');
    expect(input).toHaveAttribute('id', 'city');
    expect(input).toHaveAttribute('type', 'text');
    expect(input).toBeRequired();
    await userEvent.type(input, 'ab');
    expect(onText).toHaveBeenLastCalledWith('Ab');
    expect(input).toHaveValue('AB');
  });

  it('passes input attributes through and shows extra content beside the input', () => {
    render(
      <FormField
        id="color"
        label="Colore"
        fieldClassName="field--inline"
        type="url"
        value="x"
        readOnly
        aria-invalid
      >
        <span data-testid="swatch" />
      </FormField>,
    );
    const input = screen.getByLabelText('Colore');
    expect(input).toHaveAttribute('type', 'url');
    expect(input).toHaveAttribute('readonly');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input.parentElement).toHaveClass('field', 'field--inline');
    expect(input.parentElement).toContainElement(screen.getByTestId('swatch'));
  });
});
