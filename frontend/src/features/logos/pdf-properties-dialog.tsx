import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogoDto } from '@rna/domain';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { FormField } from '../../components/form-field';
import { ProblemText } from '../../components/problem-text';
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
  const set = (key: keyof PdfForm) => (text: string) => setForm((f) => ({ ...f, [key]: text }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = pdfFormProblem(form);
    setProblem(found);
    if (!found) onSave({ ...form, primaryColor: form.primaryColor.trim().replace(/^#?/, '#') });
  };

  return (
    <Dialog title={t('clients.pdfTitle', { name: logo.name })} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <FormField
          id="pdf-color"
          label={t('clients.primaryColor')}
          fieldClassName="field--inline"
          value={form.primaryColor}
          onChange={set('primaryColor')}
          aria-invalid={problem === 'clients.colorFormat'}
        >
          <span
            className="color-swatch"
            aria-hidden="true"
            style={{ background: form.primaryColor.replace(/^#?/, '#') }}
          />
        </FormField>
        <FormField
          id="pdf-footer1"
          label={t('clients.footer1')}
          value={form.footer1}
          onChange={set('footer1')}
        />
        <FormField
          id="pdf-footer2"
          label={t('clients.footer2')}
          value={form.footer2}
          onChange={set('footer2')}
        />
        <FormField
          id="pdf-renew"
          label={t('clients.subRenewUrl')}
          type="url"
          value={form.subRenewUrl}
          onChange={set('subRenewUrl')}
        />
        <ProblemText problem={problem} />
        <DialogActions
          onCancel={onClose}
          submitLabel={t('common.confirm')}
          submitDisabled={!changed || busy}
        />
      </form>
    </Dialog>
  );
}
