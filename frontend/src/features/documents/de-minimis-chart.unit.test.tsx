import { render, waitFor } from '@testing-library/react';
import Highcharts from 'highcharts';
import DeMinimisChart from './de-minimis-chart';

const points = [
  { month: '11/26', total: 40_485.64, remaining: 259_514.36 },
  { month: '12/26', total: 1_234_567.5, remaining: -934_567.5 },
];

/** What a screen reader is told: the hidden sections Highcharts' accessibility module writes. */
async function spokenText(container: HTMLElement): Promise<string> {
  await waitFor(() => expect(container.querySelector('.highcharts-container')).not.toBeNull());
  const spoken = [
    ...container.querySelectorAll('[aria-label], .highcharts-screen-reader-region, [aria-hidden="false"]'),
  ]
    .map((node) => `${node.getAttribute('aria-label') ?? ''} ${node.textContent ?? ''}`)
    .join(' ');
  return spoken;
}

describe('the de minimis chart, to a screen reader', () => {
  it('speaks Italian: the kind of chart and its series', async () => {
    const { container } = render(<DeMinimisChart points={points} />);
    const spoken = await spokenText(container);
    expect(spoken).toMatch(/Grafico a (colonne|barre) con 2 serie di dati/);
    expect(spoken).toMatch(/Gli importi vanno da 0,00 € a 1.234.567,50 €/);
    expect(spoken).toMatch(/Utilizzato, serie di (colonne|barre) 2 di 2 con 2 (colonne|barre)/);
    expect(spoken).not.toMatch(/chart with|data series|interactive chart|displaying|ranges from/i);
  });

  it('writes numbers with a dot for thousands and a comma for decimals', () => {
    render(<DeMinimisChart points={points} />);
    expect(Highcharts.numberFormat(40_485.64, 2)).toBe('40.485,64');
    expect(Highcharts.getOptions().lang?.accessibility?.thousandsSep).toBe('.');
  });
});
