import { useTranslation } from 'react-i18next';

export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return <span className="spinner" role="status" aria-label={label ?? t('common.loading')} />;
}
