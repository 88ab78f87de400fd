import Highcharts from 'highcharts';
import { HighchartsReact } from 'highcharts-react-official';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeMinimisPointDto } from '@rna/domain';
import { NARROW_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { buildChartOptions } from './chart-options';

/** Loaded lazily: Highcharts ships only with the documents screen. */
export default function DeMinimisChart({ points }: { points: DeMinimisPointDto[] }) {
  const { t } = useTranslation();
  const narrow = useMediaQuery(NARROW_QUERY);
  const options = useMemo(
    () =>
      buildChartOptions(points, narrow, {
        title: t('documents.chartTitle'),
        used: t('documents.chartUsed'),
        remaining: t('documents.chartRemaining'),
        axis: t('documents.chartAxis'),
      }),
    [points, narrow, t],
  );
  return (
    <figure className="card chart" aria-label={t('documents.chartTitle')}>
      <HighchartsReact highcharts={Highcharts} options={options} />
    </figure>
  );
}
