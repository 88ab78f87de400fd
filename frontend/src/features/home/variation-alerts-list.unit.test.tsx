import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { VariationAlertDto } from '@rna/domain';
import { VariationAlertsList } from './variation-alerts-list';

const alert = (id: string, changes: number): VariationAlertDto => ({
  id,
  taxCodes: [`0123456789${id}`],
  group: null,
  createdAt: Date.UTC(2026, 9, 1),
  lastNotification: { at: Date.UTC(2026, 10, 2, 9), changes },
});

describe('the variation alerts on the home page', () => {
  it('speaks of one change in the singular and of several in the plural', () => {
    render(<VariationAlertsList alerts={[alert('1', 1), alert('2', 4)]} onRemove={() => undefined} />);
    expect(screen.getByText(/^1 variazione il/)).toBeInTheDocument();
    expect(screen.getByText(/^4 variazioni il/)).toBeInTheDocument();
  });

  it('says the list failed instead of "no alerts", and tries again on request', async () => {
    const retry = jest.fn();
    render(
      <VariationAlertsList
        alerts={[]}
        onRemove={() => undefined}
        failure={{ error: { status: 500, data: { code: 'G001' } }, retry }}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Errore interno del server, riprovi più tardi');
    expect(screen.queryByText('Nessun avviso attivo')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Riprova' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });
});
