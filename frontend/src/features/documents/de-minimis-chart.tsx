import Highcharts from 'highcharts';
import 'highcharts/modules/accessibility';
import { HighchartsReact } from 'highcharts-react-official';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeMinimisPointDto } from '@rna/domain';
import i18n from '../../i18n';
import { DE_MINIMIS_CEILING, formatEuro } from '../../lib/domain-rules';
import { NARROW_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { buildChartOptions, chartLang } from './chart-options';

// Highcharts' texts and number format are global: set once, in Italian, before the first chart
Highcharts.setOptions({ lang: chartLang((key, options) => i18n.t(key, options)) });

/** Loaded lazily: Highcharts ships only with the documents screen. */
export default function DeMinimisChart({
  points,
  company = null,
}: {
  points: DeMinimisPointDto[];
  /** several unrelated companies searched: the one whose allowance this is */
  company?: string | null;
}) {
  const { t } = useTranslation();
  const title = company ? t('documents.chartTitleOf', { company }) : t('documents.chartTitle');
  const narrow = useMediaQuery(NARROW_QUERY);
  const [showData, setShowData] = useState(false);
  const tableId = useId();
  const options = useMemo(
    () =>
      buildChartOptions(points, narrow, {
        title,
        used: t('documents.chartUsed'),
        remaining: t('documents.chartRemaining'),
        axis: t('documents.chartAxis'),
        description: t('documents.chartDescription'),
        range: (from, to) => t('documents.chartRange', { from, to }),
        ceiling: t('documents.chartCeiling', { ceiling: formatEuro(DE_MINIMIS_CEILING) }),
      }),
    [points, narrow, t, title],
  );
  return (
    <figure className="card chart" aria-label={title}>
      <HighchartsReact highcharts={Highcharts} options={options} />
      <button
        type="button"
        className="button button--ghost button--small"
        aria-expanded={showData}
        aria-controls={tableId}
        onClick={() => setShowData((shown) => !shown)}
      >
        {showData ? t('documents.hideData') : t('documents.showData')}
      </button>
      {showData && (
        <div className="table-wrap chart__data" id={tableId}>
          <table className="table">
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('documents.chartMonth')}</th>
                <th scope="col" className="numeric">
                  {t('documents.chartUsed')}
                </th>
                <th scope="col" className="numeric">
                  {t('documents.chartRemaining')}
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.month}>
                  <th scope="row" data-label={t('documents.chartMonth')}>
                    {point.month}
                  </th>
                  <td className="numeric" data-label={t('documents.chartUsed')}>
                    {formatEuro(point.total)}
                  </td>
                  <td className="numeric" data-label={t('documents.chartRemaining')}>
                    {formatEuro(point.remaining)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}
