import { useTranslation } from 'react-i18next';

/** Lets a keyboard user pass the navigation bar: the first link of every page. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t('app.skipToContent')}
    </a>
  );
}
