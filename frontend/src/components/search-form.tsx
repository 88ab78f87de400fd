import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isTaxCodeWellFormed, normaliseTaxCode } from '../lib/domain-rules';

export interface SearchQuery {
  taxCodes: string[];
  deMinimis: boolean;
  last3Years: boolean;
}

interface SearchFormProps {
  initial?: Partial<SearchQuery>;
  /** a fixed tax code locks the controls to that code */
  fixedTaxCode?: string | null;
  onSearch: (query: SearchQuery) => void;
  busy?: boolean;
}

/** The tax-code search box: single code, or several codes as chips (SPEC §4 search mode, §5). */
export function SearchForm({ initial, fixedTaxCode, onSearch, busy }: SearchFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const initialCodes = fixedTaxCode ? [fixedTaxCode] : (initial?.taxCodes ?? []).filter(Boolean);
  const [multiple, setMultiple] = useState(!fixedTaxCode && initialCodes.length > 1);
  const [chips, setChips] = useState<string[]>(initialCodes.length > 1 ? initialCodes : []);
  const [text, setText] = useState(initialCodes.length === 1 ? (initialCodes[0] ?? '') : '');
  const [deMinimis, setDeMinimis] = useState(initial?.deMinimis ?? false);
  const [last3Years, setLast3Years] = useState(initial?.last3Years ?? false);
  const [error, setError] = useState(false);
  const locked = Boolean(fixedTaxCode);

  const addChip = () => {
    const code = normaliseTaxCode(text);
    if (!isTaxCodeWellFormed(code)) {
      setText('');
      setError(true);
      return;
    }
    setError(false);
    setChips((current) => (current.includes(code) ? current : [...current, code]));
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === ' ') {
      // spaces are never part of a tax code
      event.preventDefault();
      if (multiple) addChip();
    } else if (event.key === 'Enter' && multiple) {
      event.preventDefault();
      addChip();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const codes = fixedTaxCode
      ? [fixedTaxCode]
      : multiple
        ? [...chips, ...(text ? [normaliseTaxCode(text)] : [])]
        : [normaliseTaxCode(text)];
    const taxCodes = codes.filter((code) => code !== '');
    if (!taxCodes[0] || !isTaxCodeWellFormed(taxCodes[0])) {
      setError(true);
      return;
    }
    setError(false);
    onSearch({ taxCodes, deMinimis, last3Years });
  };

  const toggleMultiple = (next: boolean) => {
    setMultiple(next);
    setError(false);
    if (next) {
      const code = normaliseTaxCode(text);
      setChips(code ? [code] : []);
      setText('');
    } else {
      setText(chips[0] ?? '');
      setChips([]);
    }
  };

  return (
    <form className="search-form card" onSubmit={submit} noValidate>
      <div className="field search-form__codes">
        <label htmlFor={`${id}-code`}>{multiple ? t('search.taxCodes') : t('search.taxCode')}</label>
        <div className={`chips-input${error ? ' chips-input--error' : ''}`}>
          {chips.map((chip) => (
            <button
              key={chip}
              type="button"
              className="chip"
              aria-label={t('search.removeCode', { code: chip })}
              onClick={() => setChips((current) => current.filter((c) => c !== chip))}
            >
              {chip} <span aria-hidden="true">×</span>
            </button>
          ))}
          <input
            id={`${id}-code`}
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={locked ? (fixedTaxCode ?? '') : text}
            disabled={locked}
            placeholder={multiple ? t('search.multiplePlaceholder') : t('search.placeholder')}
            aria-invalid={error}
            aria-describedby={error ? `${id}-error` : undefined}
            onKeyDown={onKeyDown}
            onChange={(e) => {
              setText(e.target.value.replace(/\s+/g, '').toUpperCase());
              setError(false);
            }}
          />
        </div>
        {error && (
          <p id={`${id}-error`} className="field__error" role="alert">
            {t('errors.T002')}
          </p>
        )}
      </div>
      <div className="search-form__options">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={multiple}
            disabled={locked}
            onChange={(e) => toggleMultiple(e.target.checked)}
          />
          {t('search.multiple')}
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={deMinimis} onChange={(e) => setDeMinimis(e.target.checked)} />
          {t('search.deMinimis')}
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={last3Years} onChange={(e) => setLast3Years(e.target.checked)} />
          {t('search.last3Years')}
        </label>
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('search.start')}
        </button>
      </div>
    </form>
  );
}

/** The documents URL for a query: taxCode comma-separated, both flags as true/false. */
export function documentsUrl(query: SearchQuery): string {
  const params = new URLSearchParams({
    taxCode: query.taxCodes.join(','),
    deMinimis: String(query.deMinimis),
    last3Years: String(query.last3Years),
  });
  return `/documents?${params.toString()}`;
}
