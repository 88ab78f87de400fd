import { render, screen, within } from '@testing-library/react';
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
    expect(screen.getByRole('alert')).toHaveTextContent('Colore non valido: usi il formato #RRGGBB');
    expect(color).toHaveAttribute('aria-invalid', 'true');
    expect(color).toHaveAccessibleDescription('Colore non valido: usi il formato #RRGGBB');
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

  it('names a wrong colour as such even when the footers are still empty (a new logo)', async () => {
    const onSave = jest.fn();
    const blank: LogoDto = { ...logo, pdfConfig: { primaryColor: '#1f4e8c', footer1: '', footer2: '' } };
    render(<PdfPropertiesDialog logo={blank} onSave={onSave} onClose={jest.fn()} />);
    const color = screen.getByLabelText('Colore principale');
    await userEvent.clear(color);
    await userEvent.type(color, '#12345G');
    await userEvent.click(screen.getByRole('button', { name: 'Conferma' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Colore non valido: usi il formato #RRGGBB');
    expect(screen.queryByText(/obbligatori/)).not.toBeInTheDocument();

    // with the colour right, what is missing is the footers
    await userEvent.clear(color);
    await userEvent.type(color, '#12345a');
    await userEvent.click(screen.getByRole('button', { name: 'Conferma' }));
    expect(screen.getByRole('alert')).toHaveTextContent('I due piè di pagina sono obbligatori');
    expect(color).not.toHaveAttribute('aria-invalid', 'true');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('previews the colour and the footer lines as they are typed', async () => {
    render(<PdfPropertiesDialog logo={logo} onSave={jest.fn()} onClose={jest.fn()} />);
    const preview = screen.getByRole('figure', { name: 'Anteprima del resoconto PDF' });
    expect(within(preview).getByText('#1f4e8c')).toHaveStyle({ backgroundColor: '#1f4e8c' });
    expect(within(preview).getByText('Riga 1')).toBeInTheDocument();
    expect(within(preview).getByText('Riga 2')).toBeInTheDocument();

    const color = screen.getByLabelText('Colore principale');
    await userEvent.clear(color);
    await userEvent.type(color, 'c0392b');
    expect(within(preview).getByText('#c0392b')).toHaveStyle({ backgroundColor: '#c0392b' });
    expect(within(preview).getByText('Aiuti di Stato')).toHaveStyle({ color: '#c0392b' });
    await userEvent.clear(screen.getByLabelText('Piè di pagina 2'));
    await userEvent.type(screen.getByLabelText('Piè di pagina 2'), 'Via Roma 1, Milano');
    expect(within(preview).getByText('Via Roma 1, Milano')).toBeInTheDocument();
    expect(within(preview).queryByText('Riga 2')).not.toBeInTheDocument();

    // a colour that is not one yet is said so, not drawn as white
    await userEvent.type(color, '9');
    expect(within(preview).getByText('Colore non valido')).toBeInTheDocument();
  });
});
