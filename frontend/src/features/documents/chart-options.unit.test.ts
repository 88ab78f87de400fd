import type { SeriesBarOptions, YAxisOptions, XAxisOptions } from 'highcharts';
import { amountAxis, buildChartOptions, NARROW_BAR_HEIGHT, tooltipMonth } from './chart-options';

const points = [
  { month: '01/25', total: 10_000, remaining: 290_000 },
  { month: '02/25', total: 20_000, remaining: 280_000 },
  { month: '03/25', total: 290_000, remaining: 10_000 },
];
const exceeded = [...points, { month: '04/25', total: 310_000, remaining: -10_000 }];
const labels = { title: 'T', used: 'Utilizzato', remaining: 'Residuo', axis: 'Euro', description: 'D' };

describe('de minimis chart data mapping', () => {
  it('uses vertical columns in month order on wide screens, ticks every 50,000 up to 300,000', () => {
    const options = buildChartOptions(points, false, labels);
    expect(options.chart?.type).toBe('column');
    expect(options.xAxis as XAxisOptions).toMatchObject({
      categories: ['01/25', '02/25', '03/25'],
      reversed: false,
    });
    const y = options.yAxis as YAxisOptions;
    expect([y.min, y.max, y.tickInterval]).toEqual([0, 300_000, 50_000]);
    const series = options.series as SeriesBarOptions[];
    expect(series.find((s) => s.name === 'Utilizzato')?.data).toEqual([10_000, 20_000, 290_000]);
    expect(series.find((s) => s.name === 'Residuo')?.data).toEqual([290_000, 280_000, 10_000]);
  });

  it('draws an exceeded allowance whole: the axis goes to the next tick above the highest month', () => {
    const options = buildChartOptions(exceeded, false, labels);
    const y = options.yAxis as YAxisOptions;
    expect([y.min, y.max, y.tickInterval]).toEqual([0, 400_000, 100_000]);
    const series = options.series as SeriesBarOptions[];
    expect(series.find((s) => s.name === 'Utilizzato')?.data).toEqual([10_000, 20_000, 290_000, 310_000]);
    // an exceeded ceiling shows no remaining allowance rather than a negative bar
    expect(series.find((s) => s.name === 'Residuo')?.data).toEqual([290_000, 280_000, 10_000, 0]);
  });

  it('uses short horizontal bars with the current month on top at 768 px or less', () => {
    const options = buildChartOptions(points, true, labels);
    expect(options.chart?.type).toBe('bar');
    // in a bar chart the first category is drawn at the top only on a reversed category axis
    expect(options.xAxis as XAxisOptions).toMatchObject({
      categories: ['01/25', '02/25', '03/25'],
      reversed: true,
    });
    expect((options.series as SeriesBarOptions[]).find((s) => s.name === 'Utilizzato')?.data).toEqual([
      10_000, 20_000, 290_000,
    ]);
  });

  it('fits the 36 months of a phone chart on a 844 px screen', () => {
    const months = Array.from({ length: 36 }, (_, i) => ({ month: `${i}`, total: 0, remaining: 300_000 }));
    const height = Number(buildChartOptions(months, true, labels).chart?.height);
    expect(height).toBeLessThanOrEqual(700);
    expect(height).toBeGreaterThanOrEqual(36 * NARROW_BAR_HEIGHT);
  });
});

describe('what a screen reader hears of the amounts', () => {
  it('euro amounts with two decimals, and the range in the catalogue’s words', () => {
    const options = buildChartOptions(points, false, {
      ...labels,
      range: (from, to) => `da ${from} a ${to}`,
    });
    expect(options.accessibility?.point).toEqual({ valueDecimals: 2, valueSuffix: ' €' });
    expect((options.yAxis as YAxisOptions).accessibility?.rangeDescription).toBe(
      'da 10.000,00 € a 290.000,00 €',
    );
  });
});

describe('the ceiling on the chart', () => {
  it('is a line at 300.000 € with its label, as the PDF draws it', () => {
    const options = buildChartOptions([{ month: '11/26', total: 1_000, remaining: 299_000 }], false, {
      title: 'De minimis',
      used: 'Utilizzato',
      remaining: 'Residuo',
      axis: 'Euro',
      description: 'Grafico',
      ceiling: 'Massimale 300.000,00 €',
    });
    const yAxis = options.yAxis as { plotLines?: { value: number; label?: { text: string } }[] };
    expect(yAxis.plotLines).toEqual([
      expect.objectContaining({
        value: 300_000,
        label: expect.objectContaining({ text: 'Massimale 300.000,00 €' }),
      }),
    ]);
  });
});

describe('the amount axis stays readable', () => {
  const labelsOf = (axis: { max: number; tick: number }) => axis.max / axis.tick + 1;

  it('at most seven round labels on a wide screen and four on a phone, however far over the ceiling', () => {
    for (const used of [0, 120_000, 300_000, 310_000, 740_000, 1_060_772.75, 4_300_000, 87_000_000]) {
      for (const narrow of [false, true]) {
        const axis = amountAxis(used, narrow);
        expect(axis.max).toBeGreaterThanOrEqual(Math.max(300_000, used));
        expect(axis.max % axis.tick).toBe(0);
        expect(labelsOf(axis)).toBeLessThanOrEqual(narrow ? 4 : 7);
        // no more room than one step above the highest month
        expect(axis.max - axis.tick).toBeLessThan(Math.max(300_000, used));
      }
    }
  });

  it('keeps 50.000 € steps up to the ceiling on a wide screen, 100.000 € on a phone', () => {
    expect(amountAxis(250_000, false)).toEqual({ max: 300_000, tick: 50_000 });
    expect(amountAxis(250_000, true)).toEqual({ max: 300_000, tick: 100_000 });
    expect(amountAxis(1_060_772.75, false)).toEqual({ max: 1_250_000, tick: 250_000 });
  });
});

describe('the tooltip', () => {
  it('is headed by the month of the bar, not its position', () => {
    expect(tooltipMonth(points, 2, undefined)).toBe('03/25');
    expect(tooltipMonth(points, 0, '01/25')).toBe('01/25');
    expect(tooltipMonth(points, '04/25', '04/25')).toBe('04/25');
  });
});
