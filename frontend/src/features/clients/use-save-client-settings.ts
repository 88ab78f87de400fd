import { useState } from 'react';
import { DEFAULT_LOGO_ID, type ClientDto } from '@rna/domain';
import type { ClientSettings } from './client-settings-dialog';
import {
  useChangeLogoMutation,
  useRemoveFixedTaxCodeMutation,
  useSetFixedTaxCodeMutation,
  useSetLimitsMutation,
  useSetPdfEnabledMutation,
  useSetVariationAlertsMutation,
} from './clients-api';

/**
 * The settings dialog's save: only what changed is sent, one call per setting, all at once; the
 * outcome is told once, the first failure if any.
 */
export function useSaveClientSettings({
  onSaved,
  onFailed,
}: {
  onSaved: (client: ClientDto) => void;
  onFailed: (error: unknown) => void;
}) {
  const [changeLogo] = useChangeLogoMutation();
  const [setFixed] = useSetFixedTaxCodeMutation();
  const [removeFixed] = useRemoveFixedTaxCodeMutation();
  const [setLimits] = useSetLimitsMutation();
  const [setPdf] = useSetPdfEnabledMutation();
  const [setAlerts] = useSetVariationAlertsMutation();
  const [saving, setSaving] = useState(false);

  const saveSettings = async (client: ClientDto, s: ClientSettings) => {
    setSaving(true);
    const calls: Promise<{ error?: unknown }>[] = [];
    if (
      s.availableYearlySearches !== client.availableYearlySearches ||
      s.remainingSearches !== client.remainingSearches ||
      s.endDate !== client.endDate
    ) {
      calls.push(
        setLimits({
          id: client.id,
          availableYearlySearches: s.availableYearlySearches,
          remainingSearches: s.remainingSearches,
          endDate: s.endDate,
        }),
      );
    }
    if (s.taxCode !== (client.taxCode ?? '')) {
      // an emptied field removes the fixed tax code (SPEC §5)
      calls.push(s.taxCode ? setFixed({ id: client.id, code: s.taxCode }) : removeFixed(client.id));
    }
    // "Logo predefinito" is the built-in logo: choosing it over another is a change like any other
    if (s.logoId !== (client.logo?.id ?? DEFAULT_LOGO_ID))
      calls.push(changeLogo({ id: client.id, logoId: s.logoId }));
    if (s.pdfEnabled !== client.pdfEnabled) calls.push(setPdf({ id: client.id, enabled: s.pdfEnabled }));
    if (s.enableVariationAlerts !== client.enableVariationAlerts)
      calls.push(setAlerts({ id: client.id, enable: s.enableVariationAlerts }));
    const results = await Promise.all(calls);
    setSaving(false);
    const failed = results.find((r) => r.error);
    if (failed) onFailed(failed.error);
    else onSaved(client);
  };

  return { saveSettings, saving };
}
