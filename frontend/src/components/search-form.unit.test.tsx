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

  it('applies a filter to the results on screen at once, and waits for the button when new codes are typed', async () => {
    const onSearch = jest.fn();
    const shown = { taxCodes: ['01234567897'], deMinimis: false, last3Years: false };
    const { unmount } = render(<SearchForm initial={shown} onSearch={onSearch} />);
    await userEvent.click(screen.getByLabelText('Solo de minimis'));
    expect(onSearch).toHaveBeenLastCalledWith({ ...shown, deMinimis: true });
    await userEvent.click(screen.getByLabelText('Ultimi 3 anni'));
    expect(onSearch).toHaveBeenLastCalledWith({ ...shown, deMinimis: true, last3Years: true });
    unmount();

    onSearch.mockClear();
    render(<SearchForm initial={shown} onSearch={onSearch} />);
    const box = screen.getByLabelText('Codice fiscale');
    await userEvent.clear(box);
    await userEvent.type(box, '12345678903');
    await userEvent.click(screen.getByLabelText('Solo de minimis'));
    expect(onSearch).not.toHaveBeenCalled();
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

  // valid check digits: 01234567897 (partita IVA), RSSMRA80A01H501U (codice fiscale)
  it('turns a pasted column of codes into chips, without duplicates, in multiple mode', async () => {
    const onSearch = jest.fn();
    render(<SearchForm onSearch={onSearch} />);
    await userEvent.click(screen.getByLabelText('Codice fiscale'));
    await userEvent.paste('01234567897\r\nrssmra80a01h501u\n01234567897;\t\n');
    expect(screen.getByLabelText('Ricerca multipla')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Rimuovi 01234567897' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rimuovi RSSMRA80A01H501U' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Rimuovi/ })).toHaveLength(2);
    expect(screen.getByLabelText('Codici fiscali')).toHaveValue('');
    // Enter with the box empty searches the chips
    await userEvent.keyboard('{Enter}');
    expect(onSearch).toHaveBeenCalledWith({
      taxCodes: ['01234567897', 'RSSMRA80A01H501U'],
      deMinimis: false,
      last3Years: false,
    });
  });

  it('never runs pasted codes together: the pieces that are no code are named, nothing is searched', async () => {
    const onSearch = jest.fn();
    render(<SearchForm onSearch={onSearch} />);
    await userEvent.click(screen.getByLabelText('Codice fiscale'));
    await userEvent.paste('01234567897 x12\n0123456789701234567897');
    expect(screen.getByRole('alert')).toHaveTextContent('2 voci ignorate');
    expect(screen.getByRole('alert')).toHaveTextContent('x12, 0123456789701234567897');
    expect(screen.getByLabelText('Codice fiscale')).toHaveValue('01234567897');
    expect(screen.getByLabelText('Codice fiscale')).toHaveAttribute('aria-describedby');
  });

  it('asks before searching codes whose check digit is wrong, and searches when the user insists', async () => {
    const onSearch = jest.fn();
    render(<SearchForm onSearch={onSearch} />);
    await userEvent.click(screen.getByLabelText('Codice fiscale'));
    await userEvent.paste('01234567890\nRSSMRA80A01H501U\nRSSMRA80A01H501X');
    expect(screen.getByRole('button', { name: 'Rimuovi 01234567890' })).toHaveClass('chip--warning');
    expect(screen.getByRole('button', { name: 'Rimuovi RSSMRA80A01H501U' })).not.toHaveClass('chip--warning');
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    expect(onSearch).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('2 codici non superano la verifica');
    expect(screen.getByRole('alert')).toHaveTextContent('01234567890, RSSMRA80A01H501X');

    // removing one of them asks again for the other
    await userEvent.click(screen.getByRole('button', { name: 'Rimuovi RSSMRA80A01H501X' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Il codice 01234567890 non supera la verifica');
    await userEvent.click(screen.getByRole('button', { name: 'Cerca comunque' }));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith({
      taxCodes: ['01234567890', 'RSSMRA80A01H501U'],
      deMinimis: false,
      last3Years: false,
    });
  });

  it('asks the same for one code typed in single mode', async () => {
    const onSearch = jest.fn();
    render(<SearchForm onSearch={onSearch} />);
    await userEvent.type(screen.getByLabelText('Codice fiscale'), '01234567890{Enter}');
    expect(onSearch).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Cerca comunque' }));
    expect(onSearch).toHaveBeenCalledWith({ taxCodes: ['01234567890'], deMinimis: false, last3Years: false });
  });

  it('builds the documents address with comma-separated codes and both flags', () => {
    expect(
      documentsUrl({ taxCodes: ['A1234567890', 'B1234567890'], deMinimis: true, last3Years: false }),
    ).toBe('/documents?taxCode=A1234567890%2CB1234567890&deMinimis=true&last3Years=false');
  });

  it('tells a client before a multiple search what it may cost, and an administrator nothing', async () => {
    const { unmount } = render(<SearchForm metered onSearch={jest.fn()} />);
    await userEvent.click(screen.getByLabelText('Ricerca multipla'));
    const box = screen.getByLabelText('Codici fiscali');
    await userEvent.type(box, '01234567897 ');
    expect(screen.queryByRole('note')).not.toBeInTheDocument(); // one code: one search, as always
    await userEvent.type(box, '12345678903 00000000000 ');
    expect(screen.getByRole('note')).toHaveTextContent(
      'Questa ricerca di 3 codici conta fino a 3 ricerche: un codice già cercato oggi non si conta di nuovo.',
    );
    unmount();
    render(<SearchForm onSearch={jest.fn()} />);
    await userEvent.click(screen.getByLabelText('Ricerca multipla'));
    await userEvent.type(screen.getByLabelText('Codici fiscali'), '01234567897 12345678903 ');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
