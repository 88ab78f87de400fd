import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOGO_ID, type ClientDto } from '@rna/domain';
import { DatePicker } from '../../components/date-picker';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { FormField } from '../../components/form-field';
import { ProblemText } from '../../components/problem-text';
import { Switch } from '../../components/switch';
import { formatDate, normaliseTaxCode } from '../../lib/domain-rules';
import { atNoon } from './client-rules';

export interface ClientSettings {
  availableYearlySearches: number;
  remainingSearches: number;
  endDate: number;
  /** '' removes the fixed tax code */
  taxCode: string;
  /** DEFAULT_LOGO_ID for "Logo predefinito" */
  logoId: number;
  pdfEnabled: boolean;
  enableVariationAlerts: boolean;
}

interface ClientSettingsDialogProps {
  client: ClientDto;
  logos: { id: number; name: string }[];
  busy?: boolean;
  onSave: (settings: ClientSettings) => void;
  onRenew: () => void;
  onClose: () => void;
}

export function ClientSettingsDialog({
  client,
  logos,
  busy,
  onSave,
  onRenew,
  onClose,
}: ClientSettingsDialogProps) {
  const { t } = useTranslation();
  const [yearly, setYearly] = useState(String(client.availableYearlySearches));
  const [remaining, setRemaining] = useState(String(client.remainingSearches));
  const [endDate, setEndDate] = useState<Date | null>(new Date(client.endDate));
  const [taxCode, setTaxCode] = useState(client.taxCode ?? '');
  const [logoId, setLogoId] = useState<number>(client.logo?.id ?? DEFAULT_LOGO_ID);
  const [pdfEnabled, setPdfEnabled] = useState(client.pdfEnabled);
  const [alerts, setAlerts] = useState(client.enableVariationAlerts);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const yearlyN = Number(yearly);
    const remainingN = Number(remaining);
    if (!Number.isInteger(yearlyN) || yearlyN < 0 || !Number.isInteger(remainingN) || remainingN < 0) {
      setProblem('clients.searchesMin');
      return;
    }
    if (!endDate) {
      setProblem('clients.endDateRequired');
      return;
    }
    setProblem(null);
    onSave({
      availableYearlySearches: yearlyN,
      remainingSearches: remainingN,
      endDate: atNoon(endDate),
      taxCode: normaliseTaxCode(taxCode),
      logoId,
      pdfEnabled,
      enableVariationAlerts: alerts,
    });
  };

  return (
    <Dialog title={t('clients.settingsTitle')} onClose={onClose} size="large">
      <form onSubmit={submit} noValidate className="settings-form">
        <FormField
          id="settings-email"
          label={t('clients.settingsEmail')}
          type="email"
          value={client.email}
          readOnly
        />
        <div className="form-grid">
          <FormField
            id="settings-yearly"
            label={t('clients.settingsYearly')}
            type="number"
            min={0}
            value={yearly}
            onChange={setYearly}
          />
          <FormField
            id="settings-remaining"
            label={t('clients.settingsRemaining')}
            type="number"
            min={0}
            value={remaining}
            onChange={setRemaining}
          />
        </div>
        <DatePicker label={t('clients.settingsEndDate')} value={endDate} onChange={setEndDate} required />
        <div className="renew">
          <span className="muted">{t('clients.currentEndDate', { date: formatDate(client.endDate) })}</span>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={onRenew}
            disabled={busy}
          >
            {t('clients.renew')}
          </button>
        </div>
        <div className="form-grid">
          <FormField
            id="settings-tax-code"
            label={t('clients.settingsTaxCode')}
            value={taxCode}
            onChange={(text) => setTaxCode(text.toUpperCase())}
          />
          <div className="field">
            <label htmlFor="settings-logo">{t('clients.settingsLogo')}</label>
            <select id="settings-logo" value={logoId} onChange={(e) => setLogoId(Number(e.target.value))}>
              <option value={DEFAULT_LOGO_ID}>{t('clients.noLogo')}</option>
              {logos
                .filter((logo) => logo.id !== DEFAULT_LOGO_ID)
                .map((logo) => (
                  <option key={logo.id} value={logo.id}>
                    {logo.name}
                  </option>
                ))}
            </select>
          </div>
        </div>
        <Switch label={t('clients.settingsPdf')} checked={pdfEnabled} onChange={setPdfEnabled} />
        <Switch label={t('clients.settingsAlerts')} checked={alerts} onChange={setAlerts} />
        <ProblemText problem={problem} />
        <DialogActions onCancel={onClose} submitLabel={t('common.save')} submitDisabled={busy} />
      </form>
    </Dialog>
  );
}
