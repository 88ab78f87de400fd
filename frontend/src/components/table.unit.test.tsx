import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Table, type Column } from './table';

interface Row {
  id: string;
  email: string;
}
const rows: Row[] = Array.from({ length: 30 }, (_, i) => ({
  id: String(i),
  email: `user${String(i).padStart(2, '0')}@x.it`,
}));
const columns: Column<Row>[] = [
  { key: 'email', header: 'Email', render: (r) => r.email, sortValue: (r) => r.email },
];

const firstCell = () => within(screen.getAllByRole('row')[1]!).getByRole('cell').textContent;

describe('Table', () => {
  it('sorts ascending, then descending, then back to the original order', async () => {
    const shuffled = [rows[5]!, rows[1]!, rows[9]!];
    render(<Table caption="t" columns={columns} rows={shuffled} rowKey={(r) => r.id} />);
    const header = screen.getByRole('button', { name: /Email/ });
    await userEvent.click(header);
    expect(screen.getByRole('columnheader')).toHaveAttribute('aria-sort', 'ascending');
    expect(firstCell()).toBe('user01@x.it');
    await userEvent.click(header);
    expect(screen.getByRole('columnheader')).toHaveAttribute('aria-sort', 'descending');
    expect(firstCell()).toBe('user09@x.it');
    await userEvent.click(header);
    expect(screen.getByRole('columnheader')).not.toHaveAttribute('aria-sort');
    expect(firstCell()).toBe('user05@x.it');
  });

  it('pages 12 rows at a time and goes back to the first page on a sort change', async () => {
    render(<Table caption="t" columns={columns} rows={rows} rowKey={(r) => r.id} pageSize={12} />);
    expect(screen.getAllByRole('row')).toHaveLength(13);
    expect(screen.getByText('Pagina 1 / 3')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ultima pagina' }));
    expect(screen.getByText('Pagina 3 / 3')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(7);
    await userEvent.click(screen.getByRole('button', { name: /Email/ }));
    expect(screen.getByText('Pagina 1 / 3')).toBeInTheDocument();
    expect(firstCell()).toBe('user00@x.it');
  });

  it('shows 5 skeleton rows while loading', () => {
    const { container } = render(
      <Table caption="t" columns={columns} rows={[]} rowKey={(r) => r.id} loading />,
    );
    expect(container.querySelectorAll('tbody tr.table__skeleton')).toHaveLength(5);
  });
});
