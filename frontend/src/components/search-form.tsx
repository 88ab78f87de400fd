import { useId, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { failsCheckDigit, isTaxCodeWellFormed, normaliseTaxCode, parseTaxCodes } from '../lib/domain-rules';

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
  /** a client whose searches are counted: told before a multiple search what it may cost */
  metered?: boolean;
}

const SHOWN_MALFORMED = 5;

/**
 * The tax-code search box: single code, or several codes as chips (SPEC §4 search mode, §5). A pasted
 * list becomes chips; codes whose check digit is wrong are marked and need a second confirmation
 * before the search (and its charge) goes out.
 */
export function SearchForm({ initial, fixedTaxCode, onSearch, busy, metered }: SearchFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const initialCodes = fixedTaxCode ? [fixedTaxCode] : (initial?.taxCodes ?? []).filter(Boolean);
  const [multiple, setMultiple] = useState(!fixedTaxCode && initialCodes.length > 1);
  const [chips, setChips] = useState<string[]>(initialCodes.length > 1 ? initialCodes : []);
  const [text, setText] = useState(initialCodes.length === 1 ? (initialCodes[0] ?? '') : '');
  const [deMinimis, setDeMinimis] = useState(initial?.deMinimis ?? false);
  const [last3Years, setLast3Years] = useState(initial?.last3Years ?? false);
  const [error, setError] = useState(false);
  const [ignored, setIgnored] = useState<string[]>([]);
  /** the codes whose failed check the user is asked to confirm; the search waits for it */
  const [unconfirmed, setUnconfirmed] = useState<string[]>([]);
  const locked = Boolean(fixedTaxCode);

  const codesChanged = () => {
    setError(false);
    setUnconfirmed([]);
  };

  const addChip = () => {
    const code = normaliseTaxCode(text);
    codesChanged();
    setIgnored([]);
    if (!isTaxCodeWellFormed(code)) {
      setText('');
      setError(true);
      return;
    }
    setChips((current) => (current.includes(code) ? current : [...current, code]));
    setText('');
  };

  /** A pasted list: one chip per code (several switch to multiple search), the rest listed as ignored. */
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const list = parseTaxCodes(event.clipboardData.getData('text'));
    // one code alone is typed in as usual (the box drops its spaces)
    if (list.codes.length <= 1 && list.malformed.length === 0) return;
    event.preventDefault();
    const typed = normaliseTaxCode(text);
    const codes = [...chips, ...(isTaxCodeWellFormed(typed) ? [typed] : []), ...list.codes].filter(
      (code, i, all) => all.indexOf(code) === i,
    );
    codesChanged();
    setIgnored(list.malformed);
    if (codes.length > 1 || multiple) {
      setMultiple(true);
      setChips(codes);
      setText(isTaxCodeWellFormed(typed) ? '' : text);
    } else {
      setText(codes[0] ?? text);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === ' ') {
      // spaces are never part of a tax code
      event.preventDefault();
      if (multiple && text) addChip();
    } else if (event.key === 'Enter' && multiple && text) {
      // a code being typed becomes a chip; with the box empty, Enter submits the chips
      event.preventDefault();
      addChip();
    }
  };

  const codesToSearch = (): string[] => {
    const codes = fixedTaxCode
      ? [fixedTaxCode]
      : multiple
        ? [...chips, ...(text ? [normaliseTaxCode(text)] : [])]
        : [normaliseTaxCode(text)];
    return codes.filter((code) => code !== '');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const taxCodes = codesToSearch();
    if (taxCodes.length === 0 || !taxCodes.every(isTaxCodeWellFormed)) {
      setError(true);
      return;
    }
    setError(false);
    const doubtful = locked ? [] : taxCodes.filter(failsCheckDigit);
    const confirmed = doubtful.every((code) => unconfirmed.includes(code));
    if (doubtful.length > 0 && !confirmed) {
      setUnconfirmed(doubtful);
      return;
    }
    setUnconfirmed([]);
    onSearch({ taxCodes, deMinimis, last3Years });
  };

  /**
   * A display filter changed while the box still holds the codes on screen: the results follow at
   * once (free: the same codes the same day), so the rows, the totals and the downloads never show
   * one filter while the box says another. New codes being typed wait for "Avvia ricerca".
   */
  const changeFilters = (next: { deMinimis: boolean; last3Years: boolean }) => {
    setDeMinimis(next.deMinimis);
    setLast3Years(next.last3Years);
    const shown = initial?.taxCodes ?? [];
    const inBox = codesToSearch();
    const sameCodes =
      shown.length > 0 && inBox.length === shown.length && inBox.every((code) => shown.includes(code));
    if (sameCodes) onSearch({ taxCodes: shown, ...next });
  };

  const toggleMultiple = (next: boolean) => {
    setMultiple(next);
    codesChanged();
    if (next) {
      const code = normaliseTaxCode(text);
      setChips(code ? [code] : []);
      setText('');
    } else {
      setText(chips[0] ?? '');
      setChips([]);
    }
  };

  const describedBy =
    [error && `${id}-error`, ignored.length > 0 && `${id}-ignored`, unconfirmed.length > 0 && `${id}-check`]
      .filter(Boolean)
      .join(' ') || undefined;

  return (
    <form className="search-form card" onSubmit={submit} noValidate>
      <div className="field search-form__codes">
        <label htmlFor={`${id}-code`}>{multiple ? t('search.taxCodes') : t('search.taxCode')}</label>
        <div className={`chips-input${error ? ' chips-input--error' : ''}`}>
          {chips.map((chip) => {
            const doubtful = failsCheckDigit(chip);
            return (
              <button
                key={chip}
                type="button"
                className={`chip${doubtful ? ' chip--warning' : ''}`}
                aria-label={t('search.removeCode', { code: chip })}
                title={doubtful ? t('search.checkDigitFailed') : undefined}
                onClick={() => {
                  codesChanged();
                  setChips((current) => current.filter((c) => c !== chip));
                }}
              >
                {doubtful && <span aria-hidden="true">⚠ </span>}
                {chip} <span aria-hidden="true">×</span>
              </button>
            );
          })}
          <input
            id={`${id}-code`}
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={locked ? (fixedTaxCode ?? '') : text}
            disabled={locked}
            placeholder={multiple ? t('search.multiplePlaceholder') : t('search.placeholder')}
            aria-invalid={error}
            aria-describedby={describedBy}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            onChange={(e) => {
              setText(e.target.value.replace(/\s+/g, '').toUpperCase());
              codesChanged();
            }}
          />
        </div>
        {error && (
          <p id={`${id}-error`} className="field__error" role="alert">
            {t('errors.T002')}
          </p>
        )}
        {ignored.length > 0 && (
          <p id={`${id}-ignored`} className="field__error" role="alert">
            {t('search.malformedIgnored', {
              count: ignored.length,
              items:
                ignored.slice(0, SHOWN_MALFORMED).join(', ') + (ignored.length > SHOWN_MALFORMED ? '…' : ''),
            })}
          </p>
        )}
        {unconfirmed.length > 0 && (
          <div id={`${id}-check`} className="field__warning" role="alert">
            <span>
              {t('search.checkDigitWarning', { count: unconfirmed.length, codes: unconfirmed.join(', ') })}
            </span>
            <button type="submit" className="button button--secondary">
              {t('search.searchAnyway')}
            </button>
          </div>
        )}
      </div>
      {metered && multiple && codesToSearch().length > 1 && (
        <p className="search-form__cost" role="note">
          {t('search.costNotice', { count: codesToSearch().length })}
        </p>
      )}
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
          <input
            type="checkbox"
            checked={deMinimis}
            onChange={(e) => changeFilters({ deMinimis: e.target.checked, last3Years })}
          />
          {t('search.deMinimis')}
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={last3Years}
            onChange={(e) => changeFilters({ deMinimis, last3Years: e.target.checked })}
          />
          {t('search.last3Years')}
        </label>
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('search.start')}
        </button>
      </div>
    </form>
  );
}

/**
 * The documents URL for a query: taxCode comma-separated, both flags as true/false; `group` names the
 * user's group (impresa unica) the codes come from, so the headroom is asked for that group.
 */
export function documentsUrl(query: SearchQuery, group?: string | null): string {
  const params = new URLSearchParams({
    taxCode: query.taxCodes.join(','),
    deMinimis: String(query.deMinimis),
    last3Years: String(query.last3Years),
  });
  if (group) params.set('group', group);
  return `/documents?${params.toString()}`;
}
