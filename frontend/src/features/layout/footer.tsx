import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LegalNoticeDialog } from '../../components/legal-notice-dialog';
import { getRuntimeConfig } from '../../lib/runtime-config';

export function Footer() {
  const { t } = useTranslation();
  const [legalOpen, setLegalOpen] = useState(false);
  const contact = t('footer.contactEmail');
  return (
    <footer className="footer">
      <div className="footer__inner">
        <span>
          © {new Date().getFullYear()} {t('app.name')} ·{' '}
          {t('footer.version', { version: getRuntimeConfig().version })} · {t('footer.vat')}
        </span>
        <span className="footer__links">
          <a href={`mailto:${contact}`}>{t('footer.contact')}</a>
          <button type="button" className="link-button" onClick={() => setLegalOpen(true)}>
            {t('footer.legal')}
          </button>
          <a href="https://www.rna.gov.it" target="_blank" rel="noreferrer">
            {t('footer.register')}
          </a>
          <a
            href="https://creativecommons.org/licenses/by/4.0/deed.it"
            target="_blank"
            rel="noreferrer license"
          >
            {t('footer.licence')}
          </a>
        </span>
      </div>
      {legalOpen && <LegalNoticeDialog onClose={() => setLegalOpen(false)} />}
    </footer>
  );
}
