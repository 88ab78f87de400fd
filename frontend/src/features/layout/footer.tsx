import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Role } from '@rna/domain';
import { LegalNoticeDialog } from '../../components/legal-notice-dialog';
import { getRuntimeConfig } from '../../lib/runtime-config';

interface FooterProps {
  /** the signed-in user's role; an ADMIN is told which publisher details the deployment lacks */
  role?: Role;
}

export function Footer({ role }: FooterProps = {}) {
  const { t } = useTranslation();
  const [legalOpen, setLegalOpen] = useState(false);
  // VAT number and contact address come only from the deployment's configuration, never a placeholder
  const { version, vatNumber, contactEmail } = getRuntimeConfig();
  // SPEC §1 wants both in the footer: whoever can have them set is told what is missing, clients see nothing
  const missing =
    role === 'ADMIN' ? [!vatNumber && 'footer.setupVat', !contactEmail && 'footer.setupContact'] : [];
  const notices = missing.filter((key): key is string => Boolean(key));
  return (
    <footer className="footer">
      {notices.length > 0 && (
        <div className="footer__setup warning-note" role="note" aria-label={t('footer.setupTitle')}>
          <strong>{t('footer.setupTitle')}</strong>
          {notices.map((key) => (
            <p key={key}>{t(key)}</p>
          ))}
        </div>
      )}
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
