import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { documentsUrl, SearchForm } from './search-form';

describe('SearchForm', () => {
  it('refuses a single code shorter than 11 characters with T002', async () => {
    const onSearch = jest.fn();
    render(<SearchForm onSearch={onSearch} />);
    await userEvent.type(screen.getByLabelText('Codice fiscale'), '0123456789');
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Il termine di ricerca deve avere almeno 11 caratteri',
    );
    expect(onSearch).not.toHaveBeenCalled();
  });

  it('blocks spaces, uppercases and submits the flags', async () => {
    const onSearch = jest.fn();
    render(<SearchForm onSearch={onSearch} />);
    await userEvent.type(screen.getByLabelText('Codice fiscale'), 'rss mra80a01h501u');
    expect(screen.getByLabelText('Codice fiscale')).toHaveValue('RSSMRA80A01H501U');
    await userEvent.click(screen.getByLabelText('Solo de minimis'));
    await userEvent.keyboard('{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    expect(onSearch).toHaveBeenCalledWith({
      taxCodes: ['RSSMRA80A01H501U'],
      deMinimis: true,
      last3Years: false,
    });
  });

  it('adds chips on Space or Enter, clears short codes with T002, and removes a chip on click', async () => {
    const onSearch = jest.fn();
    render(<SearchForm onSearch={onSearch} />);
    await userEvent.click(screen.getByLabelText('Ricerca multipla'));
    const input = screen.getByLabelText('Codici fiscali');
    await userEvent.type(input, '01234567890 ');
    await userEvent.type(input, 'rssmra80a01h501u{Enter}');
    expect(screen.getByRole('button', { name: 'Rimuovi 01234567890' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rimuovi RSSMRA80A01H501U' })).toBeInTheDocument();

    await userEvent.type(input, 'short{Enter}');
    expect(input).toHaveValue('');
    expect(screen.getByRole('alert')).toHaveTextContent('almeno 11 caratteri');

    await userEvent.click(screen.getByRole('button', { name: 'Rimuovi 01234567890' }));
    expect(screen.queryByRole('button', { name: 'Rimuovi 01234567890' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    expect(onSearch).toHaveBeenCalledWith({
      taxCodes: ['RSSMRA80A01H501U'],
      deMinimis: false,
      last3Years: false,
    });
  });

  it('locks the controls to a fixed tax code', async () => {
    const onSearch = jest.fn();
    render(<SearchForm onSearch={onSearch} fixedTaxCode="01234567890" />);
    expect(screen.getByLabelText('Codice fiscale')).toBeDisabled();
    expect(screen.getByLabelText('Ricerca multipla')).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    expect(onSearch).toHaveBeenCalledWith({ taxCodes: ['01234567890'], deMinimis: false, last3Years: false });
  });

  it('builds the documents address with comma-separated codes and both flags', () => {
    expect(
      documentsUrl({ taxCodes: ['A1234567890', 'B1234567890'], deMinimis: true, last3Years: false }),
    ).toBe('/documents?taxCode=A1234567890%2CB1234567890&deMinimis=true&last3Years=false');
  });
});
