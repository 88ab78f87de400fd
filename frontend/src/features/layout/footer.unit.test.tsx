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
