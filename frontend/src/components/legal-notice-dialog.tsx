import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog';

/** Attribution and limitation of liability: opened from the login disclaimer and the footer. */
export function LegalNoticeDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('legal.title')} onClose={onClose} size="large">
      <h3>{t('legal.attributionTitle')}</h3>
      <p>{t('legal.attribution')}</p>
      <h3>{t('legal.liabilityTitle')}</h3>
      <p>{t('legal.liability1')}</p>
      <p>{t('legal.liability2')}</p>
      <p>
        {t('legal.licence')}{' '}
        <a href="https://creativecommons.org/licenses/by/4.0/deed.it" target="_blank" rel="noreferrer">
          CC BY 4.0
        </a>
      </p>
    </Dialog>
  );
}
