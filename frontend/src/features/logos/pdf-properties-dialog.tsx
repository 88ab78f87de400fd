import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogoDto } from '@rna/domain';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { FormField } from '../../components/form-field';
import { ProblemText } from '../../components/problem-text';
import { isValidColor, pdfFormChanged, pdfFormProblem, type PdfForm } from './logo-rules';

interface PdfPropertiesDialogProps {
  logo: LogoDto;
  busy?: boolean;
  onSave: (form: PdfForm) => void;
  onClose: () => void;
}

/** '#1f4e8c' for a valid colour (with or without #), else null */
const hexOf = (colour: string): string | null =>
  isValidColor(colour) ? colour.trim().replace(/^#?/, '#') : null;

/** black or white, whichever reads better on the colour (relative luminance, WCAG) */
function textOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.179 ? '#000' : '#fff';
}

/**
 * A small page of the report as the settings make it: the title and table header in the colour, and the
 * footer lines at the bottom as the report prints them (empty lines left out, page number on the right).
 */
function PdfPreview({ form }: { form: PdfForm }) {
  const { t } = useTranslation();
  const id = useId();
  const hex = hexOf(form.primaryColor);
  const footers = [form.footer1, form.footer2].filter((line) => line.trim() !== '');
  return (
    <figure className="pdf-preview" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="field__hint">
        {t('clients.pdfPreview')}
      </figcaption>
      <div className="pdf-preview__page">
        <div className="pdf-preview__title" style={hex ? { color: hex, borderColor: hex } : undefined}>
          {t('clients.pdfPreviewTitle')}
        </div>
        <div
          className={hex ? 'pdf-preview__swatch' : 'pdf-preview__swatch pdf-preview__swatch--none'}
          style={hex ? { backgroundColor: hex, color: textOn(hex) } : undefined}
        >
          {hex ?? t('clients.pdfPreviewNoColor')}
        </div>
        <div className="pdf-preview__footer">
          <div>
            {footers.map((line, i) => (
              <div key={i}>{line}</div>
            ))}
          </div>
          <div>{t('clients.pdfPreviewPage')}</div>
        </div>
      </div>
    </figure>
  );
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
          aria-describedby={problem === 'clients.colorFormat' ? 'pdf-color-error' : undefined}
        >
          <span
            className={hexOf(form.primaryColor) ? 'color-swatch' : 'color-swatch color-swatch--none'}
            aria-hidden="true"
            style={{ background: hexOf(form.primaryColor) ?? undefined }}
          />
        </FormField>
        {problem === 'clients.colorFormat' && <ProblemText problem={problem} id="pdf-color-error" />}
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
        <PdfPreview form={form} />
        {problem !== 'clients.colorFormat' && <ProblemText problem={problem} />}
        <DialogActions
          onCancel={onClose}
          submitLabel={t('common.confirm')}
          submitDisabled={!changed || busy}
        />
      </form>
    </Dialog>
  );
}
