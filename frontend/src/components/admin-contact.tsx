import { useTranslation } from 'react-i18next';
import { getRuntimeConfig } from '../lib/runtime-config';

/**
 * Whom to turn to when the screen cannot go on by itself (an ended subscription, a dead reset link):
 * the deployment's contact address, as the footer shows it, or at least who to ask.
 */
export function AdminContact() {
  const { t } = useTranslation();
  const { contactEmail } = getRuntimeConfig();
  return (
    <p className="auth-form__contact">
      {contactEmail ? (
        <>
          {t('contact.administrator')} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </>
      ) : (
        t('contact.noAddress')
      )}
    </p>
  );
}
