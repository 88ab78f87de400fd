import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOGO_ID, renewedEndDate, type ClientDto } from '@rna/domain';
import { formatDateInput, parseDateInput } from '../../components/date-input';
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
  onClose: () => void;
  /** the clock of the renewal preview; the browser's by default */
  now?: () => number;
}

/** What the end date and the remaining searches were before "Rinnova di un anno", to take it back. */
interface BeforeRenewal {
  endDate: Date | null;
  endDateText: string;
  remaining: string;
}

export function ClientSettingsDialog({
  client,
  logos,
  busy,
  onSave,
  onClose,
  now = Date.now,
}: ClientSettingsDialogProps) {
  const { t } = useTranslation();
  const [yearly, setYearly] = useState(String(client.availableYearlySearches));
  const [remaining, setRemaining] = useState(String(client.remainingSearches));
  const [endDate, setEndDate] = useState<Date | null>(new Date(client.endDate));
  const [endDateText, setEndDateText] = useState(formatDateInput(new Date(client.endDate)));
  const [beforeRenewal, setBeforeRenewal] = useState<BeforeRenewal | null>(null);
  const renewedText = formatDateInput(new Date(renewedEndDate(client.endDate, now())));
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
    // the typed text decides, even if Enter sent the form before the field told its date
    const typed = endDateText.trim() === '' ? null : (parseDateInput(endDateText) ?? 'invalid');
    if (typed === null) {
      setProblem('clients.endDateRequired');
      return;
    }
    if (typed === 'invalid') {
      setProblem('clients.endDateInvalid');
      return;
    }
    setProblem(null);
    onSave({
      availableYearlySearches: yearlyN,
      remainingSearches: remainingN,
      endDate: atNoon(typed),
      taxCode: normaliseTaxCode(taxCode),
      logoId,
      pdfEnabled,
      enableVariationAlerts: alerts,
    });
  };

  /** A renewal is a change of the form like any other: shown here, sent only by "Salva". */
  const renew = () => {
    const renewed = renewedEndDate(client.endDate, now());
    setBeforeRenewal({ endDate, endDateText, remaining });
    setEndDate(new Date(renewed));
    setEndDateText(formatDateInput(new Date(renewed)));
    // a renewal gives the full yearly allowance again, as the register of quotas does
    setRemaining(yearly);
  };
  const undoRenewal = () => {
    if (!beforeRenewal) return;
    setEndDate(beforeRenewal.endDate);
    // the field shows a date again, or nothing: not text it had refused
    setEndDateText(beforeRenewal.endDate ? beforeRenewal.endDateText : '');
    setRemaining(beforeRenewal.remaining);
    setBeforeRenewal(null);
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
        <DatePicker
          label={t('clients.settingsEndDate')}
          value={endDate}
          onChange={(date, text) => {
            setEndDate(date);
            setEndDateText(text);
            // another date typed over the renewal's replaces it
            if (beforeRenewal && text.trim() !== renewedText) setBeforeRenewal(null);
          }}
          required
        />
        <div className="renew">
          <span className="muted">{t('clients.currentEndDate', { date: formatDate(client.endDate) })}</span>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={beforeRenewal ? undoRenewal : renew}
            disabled={busy}
          >
            {beforeRenewal ? t('clients.undoRenew') : t('clients.renew')}
          </button>
        </div>
        {beforeRenewal && (
          <p className="card info-note" role="status">
            {t('clients.renewPreview', { date: renewedText, remaining })}
          </p>
        )}
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
