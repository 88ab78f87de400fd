import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import it from './it.json';

/** Italian only: whatever the browser asks for, the Italian catalogue answers (SPEC §1). */
export function initI18n(): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n
      .use(LanguageDetector)
      .use(initReactI18next)
      .init({
        resources: { it: { translation: it } },
        fallbackLng: 'it',
        supportedLngs: ['it'],
        nonExplicitSupportedLngs: true,
        detection: { order: ['querystring', 'navigator', 'htmlTag'], caches: [] },
        interpolation: { escapeValue: false },
        initAsync: false,
      });
  }
  return i18n;
}

export default i18n;
