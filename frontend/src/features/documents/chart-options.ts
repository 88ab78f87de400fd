import type { LangOptions, Options } from 'highcharts';
import type { DeMinimisPointDto } from '@rna/domain';
import { DE_MINIMIS_CEILING, formatEuro } from '../../lib/domain-rules';

/** Steps of the amount axis, smallest first: every label stays a round amount. */
const TICK_STEPS = [50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000];
/** Intervals the axis may have: seven labels fit 1280 px upright, four fit a phone's 390 px. */
const MAX_INTERVALS = { wide: 6, narrow: 3 };

/**
 * The amount axis: from 0 to the ceiling, or past it to the first step above the highest month when
 * the ceiling was exceeded (drawn whole, not cut off), with the smallest round step that keeps the
 * labels few enough to read — a company far over the ceiling no longer gets two dozen labels.
 */
export function amountAxis(highestUsed: number, narrow: boolean): { max: number; tick: number } {
  const top = Math.max(DE_MINIMIS_CEILING, highestUsed);
  const limit = narrow ? MAX_INTERVALS.narrow : MAX_INTERVALS.wide;
  const tick =
    TICK_STEPS.find((step) => Math.ceil(top / step) <= limit) ??
    Math.ceil(top / limit / TICK_STEPS.at(-1)!) * TICK_STEPS.at(-1)!;
  return { max: Math.max(DE_MINIMIS_CEILING, Math.ceil(top / tick) * tick), tick };
}

/** The tooltip's heading: the month of the bar (Highcharts gives the category's index as x). */
export function tooltipMonth(points: readonly DeMinimisPointDto[], x: unknown, key: unknown): string {
  if (typeof x === 'number' && points[x]) return points[x].month;
  return String(key ?? x ?? '');
}

export interface ChartLabels {
  title: string;
  used: string;
  remaining: string;
  axis: string;
  /** what the chart shows, for screen readers (Highcharts' accessibility module) */
  description: string;
  /** the amounts' range for screen readers, from the lowest and highest amount already formatted */
  range?: (from: string, to: string) => string;
  /** the ceiling's line, as the PDF draws it ("Massimale 300.000 €") */
  ceiling?: string;
}

/**
 * Highcharts' own texts (chart type, axes, series for screen readers) and number format, from the
 * catalogue's chart.lang: Italian words, a comma for decimals and a dot for thousands (SPEC §9).
 * Highcharts takes them once for every chart (Highcharts.setOptions).
 */
export function chartLang(t: (key: string, options: { returnObjects: true }) => unknown): LangOptions {
  const lang = t('chart.lang', { returnObjects: true });
  if (!lang || typeof lang !== 'object') throw new Error('The catalogue has no chart.lang');
  return lang as LangOptions;
}

/** A month's bar on a phone: the 36 months, with title, axis and legend, fit on one screen. */
export const NARROW_BAR_HEIGHT = 14;
/** Title, amount axis and legend of the horizontal chart, around its bars. */
const NARROW_CHART_FRAME = 170;

/**
 * The 36-month de minimis chart: used and remaining allowance stacked per month, from the current month on.
 * Wide screens get vertical columns, the current month on the left; at 768 px or less horizontal bars, the
 * current month on top and the later ones under it, short enough for the whole chart to fit a phone's screen.
 */
export function buildChartOptions(
  points: readonly DeMinimisPointDto[],
  narrow: boolean,
  labels: ChartLabels,
): Options {
  const ordered = [...points];
  // The axis ends at the ceiling, unless a month has used more: then at the next tick above it, so an
  // exceeded allowance is drawn whole instead of cut off at 300,000.
  const axis = amountAxis(Math.max(0, ...points.map((p) => p.total)), narrow);
  // Highcharts would say the range with the raw numbers ("40485.64"): the screen reader gets euro amounts
  const amounts = points.flatMap((p) => [p.total, Math.max(0, p.remaining)]);
  const rangeDescription =
    labels.range && amounts.length > 0
      ? labels.range(formatEuro(Math.min(...amounts)), formatEuro(Math.max(...amounts)))
      : undefined;
  return {
    chart: {
      type: narrow ? 'bar' : 'column',
      height: narrow ? Math.max(320, ordered.length * NARROW_BAR_HEIGHT + NARROW_CHART_FRAME) : 380,
      style: { fontFamily: 'inherit' },
    },
    title: { text: labels.title },
    credits: { enabled: false },
    accessibility: {
      enabled: true,
      description: labels.description,
      point: { valueDecimals: 2, valueSuffix: ' €' },
    },
    // A bar chart draws its first category (the current month) at the top only while the category axis is
    // reversed (measured in Chromium: reversed: false puts it at the bottom, under 35 later months).
    xAxis: { categories: ordered.map((p) => p.month), reversed: narrow },
    yAxis: {
      min: 0,
      max: axis.max,
      tickInterval: axis.tick,
      title: { text: labels.axis },
      ...(rangeDescription ? { accessibility: { rangeDescription } } : {}),
      labels: { formatter: (ctx) => formatEuro(Number(ctx.value)).replace(',00', '') },
      // the allowance's ceiling drawn across every month: a month above it is seen at once
      plotLines: [
        {
          value: DE_MINIMIS_CEILING,
          color: '#b42318',
          width: 2,
          dashStyle: 'Dash',
          zIndex: 5,
          ...(labels.ceiling ? { label: { text: labels.ceiling, align: 'right' as const } } : {}),
        },
      ],
    },
    tooltip: {
      shared: true,
      formatter: function () {
        const rows = (this.points ?? []).map((p) => `${p.series.name}: <b>${formatEuro(p.y ?? 0)}</b>`);
        return [`<b>${tooltipMonth(ordered, this.x, this.key)}</b>`, ...rows].join('<br/>');
      },
    },
    plotOptions: {
      series: { stacking: 'normal', animation: false },
      column: { borderWidth: 0 },
      bar: { borderWidth: 0 },
    },
    series: [
      // a negative remaining (ceiling exceeded) is shown as none left
      {
        type: narrow ? 'bar' : 'column',
        name: labels.remaining,
        color: '#9bc7a4',
        data: ordered.map((p) => Math.max(0, p.remaining)),
      },
      {
        type: narrow ? 'bar' : 'column',
        name: labels.used,
        color: '#1f4e8c',
        data: ordered.map((p) => p.total),
      },
    ],
  };
}
