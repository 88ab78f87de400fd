import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Pager, visiblePages } from './pager';

function Harness({
  start,
  count,
  onChange,
}: {
  start: number;
  count: number;
  onChange?: (p: number) => void;
}) {
  const [page, setPage] = useState(start);
  return (
    <Pager
      page={page}
      pageCount={count}
      onPageChange={(p) => {
        onChange?.(p);
        setPage(p);
      }}
    />
  );
}

describe('Pager', () => {
  it("shows 'pagina X / N' and at most five page numbers", () => {
    render(<Harness start={4} count={20} />);
    expect(screen.getByText('Pagina 5 / 20')).toBeInTheDocument();
    const numbers = screen.getAllByRole('button', { name: /Vai a pagina/ });
    expect(numbers.map((b) => b.textContent)).toEqual(['3', '4', '5', '6', '7']);
    expect(screen.getByRole('button', { name: 'Vai a pagina 5' })).toHaveAttribute('aria-current', 'page');
  });

  it('moves with first, previous, next and last', async () => {
    render(<Harness start={0} count={8} />);
    expect(screen.getByRole('button', { name: 'Prima pagina' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Pagina successiva' }));
    expect(screen.getByText('Pagina 2 / 8')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ultima pagina' }));
    expect(screen.getByText('Pagina 8 / 8')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pagina successiva' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Pagina precedente' }));
    expect(screen.getByText('Pagina 7 / 8')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Prima pagina' }));
    expect(screen.getByText('Pagina 1 / 8')).toBeInTheDocument();
  });

  it('goes back to page 0 when the current page is out of range', () => {
    const onChange = jest.fn();
    render(<Harness start={9} count={3} onChange={onChange} />);
    expect(onChange).toHaveBeenCalledWith(0);
    expect(screen.getByText('Pagina 1 / 3')).toBeInTheDocument();
  });

  it('keeps the window of numbers inside the range', () => {
    expect(visiblePages(0, 3)).toEqual([0, 1, 2]);
    expect(visiblePages(9, 10)).toEqual([5, 6, 7, 8, 9]);
    expect(visiblePages(0, 0)).toEqual([]);
  });
});
