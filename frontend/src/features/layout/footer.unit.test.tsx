import { render, screen } from '@testing-library/react';
import { parseRuntimeConfig, setRuntimeConfig } from '../../lib/runtime-config';
import { Footer } from './footer';

describe('footer', () => {
  afterEach(() => setRuntimeConfig({}));

  it('shows no VAT number and no contact link when the deployment configures none', () => {
    setRuntimeConfig({ version: '2.1.0' });
    render(<Footer />);
    expect(screen.getByRole('contentinfo')).toHaveTextContent('versione 2.1.0');
    expect(screen.queryByText(/P\.IVA/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Contatti' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Registro Nazionale Aiuti' })).toBeInTheDocument();
  });

  it('shows the configured VAT number and a mail link to the configured address', () => {
    setRuntimeConfig({ version: '2.1.0', vatNumber: '01234567897', contactEmail: 'aiuti@studio.it' });
    render(<Footer />);
    expect(screen.getByRole('contentinfo')).toHaveTextContent('versione 2.1.0 · P.IVA 01234567897');
    expect(screen.getByRole('link', { name: 'Contatti' })).toHaveAttribute('href', 'mailto:aiuti@studio.it');
  });

  it('tells an administrator which publisher details are missing and which settings give them', () => {
    setRuntimeConfig({ version: '2.1.0' });
    render(<Footer role="ADMIN" />);
    const notice = screen.getByRole('note', { name: /Dati dell’editore mancanti/ });
    expect(notice).toBeVisible();
    expect(notice).toHaveTextContent('Partita IVA non configurata o non valida');
    expect(notice).toHaveTextContent('VAT_NUMBER');
    expect(notice).toHaveTextContent('Email di contatto non configurata o non valida');
    expect(notice).toHaveTextContent('CONTACT_EMAIL');
  });

  it('names only what is missing, and nothing once both are configured', () => {
    setRuntimeConfig({ version: '2.1.0', vatNumber: '01234567897' });
    const { unmount } = render(<Footer role="ADMIN" />);
    const notice = screen.getByRole('note');
    expect(notice).toHaveTextContent('CONTACT_EMAIL');
    expect(notice).not.toHaveTextContent('VAT_NUMBER');
    unmount();

    setRuntimeConfig({ version: '2.1.0', vatNumber: '01234567897', contactEmail: 'aiuti@studio.it' });
    render(<Footer role="ADMIN" />);
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('shows a client nothing about the missing details', () => {
    setRuntimeConfig({ version: '2.1.0' });
    render(<Footer role="CLIENT" />);
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(screen.queryByText(/VAT_NUMBER|CONTACT_EMAIL|non configurata/)).not.toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent('versione 2.1.0');
  });
});

describe('runtime configuration', () => {
  it('keeps well-formed publisher details and drops placeholders and malformed ones', () => {
    expect(
      parseRuntimeConfig({ version: '1', vatNumber: ' 01234567897 ', contactEmail: 'aiuti@studio.it' }),
    ).toMatchObject({ vatNumber: '01234567897', contactEmail: 'aiuti@studio.it' });
    expect(parseRuntimeConfig({ vatNumber: '00000000000', contactEmail: 'nobody' })).toMatchObject({
      vatNumber: null,
      contactEmail: null,
    });
    expect(parseRuntimeConfig({ vatNumber: 1234567897, apiBaseUrl: '/api/' })).toMatchObject({
      vatNumber: null,
      apiBaseUrl: '/api',
      version: 'dev',
    });
  });
});
