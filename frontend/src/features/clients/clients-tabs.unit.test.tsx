import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { Tabs } from '../../components/tabs';
import { filterByEmail, parseTabIndex } from './client-rules';
import { useTabIndexParam } from './use-tab-index';

function Screen() {
  const [tab, select] = useTabIndexParam(3);
  const location = useLocation();
  return (
    <>
      <Tabs
        label="sezioni"
        selected={tab}
        onSelect={select}
        tabs={[
          { key: 'a', label: 'Tutti' },
          { key: 'w', label: 'In attesa' },
          { key: 'l', label: 'Loghi' },
        ]}
      >
        <p>panel {tab}</p>
      </Tabs>
      <output aria-label="address">{location.search}</output>
    </>
  );
}

const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Screen />
    </MemoryRouter>,
  );

describe('clients tabs in the address', () => {
  it('opens the tab named by ?tabIndex and writes the clicked tab back', async () => {
    renderAt('/clients?tabIndex=2');
    expect(screen.getByRole('tab', { name: 'Loghi' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(screen.getByRole('tab', { name: 'In attesa' }));
    expect(screen.getByLabelText('address')).toHaveTextContent('?tabIndex=1');
    expect(screen.getByText('panel 1')).toBeInTheDocument();
  });

  it.each(['/clients', '/clients?tabIndex=abc', '/clients?tabIndex=7'])(
    'falls back to tab 0 for %s',
    (url) => {
      renderAt(url);
      expect(screen.getByRole('tab', { name: 'Tutti' })).toHaveAttribute('aria-selected', 'true');
    },
  );

  it('moves between tabs with the arrow keys', async () => {
    renderAt('/clients');
    screen.getByRole('tab', { name: 'Tutti' }).focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Loghi' })).toHaveFocus();
    expect(screen.getByLabelText('address')).toHaveTextContent('?tabIndex=2');
  });
});

describe('client rules', () => {
  it('parses tabIndex as a number, 0 when missing or not a number', () => {
    expect(parseTabIndex(null)).toBe(0);
    expect(parseTabIndex('x')).toBe(0);
    expect(parseTabIndex('1')).toBe(1);
  });
  it('filters by email ignoring case', () => {
    const clients = [{ email: 'Mario@Studio.it' }, { email: 'anna@banca.it' }];
    expect(filterByEmail(clients, 'STUDIO')).toEqual([{ email: 'Mario@Studio.it' }]);
    expect(filterByEmail(clients, '  ')).toHaveLength(2);
  });
});
