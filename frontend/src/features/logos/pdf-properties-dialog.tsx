import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogoDto } from '@rna/domain';
import { Dialog } from '../../components/dialog';
import { pdfFormChanged, pdfFormProblem, type PdfForm } from './logo-rules';

interface PdfPropertiesDialogProps {
  logo: LogoDto;
  busy?: boolean;
  onSave: (form: PdfForm) => void;
  onClose: () => void;
}

export function PdfPropertiesDialog({ logo, busy, onSave, onClose }: PdfPropertiesDialogProps) {
  const { t } = useTranslation();
  const initial: PdfForm = { ...logo.pdfConfig, subRenewUrl: logo.subRenewUrl ?? '' };
  const [form, setForm] = useState<PdfForm>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const changed = pdfFormChanged(initial, form);
  const set = (key: keyof PdfForm) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = pdfFormProblem(form);
    setProblem(found);
    if (!found) onSave({ ...form, primaryColor: form.primaryColor.trim().replace(/^#?/, '#') });
  };

  return (
    <Dialog title={t('clients.pdfTitle', { name: logo.name })} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="field field--inline">
          <label htmlFor="pdf-color">{t('clients.primaryColor')}</label>
          <input
            id="pdf-color"
            type="text"
            value={form.primaryColor}
            onChange={set('primaryColor')}
            aria-invalid={problem === 'clients.colorFormat'}
          />
          <span
            className="color-swatch"
            aria-hidden="true"
            style={{ background: form.primaryColor.replace(/^#?/, '#') }}
          />
        </div>
        <div className="field">
          <label htmlFor="pdf-footer1">{t('clients.footer1')}</label>
          <input id="pdf-footer1" type="text" value={form.footer1} onChange={set('footer1')} />
        </div>
        <div className="field">
          <label htmlFor="pdf-footer2">{t('clients.footer2')}</label>
          <input id="pdf-footer2" type="text" value={form.footer2} onChange={set('footer2')} />
        </div>
        <div className="field">
          <label htmlFor="pdf-renew">{t('clients.subRenewUrl')}</label>
          <input id="pdf-renew" type="url" value={form.subRenewUrl} onChange={set('subRenewUrl')} />
        </div>
        {problem && (
          <p className="field__error" role="alert">
            {t(problem)}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={!changed || busy}>
            {t('common.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
