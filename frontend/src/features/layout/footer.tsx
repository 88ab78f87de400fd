import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LegalNoticeDialog } from '../../components/legal-notice-dialog';
import { getRuntimeConfig } from '../../lib/runtime-config';

export function Footer() {
  const { t } = useTranslation();
  const [legalOpen, setLegalOpen] = useState(false);
  // VAT number and contact address come only from the deployment's configuration, never a placeholder
  const { version, vatNumber, contactEmail } = getRuntimeConfig();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <span>
          © {new Date().getFullYear()} {t('app.name')} · {t('footer.version', { version })}
          {vatNumber && ` · ${t('footer.vat', { number: vatNumber })}`}
        </span>
        <span className="footer__links">
          {contactEmail && <a href={`mailto:${contactEmail}`}>{t('footer.contact')}</a>}
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
