import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { VariationAlertDto } from '@rna/domain';
import { VariationAlertsList } from './variation-alerts-list';

const EMAIL = 'studio.verdi@example.it';

const alert = (
  id: string,
  changes: number | null,
  name: string | null = 'ACME S.R.L.',
): VariationAlertDto => ({
  id,
  taxCodes: [`0123456789${id}`],
  group: null,
  createdAt: Date.UTC(2026, 9, 1, 10),
  lastNotification: changes === null ? null : { at: Date.UTC(2026, 10, 2, 9), changes },
  companies: [{ taxCode: `0123456789${id}`, name }],
});

const renderList = (props: Partial<Parameters<typeof VariationAlertsList>[0]>) =>
  render(
    <MemoryRouter>
      <VariationAlertsList alerts={[]} onRemove={() => undefined} email={EMAIL} {...props} />
    </MemoryRouter>,
  );

describe('the variation alerts on the home page', () => {
  it('speaks of one change in the singular and of several in the plural', () => {
    renderList({ alerts: [alert('1', 1), alert('2', 4)] });
    expect(screen.getByText(/^1 variazione il/)).toBeInTheDocument();
    expect(screen.getByText(/^4 variazioni il/)).toBeInTheDocument();
  });

  it('names the company, links to its search, and says what is watched, since when, the last change and to whom', () => {
    renderList({ alerts: [alert('1', null)] });
    const link = screen.getByRole('link', { name: 'ACME S.R.L.' });
    expect(link).toHaveAttribute('href', '/documents?taxCode=01234567891&deMinimis=false&last3Years=false');
    expect(screen.getByText('01234567891')).toBeInTheDocument();
    // each fact is a term and its definition
    const fact = (term: string) => {
      const dt = screen.getByText(term);
      expect(dt.tagName).toBe('DT');
      return dt.nextElementSibling;
    };
    expect(fact('Controlla')).toHaveTextContent('Nuovi aiuti, modifiche o revoche per questo codice fiscale');
    expect(fact('Attivo dal')).toHaveTextContent('01-10-2026');
    expect(fact('Ultima variazione inviata')).toHaveTextContent('Nessuna variazione finora');
    expect(fact('Email a')).toHaveTextContent(EMAIL);
  });

  it('links a code the archive has no aid of by the code itself, saying so', () => {
    renderList({ alerts: [alert('3', null, null)] });
    expect(screen.getByRole('link', { name: '01234567893' })).toHaveAttribute(
      'href',
      '/documents?taxCode=01234567893&deMinimis=false&last3Years=false',
    );
    expect(screen.getByText('beneficiario non presente in archivio')).toBeInTheDocument();
  });

  it('says the list failed instead of "no alerts", and tries again on request', async () => {
    const retry = jest.fn();
    renderList({ failure: { error: { status: 500, data: { code: 'G001' } }, retry } });
    expect(screen.getByRole('alert')).toHaveTextContent('Errore interno del server, riprovi più tardi');
    expect(screen.queryByText('Nessun avviso attivo')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Riprova' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });
});
