import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LogoDto } from '@rna/domain';
import { PdfPropertiesDialog } from './pdf-properties-dialog';

const logo: LogoDto = {
  id: 3,
  name: 'Studio',
  fileName: 'studio.png',
  subRenewUrl: '',
  pdfConfig: { primaryColor: '#1f4e8c', footer1: 'Riga 1', footer2: 'Riga 2' },
};

describe('PDF properties dialog', () => {
  it('keeps confirm disabled until something changes, then checks the colour format', async () => {
    const onSave = jest.fn();
    render(<PdfPropertiesDialog logo={logo} onSave={onSave} onClose={jest.fn()} />);
    const confirm = screen.getByRole('button', { name: 'Conferma' });
    expect(confirm).toBeDisabled();

    const color = screen.getByLabelText('Colore principale');
    await userEvent.clear(color);
    await userEvent.type(color, '12345');
    await userEvent.click(confirm);
    expect(screen.getByRole('alert')).toHaveTextContent('6 cifre esadecimali');
    expect(color).toHaveAttribute('aria-invalid', 'true');
    expect(onSave).not.toHaveBeenCalled();

    await userEvent.type(color, 'a');
    await userEvent.type(screen.getByLabelText('Piè di pagina 2'), ' bis');
    await userEvent.click(confirm);
    expect(onSave).toHaveBeenCalledWith({
      primaryColor: '#12345a',
      footer1: 'Riga 1',
      footer2: 'Riga 2 bis',
      subRenewUrl: '',
    });
  });
});
